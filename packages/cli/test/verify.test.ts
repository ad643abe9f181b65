import { describe, expect, it } from 'vitest';
import { commitRoll } from '@personae/core';
import { cli, cliJson } from './helpers';

describe('personae verify', () => {
  const salt = '00112233445566778899aabbccddeeff';
  const { hash } = commitRoll({ dice: [7, 3, 10, 1], salt });

  it('verifies a revealed roll against its commitment', async () => {
    const r = await cli('verify', '--commitment', hash, '--dice', '7,3,10,1', '--salt', salt);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('verified: the dice 7, 3, 10, 1 are the ones committed to\n');
    expect(await cliJson('verify', '--commitment', hash, '--dice', '7,3,10,1', '--salt', salt, '--json')).toEqual({ verified: true, dice: [7, 3, 10, 1] });
  });

  it('refuses a tampered roll with exit code 1', async () => {
    const r = await cli('verify', '--commitment', hash, '--dice', '7,3,10,2', '--salt', salt, '--json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ verified: false, dice: [7, 3, 10, 2] });
  });

  it('names the bad input with exit code 2', async () => {
    const bad = await cli('verify', '--commitment', 'abc', '--dice', '7', '--salt', salt);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--commitment: "abc" is not a SHA-256 hash');
    const die = await cli('verify', '--commitment', hash, '--dice', '7,x', '--salt', salt);
    expect(die.code).toBe(2);
    expect(die.stderr).toContain('--dice: "x" is not a die result');
    const s = await cli('verify', '--commitment', hash, '--dice', '7', '--salt', 'zz');
    expect(s.code).toBe(2);
    expect(s.stderr).toContain('salt');
  });
});
