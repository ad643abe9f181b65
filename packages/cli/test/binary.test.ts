import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The repository root, where `npm run demo` and `npm run personae` run the binary from. */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const launcher = join(root, 'packages/cli/bin/personae.mjs');

/** The real binary, as the root scripts and the installed `personae` command run it. */
function personae(...args: string[]) {
  const r = spawnSync(process.execPath, [launcher, ...args], { cwd: root, encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the personae binary', () => {
  it('exits 0 and prints the roll', () => {
    const r = personae('roll', '[7,5,2]+3', 'vs', '[8,6]+2', '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'success', decidedBy: 'extra-dice' });
  });

  it('exits 2 with one line on stderr and no stack trace on bad input', () => {
    for (const args of [
      ['roll', '3d6', 'vs', '2d10'],
      ['roll', '3d10', 'vs'],
      ['roll', '3d10', 'vs', '2d10', '--rules', 'nope'],
      ['roll', '3d10', 'vs', '2d10', '--nope'],
    ]) {
      const r = personae(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^personae: /);
      expect(r.stderr).not.toMatch(/\n\s+at |node:internal|\.ts:\d+/);
    }
  });

  it('runs the demo that `npm run demo` shows', () => {
    const r = personae('demo');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Try next:');
  });
});

describe('the launcher (packages/cli/bin/personae.mjs)', () => {
  /**
   * A copy of the launcher in a tree of its own: a "bundle" that says so, and sources (run through tsx)
   * that say so, so the test sees which one ran.
   */
  function tree() {
    const dir = mkdtempSync(join(tmpdir(), 'personae-launcher-'));
    const cli = join(dir, 'packages/cli');
    for (const d of ['bin', 'dist', 'src']) mkdirSync(join(cli, d), { recursive: true });
    copyFileSync(launcher, join(cli, 'bin/personae.mjs'));
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(cli, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(join(cli, 'src/main.ts'), "export async function run(argv: string[]): Promise<number> { process.stdout.write(`sources ${argv.join(' ')}\\n`); return 0; }\n");
    writeFileSync(join(cli, 'src/io.ts'), 'export const processIo = (): object => ({});\n');
    writeFileSync(join(cli, 'dist/personae.cjs'), "process.stdout.write('bundle ' + process.argv.slice(2).join(' ') + '\\n');\n");
    const old = new Date(Date.now() - 60_000);
    for (const f of ['src/main.ts', 'src/io.ts']) utimesSync(join(cli, f), old, old);
    writeFileSync(join(cli, 'dist/inputs.json'), JSON.stringify({ builtAt: Date.now(), inputs: ['packages/cli/src/main.ts', 'packages/cli/src/io.ts'] }));
    const launch = (...args: string[]) => spawnSync(process.execPath, [join(cli, 'bin/personae.mjs'), ...args], { encoding: 'utf8', timeout: 30_000 });
    return { dir, cli, launch };
  }

  it('runs the bundle while it is newer than its sources, and keeps a code cache next to it', () => {
    const t = tree();
    try {
      const r = t.launch('roll', '3d10');
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('bundle roll 3d10\n');
      expect(spawnSync('ls', [join(t.cli, 'dist')], { encoding: 'utf8' }).stdout).toContain('personae.cache');
      expect(t.launch('again').stdout).toBe('bundle again\n');
    } finally {
      rmSync(t.dir, { recursive: true, force: true });
    }
  });

  it('runs the sources through tsx when a source changed after the build, or there is no build', () => {
    const t = tree();
    try {
      const future = new Date(Date.now() + 60_000);
      utimesSync(join(t.cli, 'src/io.ts'), future, future);
      expect(t.launch('odds').stdout).toBe('sources odds\n');
      rmSync(join(t.cli, 'dist'), { recursive: true });
      expect(t.launch('demo').stdout).toBe('sources demo\n');
    } finally {
      rmSync(t.dir, { recursive: true, force: true });
    }
  });
});

