import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The repository root, where `npm run demo` and `npm run personae` run the binary from. */
const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The real binary, as the root scripts run it. */
function personae(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'packages/cli/src/main.ts', ...args], { cwd: root, encoding: 'utf8', timeout: 30_000 });
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
