import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { challengeOdds, simulateChallenge, tableOptions, type ChallengeOdds } from '../../src/index';
import { endIdleSimulationWorkers, IDLE_MS, idleSimulationWorkers, simulateChallengeParallel } from '../../src/odds/node';

function within(sim: ChallengeOdds, exact: ChallengeOdds, k = 4.5): void {
  const n = sim.samples!;
  for (const f of ['success', 'clearSuccess', 'glancingSuccess', 'failure', 'fullTie'] as const) {
    const se = Math.sqrt((exact[f] * (1 - exact[f])) / n) + 1e-9;
    expect(Math.abs(sim[f] - exact[f]), f).toBeLessThan(k * se);
  }
}

describe('simulation on worker threads', () => {
  const q = { actor: { dice: 5, modifier: 1 }, reactor: { dice: 4, modifier: 2 } };
  const options = tableOptions('srd-v4');

  it('gives what the same seed gives in this thread, with one worker or several; two agree with the exact odds', async () => {
    const progress: number[] = [];
    const one = await simulateChallengeParallel(q, options, { samples: 100_000, seed: 8, workers: 1, onProgress: (done) => progress.push(done) });
    expect(one).toEqual(simulateChallenge(q, options, { samples: 100_000, seed: 8 }));
    expect(progress.at(-1)).toBe(100_000);
    // Five chunks, the last one short, handed out to whichever worker is free.
    const inThread = simulateChallenge(q, options, { samples: 300_001, seed: 9 });
    for (const workers of [1, 2, 3]) expect(await simulateChallengeParallel(q, options, { samples: 300_001, seed: 9, workers }), `${workers} workers`).toEqual(inThread);
    const two = await simulateChallengeParallel(q, options, { samples: 400_000, seed: 8, workers: 2 });
    expect(two.samples).toBe(400_000);
    within(two, challengeOdds(q, options));
  }, 60_000);

  it('does the same with rerolls and ignored dice (the general path)', async () => {
    const focus = { dice: 1, keep: 'better', mayTouchHighest: false, source: 'ability' } as const;
    const withAbilities = { actor: { dice: 4, modifier: 1, rerolls: [focus] }, reactor: { dice: 3, modifier: 2, ignoreOpponentDice: 1 } };
    const inThread = simulateChallenge(withAbilities, options, { samples: 140_000, seed: 3 });
    expect(await simulateChallengeParallel(withAbilities, options, { samples: 140_000, seed: 3, workers: 2 })).toEqual(inThread);
    within(inThread, challengeOdds(withAbilities, options));
  }, 60_000);

  it('keeps its workers for the next run, ends them when told or after IDLE_MS idle', async () => {
    await endIdleSimulationWorkers();
    expect(idleSimulationWorkers()).toBe(0);
    await simulateChallengeParallel(q, options, { samples: 200_000, seed: 1, workers: 2 });
    expect(idleSimulationWorkers()).toBe(2);
    // A run of one worker takes one of them; the other is still idle meanwhile.
    const run = simulateChallengeParallel(q, options, { samples: 100_000, seed: 1, workers: 1 });
    expect(idleSimulationWorkers()).toBe(1);
    await run;
    expect(idleSimulationWorkers()).toBe(2);
    await endIdleSimulationWorkers();
    expect(idleSimulationWorkers()).toBe(0);
    await simulateChallengeParallel(q, options, { samples: 1000, seed: 1, workers: 1 });
    expect(idleSimulationWorkers()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS + 500));
    expect(idleSimulationWorkers()).toBe(0);
  }, 60_000);

  it('idle workers do not keep the process alive', () => {
    // The child prints how long after its answer the process was about to exit.
    const script = [
      "import { simulateChallengeParallel } from './packages/rules/src/odds/node.ts';",
      "import { tableOptions } from './packages/rules/src/index.ts';",
      "const odds = await simulateChallengeParallel({ actor: { dice: 3, modifier: 0 }, reactor: { dice: 3, modifier: 0 } }, tableOptions('core-2011'), { samples: 200000, seed: 2, workers: 2 });",
      'const answered = performance.now();',
      "process.on('exit', () => console.log(JSON.stringify({ samples: odds.samples, afterAnswer: performance.now() - answered })));",
    ].join('\n');
    const root = fileURLToPath(new URL('../../../../', import.meta.url));
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { cwd: root, encoding: 'utf8', timeout: 50_000 });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { samples: number; afterAnswer: number };
    expect(out.samples).toBe(200_000);
    expect(out.afterAnswer).toBeLessThan(IDLE_MS / 2);
  }, 60_000);

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const run = simulateChallengeParallel(q, options, { samples: 50_000_000, seed: 1, workers: 2, signal: controller.signal, onProgress: () => controller.abort(new Error('stop')) });
    await expect(run).rejects.toThrow('stop');
  }, 60_000);
});

/**
 * Every source file reached from `entry` through imports that are not type-only, each import
 * (file, specifier) shown to `check` on the way.
 */
function reachedFrom(entry: string, check: (file: string, spec: string) => void): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)) {
      const spec = m[1]!;
      if (/^(import|export)\s+type\s/.test(m[0])) continue;
      check(file, spec);
      if (spec.startsWith('.')) {
        const base = resolve(dirname(file), spec);
        visit(existsSync(`${base}.ts`) ? `${base}.ts` : join(base, 'index.ts'));
      }
    }
  };
  visit(fileURLToPath(new URL(entry, import.meta.url)));
  return seen;
}

describe('the browser entry', () => {
  it('reaches no node: module from packages/rules/src/index.ts', () => {
    const seen = reachedFrom('../../src/index.ts', (file, spec) => expect(spec.startsWith('node:'), `${file} imports ${spec}`).toBe(false));
    expect([...seen].some((f) => f.endsWith(join('odds', 'api.ts')))).toBe(true);
  });
});

describe('the simulation worker', () => {
  // Each worker loads its code anew: the rules' schemas (zod, about 450 KB bundled, built when their
  // modules load) would be most of its start-up, and it needs none of them.
  it('reaches no schema library and no sheet or effect module from odds/worker.ts', () => {
    const seen = reachedFrom('../../src/odds/worker.ts', (file, spec) => expect(spec, `${file} imports ${spec}`).not.toBe('zod'));
    expect([...seen].some((f) => f.endsWith(join('odds', 'simulate.ts')))).toBe(true);
    expect([...seen].filter((f) => /[\\/](effects|sheet)[\\/]/.test(f))).toEqual([]);
  });
});
