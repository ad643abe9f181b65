import type { Command } from 'commander';
import { cryptoDice, seededDice, type DiceSource } from '@personae/dice';
import { advantageModifiers, checkRoll, hitLocation, resolveOptions, resolveTest, type D100Options } from '@personae/d100';
import { toJson } from '../format/json.js';
import { CliError, writeLines, type CliIo } from '../io.js';

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

/** `--option NAME=VALUE` words into an overrides record. */
function readOptions(flags: D100Flags): D100Options {
  const overrides: Record<string, string> = {};
  for (const word of flags.option) {
    const eq = word.indexOf('=');
    if (eq <= 0) throw new CliError(`--option: "${word}" is not NAME=VALUE`);
    overrides[word.slice(0, eq)] = word.slice(eq + 1);
  }
  return resolveOptions(flags.preset ?? 'seed', overrides);
}

function wholeNumber(text: string, what: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isInteger(n)) throw new CliError(`${what}: "${text}" is not a whole number`);
  return n;
}

/** The roll given with --roll (checked as a d100 result), else one from --seed or cryptographic dice. */
function readRoll(flags: D100Flags, dice: () => DiceSource): number {
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
    .action((targetText: string, flags: D100Flags & { advantage: string; disadvantage: string }) => {
      const options = readOptions(flags);
      const target = wholeNumber(targetText, 'TARGET');
      const adv = wholeNumber(flags.advantage, '--advantage');
      const dis = wholeNumber(flags.disadvantage, '--disadvantage');
      if (adv < 0 || dis < 0) throw new CliError('--advantage and --disadvantage count from 0');
      const roll = readRoll(flags, diceFor(flags));
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
    .action((flags: D100Flags) => {
      const options = readOptions(flags);
      const roll = readRoll(flags, diceFor(flags));
      const r = hitLocation(roll, options);
      if (flags.json) io.stdout(toJson({ roll: r.roll, number: r.number, location: r.location, method: options.hitLocation }));
      else writeLines(io.stdout, [`rolled ${String(r.roll).padStart(2, '0')}${r.number !== r.roll ? ` (reversed: ${String(r.number).padStart(2, '0')})` : ''}: ${r.location}`]);
    });
}
