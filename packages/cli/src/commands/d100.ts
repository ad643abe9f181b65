import type { Command } from 'commander';
import { cryptoDice, seededDice, type DiceSource } from '@personae/dice';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { Affinity, D100Options, Element } from '@personae/d100';

/** The ruleset is loaded when a d100 command runs, so other commands start without it. */
const d100 = () => import('@personae/d100');
const ELEMENTS = ['melee', 'missile', 'fire', 'ice', 'wind', 'elec', 'nuke', 'psy', 'bless', 'curse', 'almighty'] as const;
/** The d100 option presets (docs/d100/options.md), named here so the ruleset loads only when a command runs. */
const D100_PRESETS = ['seed', 'ffg-margin', 'ffg-tens-plus-one'] as const;
const AFFINITIES = ['weak', 'normal', 'resist', 'block', 'repel', 'absorb'] as const;
import { toJson } from '../format/json.js';
import { CliError, EXIT_OK, writeLines, type CliIo } from '../io.js';
import { addCompareFlags, printRuleSetOdds, type CompareFlags, type Figure, type OddsAnswer, type RuleSet, type RuleSetReader } from './odds-lab.js';

/** Exit codes of `personae d100 sheet check`, as for `personae sheet check`: 0 legal, 1 illegal. */
const SHEET_ILLEGAL = 1;

interface D100Flags {
  roll?: string;
  seed?: string;
  option: string[];
  preset?: string;
  json?: boolean;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** One `NAME=VALUE` word; `flag` names where it was given. */
function optionWord(word: string, flag: string): [string, string] {
  const eq = word.indexOf('=');
  if (eq <= 0) throw new CliError(`${flag}: "${word}" is not NAME=VALUE`);
  return [word.slice(0, eq), word.slice(eq + 1)];
}

/** The table's rule set: `--preset`, then every `--option NAME=VALUE` word. */
async function readRuleSet(flags: D100Flags): Promise<RuleSet<D100Options>> {
  const { resolveOptions } = await d100();
  const overrides = Object.fromEntries(flags.option.map((w) => optionWord(w, '--option')));
  const preset = flags.preset ?? 'seed';
  return { preset, overrides, options: resolveOptions(preset, overrides) };
}

async function readOptions(flags: D100Flags): Promise<D100Options> {
  return (await readRuleSet(flags)).options;
}

/** The figures `personae d100 odds --compare` lists for each rule set. */
const D100_ATTACK_FIGURES: readonly Figure[] = [
  { key: 'hit', label: 'Hit', kind: 'chance' },
  { key: 'critical', label: 'Critical roll', kind: 'chance' },
  { key: 'fumble', label: 'Fumble', kind: 'chance' },
  { key: 'stagger', label: 'Staggers', kind: 'chance' },
  { key: 'out', label: 'Out of the fight', kind: 'chance' },
  { key: 'expectedLight', label: 'Expected Light boxes lost', kind: 'number' },
  { key: 'expectedHeavy', label: 'Expected Heavy boxes lost', kind: 'number' },
  { key: 'expectedDeadly', label: 'Expected Deadly boxes lost', kind: 'number' },
];

/** Digits only, with an optional sign: "0x10", "1e3" and "" are refused rather than read as numbers. */
function wholeNumber(text: string, what: string): number {
  const n = Number(text.trim());
  if (!/^[+-]?\d+$/.test(text.trim()) || !Number.isSafeInteger(n)) throw new CliError(`${what}: "${text}" is not a whole number`);
  return n;
}

/** The roll given with --roll (checked as a d100 result), else one from --seed or cryptographic dice. */
async function readRoll(flags: D100Flags, dice: () => DiceSource): Promise<number> {
  const { checkRoll } = await d100();
  if (flags.roll !== undefined) return checkRoll(flags.roll.trim() === '00' ? 100 : wholeNumber(flags.roll, '--roll'), '--roll');
  return dice().die(100);
}

function diceFor(flags: D100Flags): () => DiceSource {
  return () => (flags.seed !== undefined ? seededDice(wholeNumber(flags.seed, '--seed')) : cryptoDice());
}

function addCommon(cmd: Command): Command {
  return cmd
    .option('--roll <n>', 'the d100 result already rolled (1 to 100; "00" is 100); without it the command rolls')
    .option('--seed <n>', 'roll reproducible seeded dice instead of cryptographic dice')
    .option('--option <name=value>', 'a d100 table option (repeatable); see docs/d100/options.md', collect, [])
    .option('--preset <name>', 'a d100 option preset (seed, ffg-margin, ffg-tens-plus-one)')
    .option('--json', 'print one JSON object');
}

/** `personae d100 ...`: the d100 combat rules (d100-combat-rules.txt) on the command line. */
export function registerD100Commands(program: Command, io: CliIo): void {
  const group = program.command('d100').summary('the d100 combat rules: tests, hit locations, sheets, odds').description('Tests and tools for the d100 combat ruleset (d100-combat-rules.txt). Full reference: docs/cli.md "personae d100".');

  addCommon(group.command('test').argument('<target>', 'the target number (Score or skill, before Advantages)'))
    .summary('roll a d100 test against a target: success, degrees, critical, fumble')
    .option('--advantage <n>', 'Advantages on the test (+10 each)', '0')
    .option('--disadvantage <n>', 'Disadvantages on the test (-10 each)', '0')
    .action(async (targetText: string, flags: D100Flags & { advantage: string; disadvantage: string }) => {
      const options = await readOptions(flags);
      const target = wholeNumber(targetText, 'TARGET');
      const adv = wholeNumber(flags.advantage, '--advantage');
      const dis = wholeNumber(flags.disadvantage, '--disadvantage');
      if (adv < 0 || dis < 0) throw new CliError('--advantage and --disadvantage count from 0');
      const roll = await readRoll(flags, diceFor(flags));
      const { resolveTest, advantageModifiers } = await d100();
      const r = resolveTest(target, roll, advantageModifiers(adv, dis), options);
      if (flags.json) {
        io.stdout(
          toJson({
            target: r.target,
            base: r.base,
            modifiers: r.modifiers,
            roll: r.roll,
            success: r.success,
            degrees: r.degrees,
            degreesOfSuccess: r.degreesOfSuccess,
            degreesOfFailure: r.degreesOfFailure,
            automatic: r.automatic,
            critical: r.critical,
            fumble: r.fumble,
            options: { degrees: options.degrees, autoResults: options.autoResults, criticalRange: options.criticalRange, fumbleFrom: options.fumbleFrom },
          }),
        );
        return;
      }
      const mods = r.modifiers.map((m) => ` ${m.value >= 0 ? '+' : ''}${m.value} ${m.label}`).join('');
      writeLines(io.stdout, [
        `target ${r.base}${mods}${mods ? ` = ${r.target}` : ''}, rolled ${String(r.roll).padStart(2, '0')}`,
        `${r.success ? 'success' : 'failure'} by ${r.degrees} degree${r.degrees === 1 ? '' : 's'}${r.automatic ? ` (a roll of ${r.roll === 1 ? '01 always succeeds' : '100 always fails'})` : ''}`,
        ...(r.critical ? [`on an attack: a Critical Hit (roll of ${options.criticalRange} or less)`] : []),
        ...(r.fumble ? [`on an attack: a Fumble (roll of ${options.fumbleFrom} or more): an automatic miss`] : []),
      ]);
    });

  addCommon(group.command('location'))
    .summary('the hit location of a d100 roll')
    .action(async (flags: D100Flags) => {
      const options = await readOptions(flags);
      const roll = await readRoll(flags, diceFor(flags));
      const { hitLocation } = await d100();
      const r = hitLocation(roll, options);
      if (flags.json) io.stdout(toJson({ roll: r.roll, number: r.number, location: r.location, method: options.hitLocation }));
      else writeLines(io.stdout, [`rolled ${String(r.roll).padStart(2, '0')}${r.number !== r.roll ? ` (reversed: ${String(r.number).padStart(2, '0')})` : ''}: ${r.location}`]);
    });

  const sheet = group.command('sheet').summary('d100 character sheets');
  sheet
    .command('check')
    .argument('<files...>', 'YAML or JSON sheets')
    .summary('check d100 sheets: every problem names the field, the value and the rule')
    .option('--json', 'print one JSON object')
    .action(async (files: string[], flags: { json?: boolean }) => {
      const { checkSheet } = await d100();
      const reports = files.map((file) => {
        let raw: unknown;
        try {
          raw = parseYaml(readFileSync(file, 'utf8'));
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code) throw e;
          throw new CliError(`${file}: not YAML or JSON: ${(e as Error).message.split('\n')[0]}`);
        }
        const r = checkSheet(raw);
        return r.ok ? { file, legal: true, derived: r.derived, problems: [] } : { file, legal: false, problems: r.problems };
      });
      const legal = reports.every((r) => r.legal);
      if (flags.json) io.stdout(toJson({ legal, sheets: reports }));
      else
        writeLines(
          io.stdout,
          reports.flatMap((r) => (r.legal ? [`${r.file}: legal`] : [`${r.file}: ${r.problems.length} problem${r.problems.length === 1 ? '' : 's'}`, ...r.problems.map((p) => `  ${p.message}${p.rule ? ` (${p.rule.document} "${p.rule.section}")` : ''}`)])),
        );
      io.setExitCode(legal ? EXIT_OK : SHEET_ILLEGAL);
    });

  const odds = group
    .command('odds')
    .summary('exact odds of one attack: hit chance and the wounds it deals')
    .requiredOption('--attack <n>', 'the attack target (Melee, Ballistic or Magic, before Advantages)')
    .option('--evasion <n>', 'the evasion target; without it the defender does not oppose')
    .requiredOption('--damage <n>', 'the damage value, with every modifier but degrees and net Advantage (add the Strength Bonus for melee yourself)')
    .option('--toughness <n>', "the defender's Toughness Score", '40')
    .option('--armour <n>', "the defender's Armour on every location", '0')
    .option('--element <name>', `the attack's element (${ELEMENTS.join(', ')})`, 'missile')
    .option('--affinity <name>', `the defender's affinity to it (${AFFINITIES.join(', ')})`, 'normal')
    .option('--advantage <n>', 'Advantages on the attack', '0')
    .option('--disadvantage <n>', 'Disadvantages on the attack', '0')
    .option('--option <name=value>', 'a d100 table option (repeatable)', collect, [])
    .option('--preset <name>', 'a d100 option preset')
    .option('--json', 'print one JSON object');
  addCompareFlags(odds, D100_PRESETS).action(async (flags: D100Flags & CompareFlags & Record<string, string>) => {
    const base = await readRuleSet(flags);
    const { questionOdds, resolveOptions, PRESET_NAMES } = await d100();
    const num = (k: string, min: number, max: number) => {
      const n = wholeNumber(flags[k]!, `--${k}`);
      if (n < min || n > max) throw new CliError(`--${k}: ${n} is not from ${min} to ${max}`);
      return n;
    };
    const element = flags.element as Element;
    if (!(ELEMENTS as readonly string[]).includes(element)) throw new CliError(`--element: "${flags.element}" is not one of ${ELEMENTS.join(', ')}`);
    const affinity = flags.affinity as Affinity;
    if (!(AFFINITIES as readonly string[]).includes(affinity)) throw new CliError(`--affinity: "${flags.affinity}" is not one of ${AFFINITIES.join(', ')}`);
    const question = {
      attack: num('attack', -200, 300),
      evasion: flags.evasion === undefined ? null : num('evasion', -200, 300),
      damage: num('damage', 0, 100),
      toughness: num('toughness', 0, 100),
      armour: num('armour', 0, 50),
      element,
      affinity,
      advantages: num('advantage', 0, 20),
      disadvantages: num('disadvantage', 0, 20),
    };
    const answer = (options: D100Options): OddsAnswer => {
      const odds = questionOdds(question, options);
      const pct = (p: number) => `${(100 * p).toFixed(2)}%`;
      return {
        json: { hit: odds.hit, critical: odds.critical, fumble: odds.fumble, stagger: odds.stagger, out: odds.out, wounds: odds.wounds, expected: odds.expected },
        figures: { hit: odds.hit, critical: odds.critical, fumble: odds.fumble, stagger: odds.stagger, out: odds.out, expectedLight: odds.expected.light, expectedHeavy: odds.expected.heavy, expectedDeadly: odds.expected.deadly },
        csv: [['wounds', 'chance'], ...Object.entries(odds.wounds).map(([n, p]) => [Number(n), p])],
        lines: [
          `hit ${pct(odds.hit)}  (critical roll ${pct(odds.critical)}, fumble ${pct(odds.fumble)}, Staggers ${pct(odds.stagger)})`,
          'wounds dealt:',
          ...Object.entries(odds.wounds).map(([n, p]) => `  ${n}: ${pct(p)}`),
          `expected boxes lost: Light ${odds.expected.light.toFixed(3)}, Heavy ${odds.expected.heavy.toFixed(3)}, Deadly ${odds.expected.deadly.toFixed(3)}`,
        ],
      };
    };
    const reader: RuleSetReader<D100Options> = { presets: PRESET_NAMES, resolve: resolveOptions, assignment: (w) => optionWord(w, '--compare-option') };
    printRuleSetOdds(io, reader, base, flags, D100_ATTACK_FIGURES, `Attack against ${flags.attack}, damage ${flags.damage}, by rule set`, answer);
  });
}
