import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { DUEL_IDS, DUEL_ROUNDS, isRuleError, wilsonInterval, type DuelPair, type DuelSettings, type DuelTally } from '@personae/core';
import type { D100MatchupAttack, D100Refused } from '@personae/d100';
import type { LucidityMatchupAttack, LucidityRefused } from '@personae/lucidity';
import { combatantFromSheet, matchupOdds, simulateDuels, tableOptions, type Combatant, type Preset } from '@personae/rules';
import { parse as parseYaml } from 'yaml';
import { seedNumber, signed, wholeNumber } from '../args.js';
import { toJson } from '../format/json.js';
import { percent } from '../format/odds.js';
import { grouped, progressBar } from '../format/progress.js';
import { indent, textTable } from '../format/table.js';
import { CliError, writeLines, type CliIo } from '../io.js';
import { readSheetFile } from '../sheets.js';
import { clean, readNameList, readPresetList } from './odds-lab.js';

interface MatchupFlags {
  rules?: string;
  duels: number;
  seed?: number;
  json?: boolean;
}

/** The most duels one run plays per rule set. */
const MAX_DUELS = 100_000;

function character(file: string, id: string, preset: Preset): Combatant {
  try {
    return combatantFromSheet(readSheetFile(file), tableOptions(preset), { id });
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`${file}: ${(e as Error).message}`);
  }
}

/** A sheet file read for its ruleset: `ruleset:` in the file, Personae where it names none; null where it is not YAML. */
function rulesetOf(file: string): { ruleset: string | null; raw: unknown; broken?: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(`${file}: cannot read it: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = parseYaml(text) as unknown;
  } catch (e) {
    return { ruleset: null, raw: undefined, broken: `${file}: not YAML or JSON: ${(e as Error).message.split('\n')[0]}` };
  }
  const named = raw !== null && typeof raw === 'object' ? (raw as { ruleset?: unknown }).ruleset : undefined;
  return { ruleset: named === undefined ? 'personae' : String(named), raw };
}

/** The rulesets `personae matchup` plays, with the presets it plays under unless `--rules` names others. */
const MATCHUP_RULESETS: Readonly<Record<string, { readonly presets: () => Promise<readonly string[]>; readonly defaults: () => Promise<readonly string[]> }>> = {
  personae: { presets: async () => ['core-2011', 'srd-v4'], defaults: async () => ['core-2011', 'srd-v4'] },
  d100: { presets: async () => (await import('@personae/d100')).PRESET_NAMES, defaults: async () => (await import('@personae/d100')).PRESET_NAMES },
  lucidity: { presets: async () => (await import('@personae/lucidity')).PRESETS, defaults: async () => (await import('@personae/lucidity')).PRESETS },
};

/** Both sheets' ruleset, which must be one the matchup plays, and the same for both. */
function matchupRuleset(first: string, second: string): { ruleset: string; raws: [unknown, unknown] } {
  const a = rulesetOf(first);
  const b = rulesetOf(second);
  // A file that is not YAML names no ruleset. Beside a Personae sheet the Personae reader reports it, with
  // its line; beside a sheet of another ruleset it is refused here.
  for (const [x, y] of [[a, b], [b, a]] as const) {
    if (x.ruleset !== null) continue;
    if (y.ruleset === null || y.ruleset === 'personae') return { ruleset: 'personae', raws: [a.raw, b.raw] };
    throw new CliError(x.broken!);
  }
  const ruleset = a.ruleset!;
  if (ruleset !== b.ruleset) throw new CliError(`matchup: ${first} is a ${ruleset} sheet and ${second} a ${b.ruleset} sheet; both must be of one ruleset`);
  if (!Object.hasOwn(MATCHUP_RULESETS, ruleset)) throw new CliError(`matchup: ${first} names ruleset ${JSON.stringify(ruleset)}; the matchup knows ${Object.keys(MATCHUP_RULESETS).join(', ')}`);
  return { ruleset, raws: [a.raw, b.raw] };
}

/** Duels under one preset with a progress bar on stderr, closed with how long they took. */
function withProgress(io: CliIo, preset: string, duels: number, seed: number, play: (onProgress: (done: number, total: number) => void) => DuelTally): DuelTally {
  const progress = progressBar(io, { label: `Duels under ${preset}`, unit: 'duels' });
  const started = performance.now();
  const tally = play((done, total) => progress.update(done, total));
  progress.finish(`Played ${grouped(duels)} duels under ${preset} in ${((performance.now() - started) / 1000).toFixed(1)} s (seed ${seed}).`);
  return tally;
}

/** The duels' JSON: each character's wins with their share and its 95% Wilson interval. */
function duelsJson(tally: DuelTally, names: readonly (readonly [string, string])[]): object {
  return {
    played: tally.duels,
    wins: Object.fromEntries(
      names.map(([id, name]) => {
        const w = tally.wins[id] ?? 0;
        const ci = wilsonInterval(w, tally.duels);
        return [name, { won: w, share: clean(w / tally.duels), low: clean(ci.low), high: clean(ci.high) }];
      }),
    ),
    undecided: tally.undecided,
    rounds: { mean: clean(tally.rounds.mean), max: tally.rounds.max },
  };
}

/** The duels in lines: a heading, each character's share with its interval, and the undecided and rounds. */
function duelsLines(preset: string, how: string, tally: DuelTally, names: readonly (readonly [string, string])[]): string[] {
  const wins = names.map(([id, name]) => {
    const w = tally.wins[id] ?? 0;
    const ci = wilsonInterval(w, tally.duels);
    return [name, `wins ${percent(w / tally.duels, 1)}`, `95% interval ${percent(ci.low, 1)} to ${percent(ci.high, 1)}`];
  });
  return [
    '',
    `Rules ${preset}: ${grouped(tally.duels)} duels (${how})`,
    ...indent(textTable(wins)),
    `  Undecided after ${DUEL_ROUNDS} rounds: ${grouped(tally.undecided)}. Rounds: ${tally.rounds.mean.toFixed(2)} on average, ${tally.rounds.max} at most.`,
  ];
}

/** How `personae matchup` prints one ruleset's matchup: its attack rows in JSON and text, and what its duels do. */
interface RulesetMatchup<A, R> {
  readonly ruleset: string;
  readonly title: string;
  readonly pair: DuelPair;
  odds(preset: string): { attacks: readonly A[]; refused: readonly R[] };
  duels(preset: string, settings: DuelSettings): DuelTally;
  attackJson(a: A): object;
  readonly header: readonly string[];
  attackRow(a: A): string[];
  refusedLine(r: R): string;
  /** How each duel is fought, for the heading of its tally. */
  readonly how: string;
}

/** Reads the pair of sheets with the ruleset's check; a refusal names the file. */
function pairOf(read: (first: unknown, second: unknown) => DuelPair, files: readonly [string, string], raws: readonly [unknown, unknown]): DuelPair {
  try {
    return read(raws[0], raws[1]);
  } catch (e) {
    if (isRuleError(e)) throw new CliError(e.message.replace(/^first sheet/, files[0]).replace(/^second sheet/, files[1]));
    throw e;
  }
}

function printMatchup<A, R>(io: CliIo, m: RulesetMatchup<A, R>, presets: readonly string[], flags: MatchupFlags, seed: number): void {
  const names = DUEL_IDS.map((id) => [id, String(m.pair[id].name)] as const);
  const results = presets.map((preset) => ({
    preset,
    odds: m.odds(preset),
    duels: flags.duels > 0 ? withProgress(io, preset, flags.duels, seed, (onProgress) => m.duels(preset, { duels: flags.duels, seed, onProgress })) : undefined,
  }));
  if (flags.json) {
    io.stdout(
      toJson({
        command: 'matchup',
        ruleset: m.ruleset,
        characters: names.map(([, n]) => n),
        seed,
        rules: results.map((r) => ({ preset: r.preset, attacks: r.odds.attacks.map((x) => m.attackJson(x)), refused: r.odds.refused, ...(r.duels ? { duels: duelsJson(r.duels, names) } : {}) })),
      }),
    );
    return;
  }
  const lines: string[] = [`${names[0]![1]} against ${names[1]![1]} (${m.title})`];
  for (const r of results) {
    lines.push('', `Rules ${r.preset}: exact odds of each attack`);
    lines.push(...indent(textTable([[...m.header], ...r.odds.attacks.map((x) => m.attackRow(x))])));
    for (const x of r.odds.refused) lines.push(`  Not possible: ${m.refusedLine(x)}.`);
    if (r.duels) lines.push(...duelsLines(r.preset, m.how, r.duels, names));
  }
  writeLines(io.stdout, lines);
}

/** A count of labelled Advantages or Disadvantages. */
const count = (xs: readonly { count: number }[] = []): number => xs.reduce((n, x) => n + x.count, 0);

async function d100Matchup(files: readonly [string, string], raws: readonly [unknown, unknown]): Promise<RulesetMatchup<D100MatchupAttack, D100Refused>> {
  const { d100Pair, d100MatchupOdds, expectedWounds, simulateD100Duels } = await import('@personae/d100');
  const pair = pairOf(d100Pair, files, raws);
  return {
    ruleset: 'd100',
    title: 'd100',
    pair,
    odds: (preset) => d100MatchupOdds(pair, preset),
    duels: (preset, settings) => simulateD100Duels(pair, preset, {}, settings),
    attackJson: (x) => ({
      attacker: x.attacker,
      defender: x.defender,
      weapon: x.weapon,
      defence: x.defence,
      kind: x.spec.kind,
      element: x.spec.element,
      attackTarget: x.spec.attackTarget,
      evasionTarget: x.spec.evasionTarget,
      damage: x.spec.damage,
      advantages: count(x.spec.advantages),
      disadvantages: count(x.spec.disadvantages),
      hit: clean(x.odds.hit),
      critical: clean(x.odds.critical),
      fumble: clean(x.odds.fumble),
      stagger: clean(x.odds.stagger),
      out: clean(x.odds.out),
      wounds: Object.fromEntries(Object.entries(x.odds.wounds).map(([n, p]) => [n, clean(p)])),
      expectedWounds: clean(expectedWounds(x.odds)),
    }),
    header: ['attacker', 'with', 'defence', 'test', 'damage', 'hit', 'Staggers', 'out', 'wounds'],
    attackRow: (x) => {
      const net = count(x.spec.advantages) - count(x.spec.disadvantages);
      return [
        x.attacker,
        `${x.weapon} (${x.spec.element})`,
        x.defence === 'none' ? 'none' : x.defence === 'defend' ? 'Evasion, Defending' : 'Evasion',
        `${x.spec.attackTarget}${net ? ` ${signed(net)} Adv.` : ''} vs ${x.spec.evasionTarget ?? '-'}`,
        String(x.spec.damage),
        percent(x.odds.hit, 1),
        percent(x.odds.stagger, 1),
        percent(x.odds.out, 1),
        expectedWounds(x.odds).toFixed(2),
      ];
    },
    refusedLine: (x) => `${x.attacker}'s ${x.weapon} against ${x.defence}: ${x.reason}`,
    how: 'each attacks with its best attack against Evasion',
  };
}

async function lucidityMatchup(files: readonly [string, string], raws: readonly [unknown, unknown]): Promise<RulesetMatchup<LucidityMatchupAttack, LucidityRefused>> {
  const { lucidityPair, lucidityMatchupOdds, simulateLucidityDuels } = await import('@personae/lucidity');
  const pair = pairOf(lucidityPair, files, raws);
  return {
    ruleset: 'lucidity',
    title: 'Lucidity',
    pair,
    odds: (preset) => lucidityMatchupOdds(pair, preset),
    duels: (preset, settings) => simulateLucidityDuels(pair, preset, {}, settings),
    attackJson: (x) => ({
      attacker: x.attacker,
      defender: x.defender,
      weapon: x.weapon,
      roll: x.roll,
      modifier: x.modifier,
      ...(x.odds.lucidityTarget !== undefined ? { lucidityTarget: x.odds.lucidityTarget } : {}),
      defense: x.defense,
      damage: x.damage,
      protection: x.protection,
      hit: clean(x.odds.hit),
      damageTaken: x.odds.damageTaken.map((d) => ({ damage: d.damage, chance: clean(d.chance) })),
      expectedDamage: clean(x.odds.expectedDamage),
    }),
    header: ['attacker', 'with', 'roll', 'against', 'damage', 'hit', 'any damage', 'expected damage'],
    attackRow: (x) => [
      x.attacker,
      x.weapon,
      x.roll === 'lucidity' ? `Lucidity roll, ${x.odds.lucidityTarget} or under` : `d20${signed(x.modifier)}`,
      `Defense ${x.defense}`,
      `${x.damage} vs Protection ${x.protection}`,
      percent(x.odds.hit, 1),
      percent(x.odds.damageTaken.filter((d) => d.damage > 0).reduce((n, d) => n + d.chance, 0), 1),
      x.odds.expectedDamage.toFixed(2),
    ],
    refusedLine: (x) => `${x.attacker}'s ${x.weapon} with a ${x.roll === 'lucidity' ? 'Lucidity roll' : 'd20'}: ${x.reason}`,
    how: 'each attacks with its best attack on the d20, as its actions allow',
  };
}

/**
 * `personae matchup A B`: archetype against archetype. The exact odds of every attack each can make on
 * the other with every defense the other may answer with, and duels played out by the encounter rules
 * under each preset, with a 95% confidence interval. The sheets name their ruleset (Personae, d100 or
 * Lucidity); both must be of the same one.
 */
export function registerMatchupCommand(program: Command, io: CliIo): void {
  program
    .command('matchup')
    .summary('archetype against archetype: exact odds of every attack and defense, and simulated duels')
    .description(
      'Two character sheets against each other: the exact odds of each attack one can make on the other, with each\n' +
        'defense the rules allow, and whole duels played out by the encounter rules under each rules preset.\n' +
        'Personae, d100 and Lucidity sheets: the ruleset is the one the sheets name (ruleset: d100), the same for both.',
    )
    .argument('<first>', 'the first character sheet (YAML or JSON)')
    .argument('<second>', 'the second character sheet')
    .option('--rules <presets>', "rules presets to play under, comma-separated (default: core-2011,srd-v4 for Personae, every preset of the d100 and Lucidity rulesets)")
    .option('--duels <n>', `duels to play per preset (0 for the exact odds only; at most ${grouped(MAX_DUELS)})`, wholeNumber(0, MAX_DUELS), 1000)
    .option('--seed <n>', 'seed of the duels (default 1)', seedNumber)
    .option('--json', 'print one JSON object instead of text')
    .action(async (first: string, second: string, flags: MatchupFlags) => {
      const { ruleset, raws } = matchupRuleset(first, second);
      const seed = flags.seed ?? 1;
      if (ruleset === 'd100' || ruleset === 'lucidity') {
        const known = MATCHUP_RULESETS[ruleset]!;
        const presets = flags.rules === undefined ? await known.defaults() : readNameList(flags.rules, '--rules', await known.presets());
        if (ruleset === 'd100') printMatchup(io, await d100Matchup([first, second], raws), presets, flags, seed);
        else printMatchup(io, await lucidityMatchup([first, second], raws), presets, flags, seed);
        return;
      }
      const presets = readPresetList(flags.rules ?? 'core-2011,srd-v4', '--rules');
      const results = [];
      for (const preset of presets) {
        const a = character(first, 'first', preset);
        const read = character(second, 'second', preset);
        // A character against itself (a mirror match): the second copy is told apart by its name.
        const b = read.name === a.name ? { ...read, name: `${read.name} (2)` } : read;
        const odds = matchupOdds(a, b, preset);
        const duels = flags.duels > 0 ? withProgress(io, preset, flags.duels, seed, (onProgress) => simulateDuels(a, b, preset, {}, { duels: flags.duels, seed, onProgress })) : undefined;
        results.push({ preset, a, b, odds, duels });
      }
      if (flags.json) {
        io.stdout(
          toJson({
            command: 'matchup',
            characters: [results[0]!.a.name, results[0]!.b.name],
            seed,
            rules: results.map((r) => ({
              preset: r.preset,
              attacks: r.odds.attacks.map((x) => ({
                attacker: x.attacker,
                defender: x.defender,
                skill: x.skill,
                defense: x.defense,
                ...(x.defenseSkill ? { defenseSkill: x.defenseSkill } : {}),
                active: x.active,
                actor: x.actor,
                reactor: x.reactor,
                success: clean(x.odds.success),
                clearSuccess: clean(x.odds.clearSuccess),
                glancingSuccess: clean(x.odds.glancingSuccess),
                failure: clean(x.odds.failure),
                fullTie: clean(x.odds.fullTie),
              })),
              refused: r.odds.refused,
              ...(r.duels ? { duels: duelsJson(r.duels, [[r.a.id, r.a.name], [r.b.id, r.b.name]]) } : {}),
            })),
          }),
        );
        return;
      }
      const lines: string[] = [`${results[0]!.a.name} against ${results[0]!.b.name}`];
      for (const r of results) {
        lines.push('', `Rules ${r.preset}: exact odds of each attack`);
        const rows: string[][] = [['attacker', 'with', 'defense', 'dice', 'success', 'clear', 'glancing']];
        for (const x of r.odds.attacks) {
          rows.push([
            x.attacker,
            x.skill,
            `${x.defense}${x.defenseSkill ? ` (${x.defenseSkill})` : ''}${x.active ? ', declared ahead' : ''}`,
            `${x.actor.dice}d10${x.actor.modifier >= 0 ? '+' : ''}${x.actor.modifier} vs ${x.reactor.dice}d10${x.reactor.modifier >= 0 ? '+' : ''}${x.reactor.modifier}`,
            percent(x.odds.success, 1),
            percent(x.odds.clearSuccess, 1),
            percent(x.odds.glancingSuccess, 1),
          ]);
        }
        lines.push(...indent(textTable(rows)));
        for (const x of r.odds.refused) lines.push(`  Not possible: ${x.attacker}'s ${x.skill} against ${x.defense}${x.defenseSkill ? ` (${x.defenseSkill})` : ''}: ${x.reason}.`);
        if (r.duels) lines.push(...duelsLines(r.preset, 'each attacks with its best attack; the other answers with its best passive defense', r.duels, [[r.a.id, r.a.name], [r.b.id, r.b.name]]));
      }
      writeLines(io.stdout, lines);
    });
}
