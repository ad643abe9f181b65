import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, type Participant, type TableSettings } from '../lib/api';
import { plural } from '../lib/format';
import { OPTION_GROUPS, OPTION_LABEL } from '../lib/option-labels';
import { PRESET_LABEL } from '../lib/presets';
import { saveTable, savedTable } from '../lib/storage';
import { OPTION_DEFINITIONS, PRESETS, allowedValues, presetOptions, type OptionName, type Preset, type TableOptions, type TableView } from '../lib/rules';

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Copy text, with a fallback for pages not served over a secure context. */
async function copy(text: string, input: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!input) return false;
    input.select();
    return document.execCommand('copy');
  }
}

export function LinkBox(props: { id: string; label: string; link: string; hint?: string }) {
  const [copied, setCopied] = useState(false);
  let ref: HTMLInputElement | null = null;
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <div class="linkbox">
        <input id={props.id} type="text" readOnly value={props.link} ref={(el) => {
            ref = el;
          }} onFocus={(e) => e.currentTarget.select()} aria-describedby={props.hint ? `${props.id}-hint` : undefined} />
        <button
          type="button"
          onClick={async () => {
            setCopied(await copy(props.link, ref));
            setTimeout(() => setCopied(false), 2500);
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      {props.hint && (
        <span id={`${props.id}-hint`} class="hint">
          {props.hint}
        </span>
      )}
      <span class="sr-only" aria-live="polite">
        {copied ? 'Link copied' : ''}
      </span>
    </div>
  );
}

export function Invite(props: { tableId: string; token: string }) {
  const saved = savedTable(props.tableId, props.token);
  const [invite, setInvite] = useState(saved?.invite ?? null);
  const [observer, setObserver] = useState(saved?.observer ?? null);
  const [error, setError] = useState<string | null>(null);
  const [kept, setKept] = useState<'asking' | 'none' | null>(saved?.invite ? null : 'asking');
  useEffect(() => {
    if (invite) return;
    // Made on another device: the server shows the GM the invite it keeps sealed, if it keeps one.
    let live = true;
    api.inviteLink(props.tableId, props.token).then(
      (r) => {
        if (!live) return;
        setInvite(r.link);
        setKept(null);
        if (saved) saveTable({ ...saved, invite: r.link });
      },
      () => live && setKept('none'),
    );
    return () => {
      live = false;
    };
  }, [props.tableId, props.token]);
  const rotate = async (kind: 'invite' | 'observer') => {
    setError(null);
    try {
      const r = await api.rotate(props.tableId, props.token, kind);
      if (kind === 'invite') setInvite(r.link);
      else setObserver(r.link);
      if (saved) saveTable({ ...saved, ...(kind === 'invite' ? { invite: r.link } : { observer: r.link }) });
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The link could not be replaced.');
    }
  };
  return (
    <section class="card stack" aria-labelledby="invite-h">
      <h2 id="invite-h">Invite players</h2>
      {invite ? (
        <LinkBox id="invite-link" label="Invite link" link={invite} hint="Send it to your players. Each one picks a name and gets a link of their own." />
      ) : (
        <p class="muted">{kept === 'asking' ? 'Fetching the invite link…' : 'The invite link was made on another device, and this server cannot show it again: make a new one.'}</p>
      )}
      {observer && <LinkBox id="observer-link" label="Watch link (read only)" link={observer} />}
      <div class="row">
        <button type="button" onClick={() => rotate('invite')}>
          {invite ? 'Replace the invite link' : 'Make a new invite link'}
        </button>
        <button type="button" onClick={() => rotate('observer')}>
          {observer ? 'Replace the watch link' : 'Make a watch link'}
        </button>
      </div>
      <p class="small muted">Replacing a link stops the old one from working; players who already joined keep their place.</p>
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

export function Participants(props: { participants: readonly Participant[]; me: string; gm: boolean; tableId: string; token: string }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <section class="card" aria-labelledby="people-h">
      <h2 id="people-h">At the table</h2>
      <ul class="table-list">
        {props.participants.map((p) => (
          <li key={p.id}>
            <span>
              {p.displayName} <span class="muted small">{p.role === 'gm' ? 'GM' : 'player'}{p.id === props.me ? ' · you' : ''}</span>
            </span>
            {props.gm && p.role !== 'gm' && (
              <button
                type="button"
                class="quiet danger"
                onClick={async () => {
                  if (!window.confirm(`Remove ${p.displayName} from the table? Their link stops working at once.`)) return;
                  try {
                    await api.removeParticipant(props.tableId, props.token, p.id);
                  } catch (e) {
                    setError(e instanceof Error ? e.message : 'Removing failed.');
                  }
                }}
              >
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      {error && <p class="error-text">{error}</p>}
    </section>
  );
}

type Draft = { preset: Preset; options: TableOptions };

function encode(v: unknown): string {
  return JSON.stringify(v);
}

/** The table options: the preset and each open option, with the documents that settle it. */
export function Options(props: { view: TableView; gm: boolean; send: (command: unknown) => Promise<void> }) {
  const { view } = props;
  const [draft, setDraft] = useState<Draft>({ preset: view.preset, options: view.options });
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => setDraft({ preset: view.preset, options: view.options }), [view.preset, view.options]);
  const base = useMemo(() => presetOptions(draft.preset), [draft.preset]);
  const names = Object.keys(OPTION_DEFINITIONS) as OptionName[];
  const changed = !same(draft.preset, view.preset) || !same(draft.options, view.options);
  const changedCount = (draft.preset === view.preset ? 0 : 1) + names.filter((n) => !same(draft.options[n], view.options[n])).length;
  const overrides = Object.fromEntries(names.filter((n) => !same(draft.options[n], base[n])).map((n) => [n, draft.options[n]]));

  const apply = async () => {
    setBusy(true);
    setMessage(null);
    try {
      await props.send({ type: 'configure', preset: draft.preset, options: overrides });
      setMessage({ ok: true, text: 'The table now plays by these options.' });
    } catch (e) {
      setMessage({ ok: false, text: e instanceof Error ? e.message : 'The options were not changed.' });
    } finally {
      setBusy(false);
    }
  };

  const renderOption = (n: OptionName) => {
          const def = OPTION_DEFINITIONS[n] as unknown as { summary: string; sources: readonly string[]; values?: Record<string, string>; schema: Parameters<typeof allowedValues>[0]; defaults: Record<Preset, unknown> };
          const value = draft.options[n] as unknown;
          const values = allowedValues(def.schema);
          const id = `opt-${n}`;
          const differs = !same(value, base[n]);
          const set = (v: unknown) => setDraft((d) => ({ ...d, options: { ...d.options, [n]: v } }));
          let control;
          if (values) {
            control = (
              <select id={id} value={encode(value)} disabled={!props.gm} aria-describedby={`${id}-about`} onChange={(e) => set(JSON.parse(e.currentTarget.value))}>
                {values.map((v) => (
                  <option key={encode(v)} value={encode(v)}>
                    {String(v)}
                  </option>
                ))}
              </select>
            );
          } else if (typeof def.defaults['core-2011'] === 'boolean') {
            control = (
              <label class="check">
                <input id={id} type="checkbox" checked={value === true} disabled={!props.gm} aria-describedby={`${id}-about`} onChange={(e) => set(e.currentTarget.checked)} />
                {value === true ? 'yes' : 'no'}
              </label>
            );
          } else {
            const nullable = def.defaults['core-2011'] === null || value === null;
            control = (
              <div class="row">
                <input
                  id={id}
                  type="number"
                  min={0}
                  value={value === null ? '' : Number(value)}
                  disabled={!props.gm || value === null}
                  aria-describedby={`${id}-about`}
                  onInput={(e) => Number.isFinite(e.currentTarget.valueAsNumber) && set(Math.trunc(e.currentTarget.valueAsNumber))}
                />
                {nullable && (
                  <label class="check">
                    <input type="checkbox" checked={value === null} disabled={!props.gm} onChange={(e) => set(e.currentTarget.checked ? null : 1)} />
                    no limit
                  </label>
                )}
              </div>
            );
          }
          return (
            <li key={n}>
              <div class="field">
                <label for={id}>
                  {OPTION_LABEL[n]} <code class="small muted">{n}</code> {differs && <span class="tag">changed from {draft.preset}</span>}
                </label>
                {control}
                <span id={`${id}-about`} class="hint">
                  {values && def.values?.[String(value)] && (
                    <span class="option-meaning">
                      <strong>{String(value)}</strong>: {def.values[String(value)]}
                    </span>
                  )}
                  {def.summary}
                  <span class="rule-source">{def.sources.join('; ')}</span>
                </span>
              </div>
            </li>
          );
        };

  return (
    <section class="card stack" aria-labelledby="opts-h">
      <h2 id="opts-h">Table options</h2>
      <p class="small muted">
        Where the Personae documents leave a choice to the group or disagree, the table chooses. A preset sets every option as one document does.
      </p>
      <div class="field">
        <label for="opt-preset">Preset</label>
        <select
          id="opt-preset"
          value={draft.preset}
          disabled={!props.gm}
          onChange={(e) => {
            const preset = e.currentTarget.value as Preset;
            setDraft({ preset, options: presetOptions(preset) });
          }}
        >
          {PRESETS.map((p) => (
            <option key={p} value={p}>
              {PRESET_LABEL[p]} ({p})
            </option>
          ))}
        </select>
      </div>
      {message && (
        <p class={`notice ${message.ok ? 'good' : 'bad'}`} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </p>
      )}
      {OPTION_GROUPS.map((g) => {
        const changedHere = g.options.filter((n) => !same(draft.options[n], base[n])).length;
        return (
          <details key={g.title} class="option-group">
            <summary>
              {g.title} <span class="muted small">({plural(g.options.length, 'option')}{changedHere ? `, ${changedHere} changed from ${draft.preset}` : ''})</span>
            </summary>
            <ul class="item-list">{g.options.map(renderOption)}</ul>
          </details>
        );
      })}
      {props.gm && (
        <div class="apply-bar row">
          <span class="grow small">{changed ? `${plural(changedCount, 'change')} not applied yet.` : 'The table plays by these options.'}</span>
          <button type="button" disabled={!changed || busy} onClick={() => setDraft({ preset: view.preset, options: view.options })}>
            Undo changes
          </button>
          <button type="button" class="primary" disabled={!changed || busy} onClick={apply}>
            {busy ? 'Saving…' : 'Apply'}
          </button>
        </div>
      )}
    </section>
  );
}

/** Whether players may type in physical dice: the GM switches it during play, everyone else sees it change. */
export function PhysicalDice(props: {
  allowed: boolean;
  gm: boolean;
  tableId: string;
  token: string;
  onChanged: (settings: TableSettings) => void;
}) {
  const [pending, setPending] = useState<boolean | null>(null);
  const [done, setDone] = useState('');
  const [error, setError] = useState<string | null>(null);
  const shown = pending ?? props.allowed;

  const change = async (physicalDice: boolean) => {
    if (pending !== null) return;
    setPending(physicalDice);
    setDone('');
    setError(null);
    try {
      const { settings } = await api.setSettings(props.tableId, props.token, { physicalDice });
      props.onChanged(settings);
      setDone(settings.physicalDice ? 'Players may now enter physical dice.' : 'The table now rolls for the players.');
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The setting was not changed.');
    } finally {
      setPending(null);
    }
  };

  return (
    <section class="card stack" aria-labelledby="phys-h">
      <h2 id="phys-h">Physical dice</h2>
      {props.gm ? (
        <div class="field">
          <label class="check">
            <input
              id="phys-toggle"
              type="checkbox"
              checked={shown}
              aria-describedby="phys-hint"
              aria-busy={pending !== null ? 'true' : undefined}
              onChange={(e) => void change(e.currentTarget.checked)}
            />
            Players may enter the results of physical dice
          </label>
          <span id="phys-hint" class="hint">
            Players then find a field for the results of real dice in the roller and the encounter actions. You may always enter dice. The change reaches
            every player at once.
          </span>
        </div>
      ) : (
        <p>
          {props.allowed
            ? 'Players may type in the results of the dice they roll at the table; the roller asks for them when you want.'
            : 'The table rolls for the players; only the GM may type in dice. The GM can change this during play.'}
        </p>
      )}
      <span class="sr-only" role="status">
        {done}
      </span>
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/** A name for a downloaded file: the table's name in lower case with the date. */
export function fileStem(tableName: string, at = new Date()): string {
  const slug = tableName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'table';
  return `${slug}-${at.toISOString().slice(0, 10)}`;
}

/** Take the table home: its log as a readable Markdown file, and (for the GM) a backup to restore it from. */
export function Records(props: { tableId: string; token: string; tableName: string; gm: boolean; view: TableView; participants: readonly Participant[] }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const saveLog = async () => {
    const [{ logMarkdown }, { download }] = await Promise.all([import('./log-markdown'), import('../lib/sheet-files')]);
    const text = logMarkdown({ tableName: props.tableName, log: props.view.log, participants: props.participants, graded: props.view.options.grades === 'srd-v4', omitted: props.view.logOmitted });
    download(text, `${fileStem(props.tableName)}-log.md`, 'text/markdown');
  };
  const saveBackup = async () => {
    setBusy(true);
    setError(null);
    try {
      const [file, { download }] = await Promise.all([api.exportTable(props.tableId, props.token), import('../lib/sheet-files')]);
      download(JSON.stringify(file, null, 1), `${fileStem(props.tableName)}-${props.gm ? 'backup' : 'my-view'}.json`, 'application/json');
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The table could not be downloaded.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card stack" aria-labelledby="records-h">
      <h2 id="records-h">Log and backup</h2>
      <p>
        <button type="button" onClick={() => void saveLog()}>
          Download the log (Markdown)
        </button>
      </p>
      <p class="small muted">Everything you can see in the log, oldest first, with each roll's dice and explanation: to read, print or paste into your notes.</p>
      <p>
        <button type="button" disabled={busy} onClick={() => void saveBackup()}>
          {busy ? 'Preparing…' : props.gm ? 'Download a backup of the table' : 'Download your view of the table'}
        </button>
      </p>
      <p class="small muted">
        {props.gm
          ? 'Every event of the table in one file. Open it from the start page to continue the table on any server, with new links for everyone.'
          : 'The events you can see, as a file. Only the GM’s backup can be opened as a table again.'}
      </p>
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
