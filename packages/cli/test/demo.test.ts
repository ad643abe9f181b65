import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRY_NEXT } from '../src/commands/demo';
import { cli } from './helpers';

describe('personae demo', () => {
  it('shows the documents\' tie example: the actor wins on the extra die', async () => {
    const r = await cli('demo');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('roll "[7,5,2]+3" vs "[8,6]+2" --seed 2011');
    expect(r.stdout).toContain('SUCCESS: Actor succeeds (decided by extra dice).');
    expect(r.stdout).toContain('Actor still has dice to compare');
  });

  it('shows exact odds for one matchup', async () => {
    const { stdout } = await cli('demo');
    expect(stdout).toContain('odds "3d10+4" vs "2d10+5"');
    expect(stdout).toMatch(/Success\s+48\.26%/);
  });

  it('shows the documents\' unopposed example', async () => {
    const { stdout } = await cli('demo');
    expect(stdout).toContain('roll "[1,5,6]+3" --unopposed normal --gm-dice 3,7');
    expect(stdout).toContain('SUCCESS: Player meets the target');
  });

  it('is the same every time', async () => {
    expect((await cli('demo')).stdout).toBe((await cli('demo')).stdout);
  });

  it('ends with commands to try, each of which works', async () => {
    const { stdout } = await cli('demo');
    expect(stdout).toContain('Try next:');
    const dir = mkdtempSync(join(tmpdir(), 'personae-demo-'));
    for (const args of TRY_NEXT) {
      // Charts go to a scratch directory, not into the checkout.
      const r = await cli(...args.map((a) => (a.endsWith('.svg') ? join(dir, a) : a)));
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    expect(existsSync(join(dir, 'odds.svg'))).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });
});
