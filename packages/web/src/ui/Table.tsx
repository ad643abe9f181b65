import { useEffect, useMemo, useReducer, useRef, useState } from 'preact/hooks';
import { ApiError, api } from '../lib/api';
import { TableConnection, type ConnectionStatus } from '../lib/connection';
import type { RollerCharacter } from '../lib/roller';
import { STATUS_LABEL, STATUS_PENALTY, type ChallengeResult, type EnteredPools, type TableView } from '../lib/rules';
import { openTab, rememberTab, saveTable, savedTable } from '../lib/storage';
import { PERSONAE } from '../rulesets/catalog';
import { RulesetTable } from '../rulesets/host';
import { Frame, link } from './Frame';
import { Builder } from './Builder';
import { Characters } from './Characters';
import { Encounter } from './Encounter';
import { Log, announce } from './Log';
import { Roller, type RollCommand } from './Roller';
import { Talk } from './Talk';
import { Invite, Options, Participants, PhysicalDice, Records } from './TableSettings';
import { SecretRolls } from './SecretRolls';
import { DiceFairness } from './Fairness';
import { ReplayLog } from './Replay';
import { PortraitProvider } from './portraits';

const NO_CHANGES: Readonly<Record<string, string | null>> = {};

type Tab = 'play' | 'encounter' | 'characters' | 'log' | 'table';
const TABS: { id: Tab; label: string; narrowOnly?: boolean }[] = [
  { id: 'play', label: 'Roll' },
  { id: 'encounter', label: 'Encounter' },
  { id: 'characters', label: 'Characters' },
  { id: 'log', label: 'Log', narrowOnly: true },
  { id: 'table', label: 'Table' },
];

const STATUS_TEXT: Record<ConnectionStatus, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  refused: 'Disconnected',
};

function message(e: unknown): string {
  if (e instanceof ApiError) return e.message;
  return e instanceof Error ? e.message : 'That did not work.';
}

export function rollerCharacters(view: TableView): RollerCharacter[] {
  const stage = view.scene?.clock.stage ?? 'scene';
  return view.characters.map((c) => {
    const status = c.play?.status ?? 'unharmed';
    const applies = view.options.injuryPenaltyLasts === 'until-recovered' || stage === 'violent';
    const dice = status === 'dead' ? 0 : STATUS_PENALTY[status];
    return { id: c.id, name: c.name, sheet: c.sheet, penalty: applies && dice > 0 ? { dice, status: STATUS_LABEL[status] } : null };
  });
}

/** Entries after `seen` that someone else made: what a person has not read yet. */
export function unreadCount(log: readonly { seq: number; by: string }[], seen: number, me: string): number {
  return log.filter((e) => e.seq > seen && e.by !== me).length;
}

/** Whether the window is wide enough for the log to stay beside the other sections. */
function useWide(): boolean {
  const query = '(min-width: 1000px)';
  const [wide, setWide] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const m = window.matchMedia(query);
    const on = () => setWide(m.matches);
    m.addEventListener('change', on);
    return () => m.removeEventListener('change', on);
  }, []);
  return wide;
}

export function TablePage(props: { tableId: string; token: string | null; watch: boolean }) {
  const token = props.token ?? savedTable(props.tableId)?.token ?? null;
  const [, bump] = useReducer((n: number, _: void) => n + 1, 0);
  const refresh = () => bump();
  const conn = useRef<TableConnection | null>(null);
  const [tab, setTab] = useState<Tab>(() => (openTab(props.tableId) as Tab | null) ?? 'play');
  const [building, setBuilding] = useState(false);
  const [editing, setEditing] = useState<{ id: string; sheet: NonNullable<TableView['characters'][number]['sheet']> } | null>(null);
  const [spoken, setSpoken] = useState('');
  const announced = useRef<number | null>(null);

  useEffect(() => {
    if (!token) return;
    if (!props.token) history.replaceState(null, '', `${location.pathname}#token=${encodeURIComponent(token)}`);
    const c = new TableConnection({ tableId: props.tableId, token, onChange: refresh });
    conn.current = c;
    c.start();
    return () => c.stop();
  }, [props.tableId, token]);

  useEffect(() => {
    rememberTab(props.tableId, tab);
  }, [tab, props.tableId]);

  const c = conn.current;
  const welcome = c?.welcome ?? null;
  // A table of another ruleset is shown by that ruleset's pages (rulesets/); this page is Personae's.
  const ruleset = welcome?.table.ruleset ?? PERSONAE;
  const view = ruleset === PERSONAE ? ((c?.state ?? null) as TableView | null) : null;
  const participants = c?.participants ?? [];

  useEffect(() => {
    if (!welcome || !token) return;
    const prev = savedTable(props.tableId, token);
    saveTable({
      ...(prev ?? {}),
      tableId: props.tableId,
      tableName: welcome.table.name,
      role: welcome.you.role,
      displayName: welcome.you.displayName,
      token,
    });
  }, [welcome?.table.name, welcome?.you.role]);

  // New entries of the log are read out politely; the log already there when the page opens is not.
  useEffect(() => {
    if (!view) return;
    const last = view.log[view.log.length - 1]?.seq ?? 0;
    if (announced.current === null) {
      announced.current = last;
      return;
    }
    const fresh = view.log.filter((e) => e.seq > announced.current!);
    announced.current = Math.max(announced.current, last);
    if (fresh.length) setSpoken(fresh.slice(-3).map((e) => announce(e, participants, view.options.grades === 'srd-v4')).join(' '));
  }, [view?.seq]);

  const wide = useWide();
  // On a narrow screen the log is a tab of its own: entries by others since it was last open are counted on it.
  const [logSeen, setLogSeen] = useState<number | null>(null);
  const logOpen = tab === 'log' && !wide;
  const lastLogSeq = view?.log[view.log.length - 1]?.seq ?? 0;
  useEffect(() => {
    if (view && (logSeen === null || logOpen || wide)) setLogSeen(lastLogSeq);
  }, [lastLogSeq, logOpen, wide, view !== null]);
  const unread = view && logSeen !== null && !wide ? unreadCount(view.log, logSeen, welcome?.you.participantId ?? '') : 0;
  const physical = welcome?.table.settings.physicalDice ?? false;
  const me = welcome?.you ?? null;
  const gm = me?.role === 'gm';
  const observer = me?.role === 'observer';

  /** Sends a command; `dice`: physical dice typed in, by the named pool they fill. */
  const send = async (command: unknown, dice?: EnteredPools): Promise<void> => {
    if (!c) throw new Error('Not connected.');
    try {
      const ack = await c.send(command, dice);
      await c.stateAt(ack.lastSeq);
    } catch (e) {
      throw new Error(message(e));
    }
  };

  const roll = async ({ command, dice }: RollCommand): Promise<ChallengeResult | null> => {
    if (!c) throw new Error('Not connected.');
    let ack;
    try {
      ack = await c.send(command, dice);
    } catch (e) {
      throw new Error(message(e));
    }
    await c.stateAt(ack.lastSeq);
    const v = c.state as TableView | null;
    const entry = v?.log.find((e) => e.result && ack.firstSeq !== null && e.seq >= ack.firstSeq && e.seq <= (ack.lastSeq ?? e.seq));
    return entry?.result ?? null;
  };

  const characters = useMemo(() => (view ? rollerCharacters(view) : []), [view]);
  const mine = useMemo(() => (view && me ? view.characters.filter((x) => gm || x.owner === me.participantId).map((x) => x.id) : []), [view, me, gm]);

  if (!token) {
    return (
      <Frame>
        <main id="main">
          <div class="card">
            <h1>This link is incomplete</h1>
            <p>The link to a table carries a key after the # sign. Ask the GM for the full link, or open the table from the device you joined it on.</p>
            <p>
              <a href="/" onClick={link('/')}>
                Go to the start page
              </a>
            </p>
          </div>
        </main>
      </Frame>
    );
  }

  const status = c?.status ?? 'connecting';
  const pill = (
    <span class={`status-pill ${status}`} role="status" aria-live="polite">
      {STATUS_TEXT[status]}
      {c && c.waiting > 0 && status !== 'live' ? ` · ${c.waiting} waiting to send` : ''}
    </span>
  );
  const who = me ? (
    <span class="who">
      {me.displayName ?? 'Watching'} · {me.role === 'gm' ? 'GM' : me.role === 'player' ? 'player' : 'observer'}
    </span>
  ) : null;

  if (ruleset !== PERSONAE && welcome && c) {
    return (
      <Frame where={welcome.table.name} right={<>{who}{pill}</>}>
        {status === 'refused' && (
          <div class="banner bad" role="alert">
            {c.problem ?? 'The server refused this link.'}
          </div>
        )}
        <main id="main">
          <h1 class="sr-only">{`${welcome.table.name}: table`}</h1>
          <RulesetTable
            ruleset={ruleset}
            tableId={props.tableId}
            token={token}
            view={c.state}
            version={c.lastSeq}
            welcome={welcome}
            me={welcome.you}
            participants={participants}
            settings={welcome.table.settings}
            send={async (command, dice, expectedVersion) => {
              try {
                const ack = await c.send(command, dice, expectedVersion);
                await c.stateAt(ack.lastSeq);
              } catch (e) {
                throw new Error(message(e));
              }
            }}
            onSettings={(settings) => {
              c.setSettings(settings);
              refresh();
            }}
          />
        </main>
      </Frame>
    );
  }

  const onTabKey = (e: KeyboardEvent) => {
    const visible = TABS.filter((t) => !(t.narrowOnly && wide));
    const i = visible.findIndex((t) => t.id === tab);
    let next = -1;
    if (e.key === 'ArrowRight') next = (i + 1) % visible.length;
    else if (e.key === 'ArrowLeft') next = (i - 1 + visible.length) % visible.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = visible.length - 1;
    if (next < 0) return;
    e.preventDefault();
    setTab(visible[next]!.id);
    document.getElementById(`tab-${visible[next]!.id}`)?.focus();
  };
  const effectiveTab = tab === 'log' && wide ? 'play' : tab;

  return (
    <PortraitProvider tableId={props.tableId} token={token} changes={c?.portraitChanges ?? NO_CHANGES}>
      <Frame where={welcome ? welcome.table.name : 'Table'} right={<>{who}{pill}</>}>
        {status === 'reconnecting' && (
          <div class="banner warn" role="status">
            The connection to the table was lost. Reconnecting by itself… {c && c.waiting > 0 ? 'Your last action will be sent when it is back.' : ''}
            <button type="button" class="quiet" onClick={() => c?.reconnectNow()}>
              Try now
            </button>
          </div>
        )}
        {status === 'refused' && (
          <div class="banner bad" role="alert">
            {c?.problem ?? 'The server refused this link.'}
          </div>
        )}
        <div class="sr-only" aria-live="polite" aria-atomic="true" id="announcer">
          {spoken}
        </div>
        <main id="main">
          <h1 class="sr-only">{welcome ? `${welcome.table.name}: table` : 'Table'}</h1>
          {!view ? (
            <p class="muted">{status === 'refused' ? '' : 'Joining the table…'}</p>
          ) : (
            <>
              <div class="tabs" role="tablist" aria-label="Table sections" onKeyDown={onTabKey}>
                {TABS.map((t) => (
                  <button
                    key={t.id}
                    id={`tab-${t.id}`}
                    type="button"
                    role="tab"
                    aria-selected={effectiveTab === t.id}
                    aria-controls={`panel-${t.id}`}
                    tabIndex={effectiveTab === t.id ? 0 : -1}
                    data-narrow-only={t.narrowOnly ? '' : undefined}
                    onClick={() => setTab(t.id)}
                  >
                    {t.label}
                    {t.id === 'log' && unread > 0 && (
                      <span class="unread" aria-label={`${unread} new`}>
                        {unread}
                      </span>
                    )}
                  </button>
                ))}
              </div>
              <div class="table-layout">
                <div>
                  <div role="tabpanel" id="panel-play" aria-labelledby="tab-play" hidden={effectiveTab !== 'play'} class="card">
                    {observer ? (
                      <p class="muted">Watching: the rolls appear in the log.</p>
                    ) : (
                      <Roller
                        idPrefix="roll"
                        options={view.options}
                        characters={characters}
                        mine={mine}
                        physicalDice={gm || physical}
                        gm={gm}
                        onRoll={roll}
                      />
                    )}
                  </div>
                  <div role="tabpanel" id="panel-encounter" aria-labelledby="tab-encounter" hidden={effectiveTab !== 'encounter'}>
                    {me && <Encounter view={view} me={me} send={send} physicalDice={physical} onAward={() => setTab('characters')} />}
                  </div>
                  <div role="tabpanel" id="panel-characters" aria-labelledby="tab-characters" hidden={effectiveTab !== 'characters'}>
                    {editing && !observer ? (
                      <Builder
                        key={editing.id}
                        options={view.options}
                        storageKey={`personae.edit.${props.tableId}.${editing.id}`}
                        gm={gm}
                        initial={editing.sheet}
                        editing
                        onAdd={async (sheet) => {
                          await send({ type: 'update-sheet', id: editing.id, sheet });
                        }}
                        onClose={() => setEditing(null)}
                      />
                    ) : building && !observer ? (
                      <Builder
                        options={view.options}
                        storageKey={`personae.draft.${props.tableId}`}
                        gm={gm}
                        onAdd={async (sheet, extra) => {
                          await send({ type: 'add-character', sheet, hidden: extra.hidden, outOfScene: extra.outOfScene });
                        }}
                        onClose={() => setBuilding(false)}
                      />
                    ) : (
                      me && (
                        <Characters
                          view={view}
                          participants={participants}
                          me={me}
                          actions={{
                            send,
                            setPortrait: async (characterId, image) => {
                              if (!token) return;
                              if (image) await api.setPortrait(props.tableId, token, characterId, image);
                              else await api.removePortrait(props.tableId, token, characterId);
                            },
                          }}
                          onBuild={observer ? null : () => setBuilding(true)}
                          onEdit={observer ? null : (c) => c.sheet && setEditing({ id: c.id, sheet: c.sheet })}
                        />
                      )
                    )}
                  </div>
                  <div role="tabpanel" id="panel-log" aria-labelledby="tab-log" hidden={effectiveTab !== 'log'} class="card">
                    {me && !observer && !wide && <Talk idPrefix="talk-main" me={me.participantId} gm={gm} participants={participants} send={send} />}
                    <Log idPrefix="log-main" log={view.log} omitted={view.logOmitted} characters={view.characters} participants={participants} gm={gm} graded={view.options.grades === 'srd-v4'} tableName={welcome?.table.name} me={welcome?.you.participantId} />
                  </div>
                  <div role="tabpanel" id="panel-table" aria-labelledby="tab-table" hidden={effectiveTab !== 'table'}>
                    {gm && <Invite tableId={props.tableId} token={token} />}
                    {me && <Participants participants={participants} me={me.participantId} gm={gm} tableId={props.tableId} token={token} />}
                    <PhysicalDice
                      allowed={physical}
                      gm={gm}
                      tableId={props.tableId}
                      token={token}
                      onChanged={(settings) => {
                        c?.setSettings(settings);
                        refresh();
                      }}
                    />
                    <Records tableId={props.tableId} token={token} tableName={welcome?.table.name ?? 'Table'} gm={gm} view={view} participants={participants} />
                    <Options view={view} gm={gm} send={send} />
                    <SecretRolls view={view} gm={gm} send={send} />
                    {gm && <DiceFairness rows={view.diceFairness} participants={participants} />}
                    {gm && <ReplayLog view={view} />}
                  </div>
                </div>
                <aside class="card side-log" aria-label="Shared log">
                  {me && !observer && wide && <Talk idPrefix="talk-side" me={me.participantId} gm={gm} participants={participants} send={send} />}
                  <Log idPrefix="log-side" log={view.log} omitted={view.logOmitted} characters={view.characters} participants={participants} gm={gm} graded={view.options.grades === 'srd-v4'} limit={40} tableName={welcome?.table.name} me={welcome?.you.participantId} />
                </aside>
              </div>
            </>
          )}
        </main>
      </Frame>
    </PortraitProvider>
  );
}
