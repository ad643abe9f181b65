import type { Participant } from '../lib/api';
import { entryLines, type ShownLogEntry } from '../lib/rules';
import { foldedEntries, storyOf } from '../lib/story';
import { decidedText, verdictText } from './Dice';
import { whisperedTo, whoName } from './Log';

/** Characters that Markdown reads as formatting, escaped so that names and talk print as typed. */
function escape(text: string): string {
  return text.replace(/([\\`*_{}[\]<>#|!])/g, '\\$1');
}

function dice(values: readonly number[]): string {
  return values.length ? values.join(', ') : 'no dice';
}

/**
 * The log as a Markdown document, oldest entry first: what the reader saw of the table, with each
 * roll's outcome, dice and explanation, and table talk as quotations (whispers marked).
 */
export function logMarkdown(input: { tableName: string; log: readonly ShownLogEntry[]; participants: readonly Participant[]; graded: boolean; omitted?: number; exportedAt?: Date }): string {
  const out: string[] = [`# ${escape(input.tableName)}`, ''];
  const when = (input.exportedAt ?? new Date()).toISOString().replace('T', ' ').slice(0, 16);
  out.push(`The table's log as of ${when} UTC, ${input.log.length} ${input.log.length === 1 ? 'entry' : 'entries'}.`);
  if (input.omitted) out.push(`${input.omitted} older ${input.omitted === 1 ? 'entry is' : 'entries are'} not included.`);
  out.push('');
  const folded = foldedEntries(input.log);
  for (const e of input.log) {
    // An entry another one tells already (an action announced, then its challenge) is not repeated.
    if (folded.has(e.seq)) continue;
    const who = escape(whoName(input.participants, e.by));
    const time = e.at.slice(11, 16);
    if (e.said) {
      const to = e.said.to ? ` to ${escape(whisperedTo(input.participants, e.said.to))} (whisper)` : '';
      out.push(`**${who}**${to}, ${time}:`, '', ...entryLines(e).map((l) => `> ${escape(l)}`), '');
      continue;
    }
    out.push(`### #${e.seq} · ${time} · ${who}${e.hidden ? ' · hidden (GM only)' : ''}`, '');
    if (e.purpose) out.push(`*${escape(e.purpose)}*`, '');
    if (e.result) {
      const r = e.result;
      const lines = entryLines(e);
      const head = lines.filter((l) => !l.startsWith('    '));
      if (head.length > 0 && head.length < lines.length) out.push(escape(storyOf({ ...e, lines: head }, { tableName: input.tableName }).text), '');
      out.push(`**${escape(r.actor.name)}: ${verdictText(r, e.graded ?? input.graded)}**, ${decidedText(r)}.`, '');
      const entered = (s: typeof r.actor) => (s.roll.source === 'given' ? ' (physical dice)' : '');
      out.push(`- ${escape(r.actor.name)}: ${dice(r.actor.dice)}${entered(r.actor)}`);
      out.push(`- ${escape(r.kind === 'unopposed' ? `GM (${r.difficulty?.label ?? 'difficulty'})` : r.reactor.name)}: ${dice(r.reactor.dice)}${entered(r.reactor)}`, '');
      out.push('<details><summary>How it was decided</summary>', '', ...r.explanation.map((l) => `1. ${escape(l.trim())}`), '', '</details>', '');
    } else {
      // The story's sentence; the rules' own lines follow when they say more.
      const story = storyOf(e, { tableName: input.tableName });
      out.push(escape(story.text), '');
      if (story.working.length > 0) out.push(...story.working.map((l) => `> ${escape(l)}  `), '');
    }
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}
