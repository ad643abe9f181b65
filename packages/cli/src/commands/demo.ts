import type { Command } from 'commander';
import { writeLines, type CliIo } from '../io.js';
import { indent } from '../format/table.js';
import { ODDS_DEFAULTS, executeOdds } from './odds.js';
import { ROLL_DEFAULTS, executeRoll, type RollFlags } from './roll.js';

/** How the demo shows a command: the root script runs the CLI from a checkout. */
const PROMPT = '$ npm run personae --';

function quote(word: string): string {
  return /^[\w.,=-]+$/.test(word) ? word : `"${word}"`;
}

function commandLine(args: readonly string[]): string {
  return `${PROMPT} ${args.map(quote).join(' ')}`;
}

interface Section {
  readonly heading: string;
  readonly intro: readonly string[];
  readonly args: readonly string[];
  readonly body: () => string[];
  readonly outro?: readonly string[];
}

/** A roll section shown exactly as `personae roll` would print it. */
function rollSection(heading: string, intro: string[], words: string[], flags: Partial<RollFlags>, args: string[], outro: string[] = []): Section {
  return { heading, intro, args, body: () => executeRoll(words, { ...ROLL_DEFAULTS, ...flags }).lines, outro };
}

export function demoSections(): Section[] {
  return [
    rollSection(
      '1. An opposed challenge, decided by the extra die',
      [
        'personae-core-2011.txt "The Challenge", step 4: when the highest dice tie, compare the next-highest,',
        'and so on; if every pair ties, the side that still has dice left succeeds. Here the actor rolled',
        '7, 5, 2 (+3) against the reactor\'s 8, 6 (+2): 10 against 10, 8 against 8, and the actor\'s third',
        'die has nothing to meet it. The dice are entered, as from physical dice; the seed only matters',
        'for dice the program would roll itself.',
      ],
      ['[7,5,2]+3', 'vs', '[8,6]+2'],
      { seed: 2011 },
      ['roll', '[7,5,2]+3', 'vs', '[8,6]+2', '--seed', '2011'],
    ),
    rollSection(
      '2. An unopposed challenge against a difficulty',
      [
        'personae-core-2011.txt "Unopposed Challenges": the GM rolls one die fewer than the player\'s skill',
        '(at least one) and adds the difficulty; the player must meet or exceed that target. The document\'s',
        'example: a noble with a 3-dice skill and Prowess 3 jumps from a 2nd-story window, difficulty Normal.',
        'The GM rolls 3 and 7; the noble rolls 1, 5, 6.',
      ],
      ['[1,5,6]+3'],
      { unopposed: 'normal', gmDice: '3,7' },
      ['roll', '[1,5,6]+3', '--unopposed', 'normal', '--gm-dice', '3,7'],
      [
        'The document writes the target as "7 plus the normal difficulty of 0"; its own ladder gives Normal',
        'as +2, which is used here. The noble\'s 6 + 3 = 9 meets the target of 9 either way.',
      ],
    ),
    {
      heading: '3. Exact odds of one matchup',
      intro: [
        'Three dice +4 against two dice +5: how often does the actor succeed, how often on the highest dice',
        '(clear) and how often only by a tie-break or the extra die (glancing), how often is every die tied,',
        'and how many criticals (personae-core-2011.txt "Critical Success": every natural 10 beyond the first)',
        'does each side bank? Counted exactly over every roll, not sampled.',
      ],
      args: ['odds', '3d10+4', 'vs', '2d10+5'],
      body: () => executeOdds(['3d10+4', 'vs', '2d10+5'], ODDS_DEFAULTS).lines,
    },
  ];
}

/** The commands the demo suggests trying next. */
export const TRY_NEXT: readonly (readonly string[])[] = [
  ['roll', '3d10+4', 'vs', '2d10+5'],
  ['roll', '3d10+4', 'vs', '2d10+5', '--seed', '42', '--json'],
  ['roll', '3d10+3', '--unopposed', 'difficult'],
  ['roll', '2d10+3', 'vs', '2d10+3', '--rules', 'srd-v4', '--steer', '1'],
  ['roll', '--sheet', 'examples/characters/dwarf-iron-constitution.yaml', '--skill', 'Warhammer', 'vs', '--sheet', 'examples/characters/wounded-sellsword.yaml', '--skill', 'Dodge'],
  ['odds', '3d10+4', 'vs', '2d10+5', '--table', '--plot', 'odds.svg'],
  ['odds', '3d10+4', 'vs', '2d10+5', '--simulate', '1e6'],
  ['odds', '3d10+3', '--unopposed', 'normal', '--json'],
  ['--help'],
];

export function demoLines(): string[] {
  const lines = ['Personae Table: a short demonstration of the `personae` command', ''];
  for (const s of demoSections()) {
    lines.push(s.heading, '', ...indent(s.intro), '', `  ${commandLine(s.args)}`, '', ...indent(s.body(), '    '), '');
    if (s.outro && s.outro.length > 0) lines.push(...indent(s.outro), '');
  }
  lines.push('Try next:', ...TRY_NEXT.map((args) => `  ${commandLine(args)}`), '', 'Every command and flag: docs/cli.md, or `npm run personae -- help <command>`.');
  return lines;
}

export function registerDemoCommand(program: Command, io: CliIo): void {
  program
    .command('demo')
    .summary('a short demonstration: a worked challenge, an unopposed challenge, exact odds')
    .description('Show worked examples from the rules, each with the command that produces it, then commands to try.')
    .action(() => writeLines(io.stdout, demoLines()));
}
