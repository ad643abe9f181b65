import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { run } from '../src/main';
import type { CliIo } from '../src/io';
import { cli, cliJson, expectUsageError } from './helpers';

type Odds = { success: number; failure: number; fullTie: number; clearSuccess: number; glancingSuccess: number; method: string; samples?: number; standardError?: number; seed?: number; workers?: number };

/** Run in-process with an io that says stderr is a terminal and can be interrupted. */
async function withTerminal(argv: string[], interruptAfterProgress = false) {
  const out: string[] = [];
  const err: string[] = [];
  let stop: (() => void) | undefined;
  let listening = 0;
  const io: CliIo = {
    stdout: (s) => void out.push(s),
    stderr: (s) => {
      err.push(s);
      // Ctrl-C once a worker has reported some progress.
      if (interruptAfterProgress && /Simulating \[.*\]\s+\d+%\s+[1-9]/.test(s)) stop?.();
    },
    setExitCode: () => {},
    stderrIsTTY: true,
    stderrColumns: 100,
    onInterrupt: (s) => {
      stop = s;
      listening++;
      return () => {
        stop = undefined;
        listening--;
      };
    },
  };
  const code = await run(argv, io);
  return { code, stdout: out.join(''), stderr: err.join(''), listening };
}

describe('personae odds --simulate', () => {
  it('is reproducible: the same seed and workers give the same figures', async () => {
    const args = ['odds', '3d10+4', 'vs', '2d10+5', '--simulate', '150000', '--seed', '5', '--workers', '2', '--json'];
    const a = await cliJson(...args);
    const b = await cliJson(...args);
    expect(a).toEqual(b);
    const c = await cliJson('odds', '3d10+4', 'vs', '2d10+5', '--simulate', '150000', '--seed', '6', '--workers', '2', '--json');
    expect(c.success).not.toBe(a.success);
  }, 60_000);

  it('--json keeps the documented keys and adds method, samples, standardError, seed and workers', async () => {
    const sim = (await cliJson('odds', '3d10+4', 'vs', '2d10+5', '--simulate', '200,000', '--seed', '7', '--workers', '2', '--json')) as unknown as Odds & Record<string, unknown>;
    const exact = (await cliJson('odds', '3d10+4', 'vs', '2d10+5', '--json')) as unknown as Odds & Record<string, unknown>;
    for (const key of Object.keys(exact)) expect(sim, key).toHaveProperty(key);
    expect(sim).toMatchObject({ command: 'odds', method: 'simulation', samples: 200_000, seed: 7, workers: 2 });
    expect(sim.standardError).toBeCloseTo(Math.sqrt((sim.success * (1 - sim.success)) / 200_000), 12);
    expect(sim.success + sim.failure + sim.fullTie).toBeCloseTo(1, 9);
    expect(sim.clearSuccess + sim.glancingSuccess).toBeCloseTo(sim.success, 9);
    // Within five standard errors of the exact answer.
    expect(Math.abs(sim.success - exact.success)).toBeLessThan(5 * sim.standardError!);
  }, 60_000);

  it('prints like exact odds, labelled with the number of challenges and the standard error', async () => {
    const r = await cli('odds', '3d10+4', 'vs', '2d10+5', '--simulate', '2e4', '--seed', '3', '--workers', '1');
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('Odds: Actor 3d10+4 vs Reactor 2d10+5');
    expect(lines[1]).toMatch(/^Rules core-2011; estimated by simulation of 20,000 challenges ± \d\.\d{3}% \(standard error; seed 3, 1 worker thread\)\.$/);
    expect(r.stdout).toMatch(/\n {2}Success {2,}\d+\.\d\d%/);
    expect(r.stdout).toContain('Criticals banked (chance of 0, 1, 2, ...):');
    // Not a terminal: no bar, only the closing line.
    expect(r.stderr).toMatch(/^Simulated 20,000 challenges on 1 worker thread in \d+\.\d s \(seed 3\)\.\n$/);
  }, 60_000);

  it('simulates unopposed challenges too', async () => {
    const sim = (await cliJson('odds', '3d10+3', '--unopposed', '5', '--simulate', '100000', '--seed', '2', '--json')) as unknown as Odds;
    const exact = (await cliJson('odds', '3d10+3', '--unopposed', '5', '--json')) as unknown as Odds;
    expect(sim).toMatchObject({ method: 'simulation', samples: 100_000, seed: 2 });
    expect(Math.abs(sim.success - exact.success)).toBeLessThan(5 * sim.standardError!);
  }, 60_000);

  it('draws a progress bar on stderr when it is a terminal, then clears it for the closing line', async () => {
    const r = await withTerminal(['odds', '3d10+4', 'vs', '2d10+5', '--simulate', '300000', '--seed', '4', '--workers', '2']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('estimated by simulation of 300,000 challenges');
    expect(r.stderr).toContain('\r\x1b[KSimulating [');
    expect(r.stderr).toMatch(/Simulating \[[█░]+\] +100% {2}300,000 of 300,000 challenges/);
    expect(r.stderr).toMatch(/\r\x1b\[KSimulated 300,000 challenges on 2 worker threads in \d+\.\d s \(seed 4\)\.\n$/);
    expect(r.stdout).not.toContain('Simulating');
    expect(r.listening).toBe(0);
  }, 60_000);

  it('Ctrl-C stops the workers: exit code 130, nothing on stdout, one line saying how far it got', async () => {
    const r = await withTerminal(['odds', '3d10+4', 'vs', '2d10+5', '--simulate', '1e9', '--seed', '1', '--workers', '2', '--json'], true);
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
    const last = r.stderr.split('\r\x1b[K').at(-1)!;
    expect(last).toMatch(/^personae: interrupted: the simulation stopped after [\d,]+ of 1,000,000,000 challenges; nothing was printed\n$/);
    expect(r.listening).toBe(0);
  }, 60_000);

  it('chooses a seed when none is given and reports it', async () => {
    const j = (await cliJson('odds', '2d10', 'vs', '2d10', '--simulate', '1000', '--json')) as unknown as Odds;
    expect(Number.isSafeInteger(j.seed)).toBe(true);
    expect(j.samples).toBe(1000);
  }, 60_000);

  it('refuses --seed and --workers without --simulate, --table or --plot with it, and bad counts', async () => {
    const cases: [string[], RegExp][] = [
      [['odds', '2d10', 'vs', '2d10', '--seed', '3'], /--seed is for --simulate/],
      [['odds', '2d10', 'vs', '2d10', '--workers', '2'], /--workers is for --simulate/],
      [['odds', '2d10', 'vs', '2d10', '--simulate', '1000', '--table'], /drop --table or --simulate/],
      [['odds', '2d10', 'vs', '2d10', '--simulate', '0'], /--simulate <n>.*expected a whole number of challenges from 1 to 1,000,000,000/],
      [['odds', '2d10', 'vs', '2d10', '--simulate', 'lots'], /expected a whole number of challenges/],
      [['odds', '2d10', 'vs', '2d10', '--simulate', '100', '--workers', '0'], /--workers <k>.*expected a whole number from 1 to 64/],
    ];
    for (const [argv, message] of cases) await expectUsageError(argv, message);
  });

  it('the real binary simulates on two worker threads', () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'packages/cli/src/main.ts', 'odds', '3d10+4', 'vs', '2d10+5', '--simulate', '200000', '--seed', '9', '--workers', '2', '--json'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ method: 'simulation', samples: 200_000, seed: 9, workers: 2 });
    expect(r.stderr).toMatch(/^Simulated 200,000 challenges on 2 worker threads in \d+\.\d s \(seed 9\)\.\n$/);
  }, 60_000);
});
