/**
 * d100 duels played out by the encounter rules (simulateD100Duels, `personae matchup --duels`): the
 * time per duel of two example Evokers under the seed rules.
 *
 *   node --import tsx bench/d100-duel.ts [duels] [repeats] [path to another copy's src/index.ts]
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** The d100 package to time: its own, or another copy of its sources (a baseline) given as the third argument. */
const { d100Pair, simulateD100Duels } = (await import(process.argv[4] ?? '@personae/d100')) as typeof import('@personae/d100');

const sheet = (name: string) => parse(readFileSync(new URL(`../examples/d100/${name}`, import.meta.url), 'utf8')) as unknown;
const pair = d100Pair(sheet('evoker-makoto.yaml'), sheet('evoker-yukari.yaml'));
const duels = Number(process.argv[2] ?? 200);
const repeats = Number(process.argv[3] ?? 5);

for (let r = 0; r < repeats; r++) {
  // CPU time as well as wall time: the machine is shared, and waiting for a core is not the duels' cost.
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const tally = simulateD100Duels(pair, 'seed', {}, { duels, seed: r + 1, maxRounds: 50 });
  const cpu = process.cpuUsage(c0);
  const ms = performance.now() - t0;
  const cpuMs = (cpu.user + cpu.system) / 1000;
  console.log(`run ${r + 1}: ${duels} duels in ${ms.toFixed(0)} ms (${cpuMs.toFixed(0)} ms CPU), ${(cpuMs / duels).toFixed(2)} ms CPU a duel; wins ${JSON.stringify(tally.wins)}, ${tally.undecided} undecided`);
}
