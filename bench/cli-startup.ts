/**
 * Start-up of the `personae` command against a bare `node -e 0` measured in the same run: each round
 * starts every variant once, in turn, so a busy machine slows them alike, and the ratios are medians.
 * Goal: the built command at most 3x `node -e 0`.
 *
 *   node --import tsx bench/cli-startup.ts [rounds]
 *
 * It builds the bundle first (scripts/build-cli.mjs), so it measures the current sources.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const rounds = Number(process.argv[2] ?? 15);
const launcher = 'packages/cli/bin/personae.mjs';

const build = spawnSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) throw new Error('building the bundle failed');

interface Variant {
  readonly label: string;
  readonly args: readonly string[];
  readonly env?: Record<string, string>;
}

const roll = ['roll', '[7,5,2]+3', 'vs', '[8,6]+2'];
const variants: Variant[] = [
  { label: 'node -e 0 (baseline)', args: ['-e', '0'] },
  { label: 'personae --version (bundle)', args: [launcher, '--version'] },
  { label: 'personae roll, given dice (bundle)', args: [launcher, ...roll] },
  { label: 'personae odds 3d10+4 vs 2d10+5 (bundle)', args: [launcher, 'odds', '3d10+4', 'vs', '2d10+5'] },
  { label: 'personae roll, from the sources through tsx', args: [launcher, ...roll], env: { PERSONAE_FROM_SOURCES: '1' } },
];

function once(v: Variant): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, v.args, { cwd: root, env: { ...process.env, ...v.env }, encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${v.label} exited ${r.status}: ${r.stderr}`);
  return ms;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const pressure = (): string => {
  try {
    return readFileSync('/proc/pressure/cpu', 'utf8').split('\n')[0]!.replace(/^some /, '');
  } catch {
    return 'n/a';
  }
};

// One warm-up round writes the code cache and fills the file cache.
for (const v of variants) once(v);
const loadBefore = loadavg().map((x) => x.toFixed(2)).join(' ');
const times = variants.map(() => [] as number[]);
const ratios = variants.map(() => [] as number[]);
for (let r = 0; r < rounds; r++) {
  const round = variants.map((v) => once(v));
  round.forEach((ms, i) => {
    times[i]!.push(ms);
    ratios[i]!.push(ms / round[0]!);
  });
}
console.log(`Node ${process.version}, ${rounds} rounds; load average before ${loadBefore}, after ${loadavg().map((x) => x.toFixed(2)).join(' ')}; CPU pressure ${pressure()}`);
variants.forEach((v, i) => {
  const rs = ratios[i]!;
  console.log(
    `${v.label.padEnd(46)} median ${median(times[i]!).toFixed(0).padStart(5)} ms   ratio to node -e 0: median ${median(rs).toFixed(2)}x (min ${Math.min(...rs).toFixed(2)}x, max ${Math.max(...rs).toFixed(2)}x)`,
  );
});
