import { entryLines, type ShownLogEntry } from './rules';
import { PRESET_LABEL, type Preset } from './presets';

/**
 * The log told as a story. The rules write each entry in their own terse terms ("== Round 1 ==",
 * "sustains 1 hit(s) (...): 0 -> 1", "(option actionOrder = seating)"); this module turns an entry
 * into a sentence a player reads at the table, and keeps the rules' lines as the entry's working,
 * shown one click away. Whatever it does not recognise it shows as the rules wrote it, cleaned of
 * option codes and "(s)" plurals.
 */
export interface Story {
  /** The sentence (or two) for the reader. */
  text: string;
  /** A marker of time passing (round, scene, session): shown as a divider. */
  milestone?: boolean;
  /** The rules' own lines, when they say more than the sentence. */
  working: string[];
}

export interface StoryContext {
  /** The table's name, for the first entry. */
  tableName?: string;
}

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** "1 hit(s)" -> "1 hit", "2 critical(s)" -> "2 criticals", "success(es)" likewise. */
export function plurals(text: string): string {
  return text.replace(/(\d+)( extra)? (\w+)\((s|es)\)/g, (_, n: string, extra: string | undefined, word: string, suffix: string) => `${n}${extra ?? ''} ${word}${n === '1' ? '' : suffix}`);
}

/** Option codes belong in the working, not the story: "(option actionOrder = seating)" is dropped. */
function withoutOptions(text: string): string {
  return text.replace(/\s*\(option [\w.]+ = [\w-]+\)/g, '').replace(/;\s*option [\w.]+ = [\w-]+/g, '');
}

function clean(line: string): string {
  return withoutOptions(plurals(line.trim())).replace(/ -> /g, ' → ');
}

function count(n: number, word: string): string {
  return `${n < NUMBER_WORDS.length ? NUMBER_WORDS[n] : n} ${word}${n === 1 ? '' : 's'}`;
}

function listed(names: string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

type Rule = [RegExp, (m: RegExpMatchArray, e: ShownLogEntry, ctx: StoryContext) => Omit<Story, 'working'> & { keepWorking?: boolean }];

// Each rule reads the first line the rules wrote for an entry.
const RULES: Rule[] = [
  [/^Table options: preset ([\w-]+)\.$/, (m) => ({ text: `The table plays by ${PRESET_LABEL[m[1] as Preset] ?? m[1]}.` })],
  [
    /^Table set up: "(.*)", \d+ characters?: (.*)\.$/,
    (m, _e, ctx) => {
      const names = m[2]!.split(', ').filter(Boolean);
      const table = ctx.tableName ?? (m[1] !== 'Table' ? m[1] : undefined);
      return { text: `The story${table ? ` of ${table}` : ''} begins${names.length ? ` with ${listed(names)}` : ''}.`, milestone: true };
    },
  ],
  [/^== Round (\d+) ==$/, (m) => ({ text: `Round ${m[1]} begins.`, milestone: true })],
  [/^-- end of round (\d+) --$/, (m) => ({ text: `Round ${m[1]} ends.`, milestone: true })],
  [/^-- (.+)'s turn( \(its action went to a concerted effort\))? --$/, (m) => ({ text: `${m[1]}'s turn${m[2] ? ': its action already went to a concerted effort' : ''}.` })],
  [/^Session (\d+) ends: the table is between sessions\.$/, (m) => ({ text: `Session ${m[1]} ends.`, milestone: true })],
  [/^Session (\d+) begins\.$/, (m) => ({ text: `Session ${m[1]} begins.`, milestone: true })],
  [/^Scene (\d+) begins(?:: (.*))?\.$/, (m) => ({ text: m[2] ? `Scene ${m[1]}: ${m[2]}.` : `Scene ${m[1]} begins.`, milestone: true })],
  [/^Scene (\d+) ends\.$/, (m) => ({ text: `Scene ${m[1]} ends.`, milestone: true })],
  [/^Day (\d+) begins\.$/, (m) => ({ text: `Day ${m[1]} dawns.`, milestone: true })],
  [
    /^Action order \(([\w-]+)\):$/,
    (_m, e) => {
      const order = entryLines(e).map((l) => l.trim()).find((l) => l.startsWith('Order: '));
      const names = order ? order.slice('Order: '.length).replace(/\.$/, '').split(', ') : [];
      if (names.length === 0) return { text: 'The action order is set.', keepWorking: true };
      return { text: names.length === 1 ? `${names[0]} acts alone.` : `${names[0]} acts first, then ${listed(names.slice(1))}.`, keepWorking: true };
    },
  ],
  [
    /^(.+) sustains (\d+) hit\(s\) \((.*)\): (\d+) -> (\d+)(.*)\.$/,
    (m) => {
      const rest = m[6]!.replace(/^; (\d+) lost \(one attack never rolls over more than one status\)/, (_, n: string) => `; ${count(Number(n), 'hit')} lost to the one-status limit`);
      return { text: `${m[1]} takes ${count(Number(m[2]), 'hit')} (${m[5]} in all)${clean(rest)}.`, keepWorking: true };
    },
  ],
  [/^(.+): (\d+) hit\(s\) removed \((\d+) -> (\d+)\): (.*)\.$/, (m) => ({ text: `${m[1]} recovers ${count(Number(m[2]), 'hit')} (${m[4]} left): ${m[5]}.`, keepWorking: true })],
  [
    /^(Attack|Power|Interaction|Virtual Interaction|Recovery) Challenge: (.+?) \((.+?)\) against (.+?) \((.+?)\) to (.+): (.+)\.$/,
    (m) => {
      const verdict = m[7]!;
      const said = verdict === 'failure' ? 'it fails' : verdict === 'success' ? 'it succeeds' : verdict === 'a glancing success' ? 'a glancing success' : verdict;
      const own = m[4] === m[2];
      return { text: `${m[1]} Challenge: ${m[2]} uses ${m[3]} to ${m[6]}${own ? '' : `; ${m[4]} answers with ${m[5]}`}. ${said.charAt(0).toUpperCase()}${said.slice(1)}.` };
    },
  ],
  [/^UNDO: back to where the table stood (after entry #\d+|before play began); what came after is taken back\.$/, (m) => ({ text: `Taken back: the table returns to where it stood ${m[1]}.` })],
  [/^REDO: forward again to where the table stood (after entry #\d+|before play began)\.$/, (m) => ({ text: `Restored: the table goes forward again to where it stood ${m[1]}.` })],
];

/** An entry as a story: the sentence, and the rules' lines as its working when they say more. */
export function storyOf(e: ShownLogEntry, ctx: StoryContext = {}): Story {
  const lines = entryLines(e).map((l) => l.trim()).filter(Boolean);
  const first = lines[0] ?? '';
  for (const [re, make] of RULES) {
    const m = first.match(re);
    if (!m) continue;
    const { keepWorking, ...story } = make(m, e, ctx);
    // A sentence that only rewords one line needs no working; one that sums up several lines, or drops numbers, keeps them.
    return { ...story, working: keepWorking || lines.length > 1 ? lines : [] };
  }
  const text = clean(first);
  // Indented lines are the rules' step-by-step account: the story shows the first, the rest is working.
  return { text, working: lines.length > 1 || text !== first ? lines : [] };
}

/**
 * Entries the story leaves out because another says the same: an action announced by one entry and
 * resolved by the challenge right after it ("Kestrel attacks Grask." then the Attack Challenge), and a
 * scene that ends only because the next session begins. Returns the seq of each entry folded away,
 * with the seq of the entry that tells it.
 */
export function foldedEntries(log: readonly ShownLogEntry[]): Map<number, number> {
  const out = new Map<number, number>();
  for (let i = 0; i + 1 < log.length; i++) {
    const e = log[i]!;
    const next = log[i + 1]!;
    if (next.seq !== e.seq + 1 || e.said || next.said || e.by !== next.by || e.undo || next.undo) continue;
    const lines = entryLines(e);
    const line = (lines[0] ?? '').trim();
    if (!e.result && next.result && lines.length === 1 && line.startsWith(`${next.result.actor.name} `)) out.set(e.seq, next.seq);
    if (/^Scene \d+ ends\.$/.test(line) && /^Session \d+ begins\.$/.test((entryLines(next)[0] ?? '').trim())) out.set(e.seq, next.seq);
  }
  return out;
}

/** One sentence for an entry wherever it is named alone (the undo preview, the announcer). */
export function headline(e: ShownLogEntry, ctx: StoryContext = {}): string {
  const lines = entryLines(e);
  const head = e.result ? lines.filter((l) => !l.startsWith('    ')) : lines;
  if (head.length === 0 || (e.result && head.length === lines.length)) return e.purpose ?? (e.result ? `${e.result.actor.name} rolls.` : '');
  return storyOf({ ...e, lines: head }, ctx).text;
}
