import { Avatar } from './Avatar';
import { useMemo, useRef, useState } from 'preact/hooks';
import type { Participant } from '../lib/api';
import { omittedText } from '../lib/encounter';
import { timeOf } from '../lib/format';
import { takenBack } from '../lib/undo';
import { foldedEntries, headline, storyOf, type StoryContext } from '../lib/story';
import { checkReveal, entryLines, type CharacterView, type ShownLogEntry, type RevealCheck } from '../lib/rules';
import { ChallengeView, verdictText } from './Dice';

export function whoName(participants: readonly Participant[], id: string): string {
  const p = participants.find((x) => x.id === id);
  if (!p) return 'someone who left';
  return p.role === 'gm' ? `${p.displayName} (GM)` : p.displayName;
}

/** Whether a log entry concerns a character (entries name characters by id, rolls by name). */
export function concerns(entry: ShownLogEntry, c: Pick<CharacterView, 'id' | 'name'>): boolean {
  return entry.characters.some((x) => x === c.id || x === c.name);
}

/** The character an entry is first about, for its portrait. */
function portraitOf(e: ShownLogEntry, characters: readonly CharacterView[]): { id: string; name: string } | undefined {
  const first = e.characters[0];
  const c = first === undefined ? undefined : characters.find((x) => x.id === first || x.name === first);
  return c && { id: c.id, name: c.name };
}

/** The shared log: every roll with its dice and explanation, who did it, newest first; filter by character. */
export function Log(props: { idPrefix: string; log: readonly ShownLogEntry[]; characters: readonly CharacterView[]; participants: readonly Participant[]; gm: boolean; graded: boolean; limit?: number; omitted?: number; tableName?: string; me?: string }) {
  const [filter, setFilter] = useState('');
  const live = useLiveRolls(props.log, props.me);
  const [rollsOnly, setRollsOnly] = useState(false);
  const [shown, setShown] = useState(props.limit ?? 60);
  const p = props.idPrefix;
  const gone = useMemo(() => takenBack(props.log), [props.log]);
  // Entries another entry tells already: their lines join that entry's working.
  const folded = useMemo(() => foldedEntries(props.log), [props.log]);
  const foldedInto = useMemo(() => {
    const out = new Map<number, ShownLogEntry[]>();
    for (const e of props.log) {
      const into = folded.get(e.seq);
      if (into !== undefined) out.set(into, [...(out.get(into) ?? []), e]);
    }
    return out;
  }, [props.log, folded]);
  const commitments = useMemo(() => commitmentsIn(props.log), [props.log]);
  const entries = useMemo(() => {
    const c = props.characters.find((x) => x.id === filter);
    return props.log.filter((e) => !folded.has(e.seq) && (!c || concerns(e, c)) && (!rollsOnly || e.result)).slice().reverse();
  }, [props.log, props.characters, filter, rollsOnly, folded]);
  const ctx: StoryContext = props.tableName ? { tableName: props.tableName } : {};
  return (
    <section aria-labelledby={`${p}-h`}>
      <div class="spread">
        <h2 id={`${p}-h`}>Log</h2>
        <span class="muted small">
          {props.log.length} entries
          {(props.omitted ?? 0) > 0 && <span> · {omittedText(props.omitted ?? 0)}</span>}
        </span>
      </div>
      <div class="row" style={{ marginBottom: '8px' }}>
        <div class="field grow">
          <label for={`${p}-filter`}>Show</label>
          <select id={`${p}-filter`} value={filter} onChange={(e) => setFilter(e.currentTarget.value)}>
            <option value="">Every character</option>
            {props.characters.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <label class="check">
          <input type="checkbox" checked={rollsOnly} onChange={(e) => setRollsOnly(e.currentTarget.checked)} />
          Rolls only
        </label>
      </div>
      {entries.length === 0 ? (
        <p class="muted">Nothing here yet. Rolls and everything that happens at the table appear here for everyone.</p>
      ) : (
        <ol class="log" reversed aria-label="Log entries, newest first">
          {entries.slice(0, shown).map((e) => (
            <LogItem key={e.seq} entry={e} participants={props.participants} graded={props.graded} portrait={portraitOf(e, props.characters)} takenBackBy={gone.get(e.seq)} commitments={commitments} ctx={ctx} also={foldedInto.get(e.seq)} fresh={live(e)} />
          ))}
        </ol>
      )}
      {entries.length > shown && (
        <button type="button" onClick={() => setShown((n) => n + 100)}>
          Show older entries ({entries.length - shown} more)
        </button>
      )}
    </section>
  );
}

/** How long after it arrives another seat's roll still counts as just rolled (its dice tumble when shown). */
const LIVE_MS = 5000;

/**
 * Rolls that arrive while the log is open, from another seat: their dice tumble briefly, as one's own
 * do in the roller (the CSS leaves them still under prefers-reduced-motion). Entries already there when
 * the log opened, and one's own rolls, stay still.
 */
function useLiveRolls(log: readonly ShownLogEntry[], me: string | undefined): (e: ShownLogEntry) => boolean {
  const opened = useRef<number | null>(null);
  const arrived = useRef(new Map<number, number>());
  const newest = log.length ? log[log.length - 1]!.seq : 0;
  if (opened.current === null) opened.current = newest;
  const now = Date.now();
  for (let i = log.length - 1; i >= 0 && log[i]!.seq > opened.current; i--) {
    const e = log[i]!;
    if (!arrived.current.has(e.seq)) arrived.current.set(e.seq, now);
  }
  return (e) => e.result !== undefined && e.by !== me && now - (arrived.current.get(e.seq) ?? -Infinity) < LIVE_MS;
}

/** Who a whisper went to, in words: the GM, or the player's name. */
export function whisperedTo(participants: readonly Participant[], to: string): string {
  return to === 'gm' ? 'the GM' : whoName(participants, to);
}

function SaidItem(props: { entry: ShownLogEntry & { said: { to: string | null } }; participants: readonly Participant[] }) {
  const e = props.entry;
  const to = e.said.to;
  return (
    <li class={`said-entry${to ? ' whisper-entry' : ''}`} data-seq={e.seq}>
      <div class="meta">
        #{e.seq} · {timeOf(e.at)}
        {to && (
          <>
            {' '}
            <span class="tag whisper">Whisper: only the two of you</span>
          </>
        )}
      </div>
      <p class="said">
        <strong>{whoName(props.participants, e.by)}</strong>
        {to ? ` to ${whisperedTo(props.participants, to)}` : ''}: {entryLines(e).join('\n')}
      </p>
    </li>
  );
}

/** The commitments of secret rolls published in the log, by hash: the entry that published each. */
function commitmentsIn(log: readonly ShownLogEntry[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of log) if (e.commitment && !e.hidden && !e.result) out.set(e.commitment.hash, e.seq);
  return out;
}

/**
 * A revealed secret roll checked here, in the browser: its dice and salt hash to the commitment the
 * log published before it, and they are the dice its result compared.
 */
export function revealVerdict(e: ShownLogEntry, commitments: ReadonlyMap<string, number>): (RevealCheck & { committedAt: number | null }) | null {
  if (!e.reveal) return null;
  const at = commitments.get(e.reveal.hash) ?? null;
  if (at === null) return { ok: false, message: 'the commitment it names is not in this log (older entries are not loaded, or it was never published)', committedAt: null };
  if (at >= e.seq) return { ok: false, message: `the commitment (entry #${at}) was published after the reveal`, committedAt: at };
  return { ...checkReveal(e.reveal.hash, e.reveal, e.result), committedAt: at };
}

function SecretMark(props: { entry: ShownLogEntry; commitments: ReadonlyMap<string, number> }) {
  const e = props.entry;
  if (e.reveal) {
    const v = revealVerdict(e, props.commitments)!;
    return v.ok ? (
      <span class="tag verified" data-verified="yes" title={`SHA-256 of the salt and the dice ${e.reveal.dice.join(', ')} equals the commitment of entry #${v.committedAt}`}>
        Verified: matches the commitment of #{v.committedAt}
      </span>
    ) : (
      <span class="tag not-verified" data-verified="no" title={v.message}>
        NOT verified: {v.message}
      </span>
    );
  }
  if (e.commitment && !e.result) return <span class="tag sealed">Sealed: waiting for the reveal</span>;
  return null;
}

function LogItem(props: { entry: ShownLogEntry; participants: readonly Participant[]; graded: boolean; portrait?: { id: string; name: string } | undefined; takenBackBy?: number | undefined; commitments: ReadonlyMap<string, number>; ctx: StoryContext; also?: ShownLogEntry[] | undefined; fresh?: boolean }) {
  const e = props.entry;
  if (e.said) return <SaidItem entry={{ ...e, said: e.said }} participants={props.participants} />;
  // A roll's step-by-step lines are in its card; the lines above them (the challenge itself) make the story.
  const lines = entryLines(e);
  const head = e.result ? lines.filter((l) => !l.startsWith('    ')) : lines;
  const told = head.length > 0 && (!e.result || head.length < lines.length);
  const story = told ? storyOf({ ...e, lines: head }, props.ctx) : null;
  const working = [...(props.also ?? []).flatMap((x) => entryLines(x).map((l) => l.trim())), ...(story?.working ?? [])];
  const classes = [e.hidden ? 'hidden-entry' : '', props.takenBackBy ? 'undone-entry' : '', e.undo ? 'undo-entry' : '', story?.milestone ? 'milestone' : ''];
  return (
    <li class={classes.filter(Boolean).join(' ')} data-seq={e.seq}>
      <div class="meta">
        {props.portrait && <Avatar name={props.portrait.name} id={props.portrait.id} size="small" />}
        #{e.seq} · {timeOf(e.at)} · {whoName(props.participants, e.by)}
        {e.hidden && (
          <>
            {' '}
            <span class="tag hidden">Hidden: GM only</span>
          </>
        )}
        {props.takenBackBy && (
          <>
            {' '}
            <span class="tag undone">Taken back by #{props.takenBackBy}</span>
          </>
        )}
        {(e.reveal || e.commitment) && (
          <>
            {' '}
            <SecretMark entry={e} commitments={props.commitments} />
          </>
        )}
      </div>
      {e.purpose && <p style={{ margin: '2px 0', fontWeight: 600 }}>{e.purpose}</p>}
      {story && <p class="story">{story.text}</p>}
      {e.result && <ChallengeView result={e.result} small graded={e.graded ?? props.graded} fresh={props.fresh} />}
      {working.length > 0 && (
        <details class="working">
          <summary>The rules' working</summary>
          <p class="log-lines">{working.join('\n')}</p>
        </details>
      )}
    </li>
  );
}

/** A sentence for screen readers when a new entry arrives. */
export function announce(entry: ShownLogEntry, participants: readonly Participant[], graded: boolean): string {
  const who = whoName(participants, entry.by);
  if (entry.said) return `${who}${entry.said.to ? ` whispers to ${whisperedTo(participants, entry.said.to)}` : ' says'}: ${entryLines(entry).join(' ')}`;
  if (entry.result) {
    const r = entry.result;
    const verdict = verdictText(r, graded).toLowerCase();
    return `${who} rolled: ${r.actor.name} against ${r.kind === 'unopposed' ? (r.difficulty?.label ?? 'a difficulty') : r.reactor.name}, ${verdict}. Dice ${r.actor.dice.join(', ')} against ${r.reactor.dice.join(', ')}.`;
  }
  return `${who}: ${headline(entry)}`;
}
