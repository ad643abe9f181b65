import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { challengeOdds, simulateChallenge, tableOptions, type ChallengeOdds } from '../../src/index';
import { simulateChallengeParallel } from '../../src/odds/node';

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

  it('one worker gives what the same seed gives in this thread; two agree with the exact odds', async () => {
    const progress: number[] = [];
    const one = await simulateChallengeParallel(q, options, { samples: 100_000, seed: 8, workers: 1, onProgress: (done) => progress.push(done) });
    expect(one).toEqual(simulateChallenge(q, options, { samples: 100_000, seed: 8 }));
    expect(progress.at(-1)).toBe(100_000);
    const two = await simulateChallengeParallel(q, options, { samples: 400_000, seed: 8, workers: 2 });
    expect(two.samples).toBe(400_000);
    within(two, challengeOdds(q, options));
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
