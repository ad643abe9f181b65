import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { Option, type Command } from 'commander';
import { cryptoDice, seededDice, type DiceSource } from '@personae/dice';
import { modifier } from '@personae/core';
import {
  attackOdds,
  checkSheet,
  lucidityChance,
  parseOptionPairs,
  parseSheetText,
  PRESETS,
  resolveAttack,
  resolveOptions,
  rollChance,
  rollD20,
  rollLucidity,
  type LucidityOptions,
} from '@personae/lucidity';
import { collect, seedNumber, wholeNumber } from '../args.js';
import { toJson } from '../format/json.js';
import { CliError, writeLines, type CliIo } from '../io.js';

/** Exit codes of `personae lucidity sheet check`: legal, not legal, unreadable (as `personae sheet check`). */
const SHEET_LEGAL = 0;
const SHEET_ILLEGAL = 1;
const SHEET_UNREADABLE = 2;

interface TableFlags {
  rules: string;
  option: string[];
}

function addLucidityTable(cmd: Command): Command {
  return cmd
    .addOption(new Option('--rules <preset>', 'Lucidity preset the table plays by').choices(PRESETS).default('standard'))
    .option('--option <name=value>', 'set one Lucidity option, e.g. protectionPipeline=double-deduction (repeatable; docs/lucidity/options.md)', collect, []);
}

function table(flags: TableFlags): LucidityOptions {
  return resolveOptions(flags.rules, parseOptionPairs(flags.option));
}

const whole = wholeNumber(-1000, 1000);
const count = wholeNumber(0, 100);

/** "4,2,6": d6 results, each 1 to 6. */
function d6List(flag: string): (value: string) => number[] {
  return (value) => {
    const words = value.split(',').map((w) => w.trim());
    const bad = words.find((w) => !/^[1-6]$/.test(w));
    if (bad !== undefined) throw new CliError(`${flag}: "${bad}" is not a d6 result (1 to 6), in "${value}"`);
    return words.map(Number);
  };
}

function diceFor(flags: { seed?: number }): DiceSource {
  return flags.seed !== undefined ? seededDice(flags.seed) : cryptoDice();
}

interface RollFlags extends TableFlags {
  d20?: number;
  modifier: number[];
  buff?: number[];
  break?: number[];
  buffs?: number;
  breaks?: number;
  target: number;
  seed?: number;
  json?: boolean;
}

interface LucidityRollFlags extends TableFlags {
  d20?: number;
  current: number;
  attribute?: number;
  gmModifier?: number;
  buff?: number[];
  break?: number[];
  buffs?: number;
  breaks?: number;
  free?: boolean;
  seed?: number;
  json?: boolean;
}

interface AttackFlags extends TableFlags {
  attack: number;
  defense: number;
  damage: number;
  protection: number;
  penetrationBonus?: number;
  json?: boolean;
}

const sumList = (value: string, previous: number[]): number[] => [...previous, whole(value)];

/**
 * `personae lucidity ...`: the Lucidity d20 rules (lucidity-primary-character.txt) at the terminal: a d20
 * roll with buffs and breaks, a Lucidity roll, an attack through Protection, a sheet check, exact odds.
 */
export function registerLucidityCommands(program: Command, io: CliIo): void {
  const group = program.command('lucidity').description('the Lucidity d20 rules: rolls, Lucidity rolls, attacks, sheets and odds (docs/cli.md "personae lucidity")');

  addLucidityTable(
    group
      .command('roll')
      .description('a d20 roll: d20 + modifier, + the highest buff d6 or - the highest break d6, against a target')
      .option('--d20 <n>', 'the d20 already rolled (rolled when absent)', wholeNumber(1, 20))
      .option('--modifier <m>', 'attribute + skill rank + bonuses (repeatable, summed)', sumList, [])
      .option('--buff <d6,...>', 'buff d6 results, one per buff', d6List('--buff'))
      .option('--break <d6,...>', 'break d6 results, one per break', d6List('--break'))
      .option('--buffs <n>', 'number of buffs when their dice are to be rolled', count)
      .option('--breaks <n>', 'number of breaks when their dice are to be rolled', count)
      .requiredOption('--target <t>', 'the number to beat (Defense, a difficulty)', whole)
      .option('--seed <n>', 'roll missing dice with a seeded generator', seedNumber)
      .option('--json', 'print one JSON object'),
  ).action((flags: RollFlags) => {
    const opts = table(flags);
    const mod = flags.modifier.reduce((a, b) => a + b, 0);
    const r = rollD20(
      {
        ...(flags.d20 !== undefined ? { d20: flags.d20 } : {}),
        modifiers: mod !== 0 ? [modifier('modifier', 'modifier', mod)] : [],
        buffs: flags.buffs ?? flags.buff?.length ?? 0,
        breaks: flags.breaks ?? flags.break?.length ?? 0,
        ...(flags.buff ? { buffDice: flags.buff } : {}),
        ...(flags.break ? { breakDice: flags.break } : {}),
        target: flags.target,
      },
      opts,
      diceFor(flags),
    );
    const out = {
      total: r.total,
      success: r.success,
      d20: r.d20,
      modifier: mod,
      buffs: r.buffsBreaks.buffs,
      breaks: r.buffsBreaks.breaks,
      buffDice: r.buffsBreaks.buffDice,
      breakDice: r.buffsBreaks.breakDice,
      buffBreak: r.buffsBreaks.value,
      target: r.target,
      margin: r.margin,
      critical: r.critical,
      explanation: r.explanation,
    };
    if (flags.json) io.stdout(toJson(out));
    else writeLines(io.stdout, [`${r.success ? 'SUCCESS' : 'FAILURE'}: ${r.explanation}`, 'lucidity-primary-character.txt "Buffs and Breaks", "How Combat Works"']);
  });

  addLucidityTable(
    group
      .command('lucidity-roll')
      .description('a Lucidity roll: a d20 at or under Current Lucidity + attribute succeeds and spends 1 Lucidity')
      .option('--d20 <n>', 'the d20 already rolled (rolled when absent)', wholeNumber(1, 20))
      .requiredOption('--current <c>', 'Current Lucidity', wholeNumber(0, 1000))
      .option('--attribute <a>', 'the relevant attribute (a modifier, -3 to +3; a score under lucidityAttribute=score)', whole)
      .option('--gm-modifier <m>', "the GM's modifier to the target (exploits)", whole)
      .option('--buff <d6,...>', 'buff d6 results (each lowers the die)', d6List('--buff'))
      .option('--break <d6,...>', 'break d6 results (each raises the die)', d6List('--break'))
      .option('--buffs <n>', 'number of buffs when their dice are to be rolled', count)
      .option('--breaks <n>', 'number of breaks when their dice are to be rolled', count)
      .option('--free', 'a success costs no Lucidity (the roll at 0 Health, a rescue under Rescuer)')
      .option('--seed <n>', 'roll missing dice with a seeded generator', seedNumber)
      .option('--json', 'print one JSON object'),
  ).action((flags: LucidityRollFlags) => {
    const opts = table(flags);
    const r = rollLucidity(
      {
        ...(flags.d20 !== undefined ? { d20: flags.d20 } : {}),
        current: flags.current,
        ...(flags.attribute !== undefined ? { attribute: flags.attribute } : {}),
        ...(flags.gmModifier !== undefined ? { gmModifier: flags.gmModifier } : {}),
        buffs: flags.buffs ?? flags.buff?.length ?? 0,
        breaks: flags.breaks ?? flags.break?.length ?? 0,
        ...(flags.buff ? { buffDice: flags.buff } : {}),
        ...(flags.break ? { breakDice: flags.break } : {}),
        free: flags.free === true,
      },
      opts,
      diceFor(flags),
    );
    const out = {
      success: r.success,
      lucidityBefore: r.lucidityBefore,
      lucidityAfter: r.lucidityAfter,
      spent: r.spent,
      d20: r.d20,
      effectiveDie: r.effectiveDie,
      target: r.target,
      missedBy: r.missedBy,
      explanation: r.explanation,
    };
    if (flags.json) io.stdout(toJson(out));
    else writeLines(io.stdout, [`${r.success ? 'SUCCESS' : 'FAILURE'}: ${r.explanation}`, 'lucidity-primary-character.txt "Lucidity"']);
  });

  addLucidityTable(
    group
      .command('attack')
      .description('an attack: hit when the attack exceeds Defense; Penetration = attack - Defense lowers Protection; the rest of Protection reduces the damage')
      .requiredOption('--attack <total>', "the attack roll's total", whole)
      .requiredOption('--defense <d>', "the defender's Defense", whole)
      .requiredOption('--damage <n>', 'the damage rolled', wholeNumber(0, 1000))
      .requiredOption('--protection <p>', "the defender's Protection", wholeNumber(0, 1000))
      .option('--penetration-bonus <n>', 'added to Penetration on a hit (Impaler, Improvised Fighter, 1 on 1)', whole)
      .option('--json', 'print one JSON object'),
  ).action((flags: AttackFlags) => {
    const opts = table(flags);
    const r = resolveAttack(
      {
        attack: flags.attack,
        defense: flags.defense,
        damage: flags.damage,
        protection: flags.protection,
        ...(flags.penetrationBonus ? { penetrationModifiers: [modifier('penetration', 'bonus', flags.penetrationBonus)] } : {}),
      },
      opts,
    );
    const out = { hit: r.hit, penetration: r.penetration, damageTaken: r.damageTaken, effectiveProtection: r.effectiveProtection, damage: r.damage, protection: r.protection, protectionPipeline: opts.protectionPipeline, steps: r.steps };
    if (flags.json) io.stdout(toJson(out));
    else writeLines(io.stdout, [`${r.hit ? `HIT: ${r.damageTaken} damage taken` : 'MISS'}`, ...r.steps.map((s) => `  ${s}`), 'lucidity-primary-character.txt "How Combat Works"']);
  });

  const sheet = group.command('sheet').description('Lucidity character sheets (docs/lucidity/sheet-format.md)');
  addLucidityTable(
    sheet
      .command('check')
      .description('check a sheet against the rules and print its derived values, or its problems (exit 0 legal, 1 not legal, 2 unreadable)')
      .argument('<file>', 'a sheet, YAML or JSON')
      .option('--json', 'print one JSON object'),
  ).action(async (file: string, flags: TableFlags & { json?: boolean }) => {
    const opts = table(flags);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new CliError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (e as Error).message}`);
    }
    const parsed = parseSheetText(text, basename(file));
    if (!parsed.ok) {
      if (flags.json) io.stdout(toJson({ legal: false, file, problems: [parsed.problem] }));
      else io.stderr(`personae: ${parsed.problem.message}\n`);
      io.setExitCode(SHEET_UNREADABLE);
      return;
    }
    const r = checkSheet(parsed.raw, opts);
    if (!r.ok) {
      if (flags.json) io.stdout(toJson({ legal: false, file, problems: r.problems }));
      else writeLines(io.stdout, [`${file}: not legal`, ...r.problems.map((p) => `  ${p.field}: ${p.message}${p.rule ? ` (${p.rule.document} "${p.rule.section}")` : ''}`)]);
      io.setExitCode(SHEET_ILLEGAL);
      return;
    }
    const d = r.derived;
    if (flags.json) {
      io.stdout(
        toJson({
          legal: true,
          file,
          name: r.sheet.name,
          level: d.level,
          maxLucidity: d.maxLucidity,
          maxHealth: d.maxHealth,
          maxEnergy: d.maxEnergy,
          itemSlots: d.itemSlots,
          itemSlotsUsed: d.itemSlotsUsed,
          designatedItems: d.designatedItems,
          designatedInUse: d.designatedInUse,
          defense: d.defense,
          protection: d.protection,
          skillPointsUsed: d.skillPointsUsed,
          current: d.current,
          warnings: r.warnings,
        }),
      );
    } else {
      writeLines(io.stdout, [
        `${r.sheet.name} (level ${d.level}): legal`,
        `  Lucidity ${d.current.lucidity}/${d.maxLucidity}  Health ${d.current.health}/${d.maxHealth}  Energy ${d.current.energy}/${d.maxEnergy}`,
        `  Defense ${d.defense}  Protection ${d.protection}`,
        `  item slots ${d.itemSlotsUsed}/${d.itemSlots}  designated items ${d.designatedInUse}/${d.designatedItems}  skill points ${d.skillPointsUsed}`,
        ...r.warnings.map((w) => `  note: ${w.field}: ${w.message}`),
      ]);
    }
    io.setExitCode(SHEET_LEGAL);
  });

  const odds = group.command('odds').description('exact odds of Lucidity rolls');
  addLucidityTable(
    odds
      .command('roll')
      .description('the chance a d20 + modifier with buffs and breaks beats a target')
      .option('--modifier <m>', 'attribute + skill rank + bonuses', whole, 0)
      .option('--buffs <n>', 'buffs', count, 0)
      .option('--breaks <n>', 'breaks', count, 0)
      .requiredOption('--target <t>', 'the number to beat', whole)
      .option('--json', 'print one JSON object'),
  ).action((flags: TableFlags & { modifier: number; buffs: number; breaks: number; target: number; json?: boolean }) => {
    const chance = rollChance({ modifier: flags.modifier, target: flags.target, buffs: flags.buffs, breaks: flags.breaks }, table(flags));
    if (flags.json) io.stdout(toJson({ chance }));
    else writeLines(io.stdout, [`chance of success: ${(chance * 100).toFixed(2)}%`]);
  });
  addLucidityTable(
    odds
      .command('lucidity-roll')
      .description('the chance a Lucidity roll succeeds')
      .requiredOption('--current <c>', 'Current Lucidity', wholeNumber(0, 1000))
      .option('--attribute <a>', 'the relevant attribute', whole, 0)
      .option('--buffs <n>', 'buffs', count, 0)
      .option('--breaks <n>', 'breaks', count, 0)
      .option('--json', 'print one JSON object'),
  ).action((flags: TableFlags & { current: number; attribute: number; buffs: number; breaks: number; json?: boolean }) => {
    const chance = lucidityChance({ current: flags.current, attribute: flags.attribute, buffs: flags.buffs, breaks: flags.breaks }, table(flags));
    if (flags.json) io.stdout(toJson({ chance }));
    else writeLines(io.stdout, [`chance of success: ${(chance * 100).toFixed(2)}%`]);
  });
  addLucidityTable(
    odds
      .command('attack')
      .description('the chance an attack hits and the distribution of damage taken after Protection')
      .option('--modifier <m>', 'the attack modifier', whole, 0)
      .requiredOption('--defense <d>', "the defender's Defense", whole)
      .requiredOption('--damage <expr>', 'the damage, e.g. 1d8+2')
      .requiredOption('--protection <p>', "the defender's Protection", wholeNumber(0, 1000))
      .option('--buffs <n>', 'buffs', count, 0)
      .option('--breaks <n>', 'breaks', count, 0)
      .option('--json', 'print one JSON object'),
  ).action((flags: TableFlags & { modifier: number; defense: number; damage: string; protection: number; buffs: number; breaks: number; json?: boolean }) => {
    const o = attackOdds({ modifier: flags.modifier, defense: flags.defense, damage: flags.damage, protection: flags.protection, buffs: flags.buffs, breaks: flags.breaks }, table(flags));
    if (flags.json) io.stdout(toJson(o));
    else
      writeLines(io.stdout, [
        `hit: ${(o.hit * 100).toFixed(2)}%   expected damage taken: ${o.expectedDamage.toFixed(3)}`,
        ...o.damageTaken.map((r) => `  ${String(r.damage).padStart(3)} damage: ${(r.chance * 100).toFixed(2)}%`),
      ]);
  });
}
