import type { Command } from 'commander';
import { combatantFromSheet, matchupOdds, simulateDuels, tableOptions, wilsonInterval, type Combatant, type Preset } from '@personae/rules';
import { seedNumber, wholeNumber } from '../args.js';
import { toJson } from '../format/json.js';
import { percent } from '../format/odds.js';
import { grouped, progressBar } from '../format/progress.js';
import { indent, textTable } from '../format/table.js';
import { CliError, writeLines, type CliIo } from '../io.js';
import { readSheetFile } from '../sheets.js';
import { clean, readPresetList } from './odds-lab.js';

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

/**
 * `personae matchup A B`: archetype against archetype. The exact odds of every attack each can make on
 * the other with every defense the other may answer with, and duels played out by the encounter rules
 * under each preset, with a 95% confidence interval.
 */
export function registerMatchupCommand(program: Command, io: CliIo): void {
  program
    .command('matchup')
    .summary('archetype against archetype: exact odds of every attack and defense, and simulated duels')
    .description(
      'Two character sheets against each other: the exact odds of each attack one can make on the other, with each\n' +
        'defense the rules allow, and whole duels played out by the encounter rules under each rules preset.',
    )
    .argument('<first>', 'the first character sheet (YAML or JSON)')
    .argument('<second>', 'the second character sheet')
    .option('--rules <presets>', 'rules presets to play under, comma-separated', 'core-2011,srd-v4')
    .option('--duels <n>', `duels to play per preset (0 for the exact odds only; at most ${grouped(MAX_DUELS)})`, wholeNumber(0, MAX_DUELS), 1000)
    .option('--seed <n>', 'seed of the duels (default 1)', seedNumber)
    .option('--json', 'print one JSON object instead of text')
    .action(async (first: string, second: string, flags: MatchupFlags) => {
      const presets = readPresetList(flags.rules ?? 'core-2011,srd-v4', '--rules');
      const seed = flags.seed ?? 1;
      const results = [];
      for (const preset of presets) {
        const a = character(first, 'first', preset);
        const read = character(second, 'second', preset);
        // A character against itself (a mirror match): the second copy is told apart by its name.
        const b = read.name === a.name ? { ...read, name: `${read.name} (2)` } : read;
        const odds = matchupOdds(a, b, preset);
        let duels;
        if (flags.duels > 0) {
          const progress = progressBar(io, { label: `Duels under ${preset}`, unit: 'duels' });
          const started = performance.now();
          duels = simulateDuels(a, b, preset, {}, { duels: flags.duels, seed, onProgress: (done, total) => progress.update(done, total) });
          progress.finish(`Played ${grouped(flags.duels)} duels under ${preset} in ${((performance.now() - started) / 1000).toFixed(1)} s (seed ${seed}).`);
        }
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
              ...(r.duels
                ? {
                    duels: {
                      played: r.duels.duels,
                      wins: Object.fromEntries([r.a, r.b].map((c) => {
                        const w = r.duels!.wins[c.id] ?? 0;
                        const ci = wilsonInterval(w, r.duels!.duels);
                        return [c.name, { won: w, share: clean(w / r.duels!.duels), low: clean(ci.low), high: clean(ci.high) }];
                      })),
                      undecided: r.duels.undecided,
                      rounds: { mean: clean(r.duels.rounds.mean), max: r.duels.rounds.max },
                    },
                  }
                : {}),
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
        if (r.duels) {
          lines.push('', `Rules ${r.preset}: ${grouped(r.duels.duels)} duels (each attacks with its best attack; the other answers with its best passive defense)`);
          const d = r.duels;
          const wins = [r.a, r.b].map((c) => {
            const w = d.wins[c.id] ?? 0;
            const ci = wilsonInterval(w, d.duels);
            return [c.name, `wins ${percent(w / d.duels, 1)}`, `95% interval ${percent(ci.low, 1)} to ${percent(ci.high, 1)}`];
          });
          lines.push(...indent(textTable(wins)));
          lines.push(`  Undecided after 50 rounds: ${grouped(d.undecided)}. Rounds: ${d.rounds.mean.toFixed(2)} on average, ${d.rounds.max} at most.`);
        }
      }
      writeLines(io.stdout, lines);
    });
}
