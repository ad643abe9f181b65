import { describe, expect, it } from 'vitest';
import { cli, cliJson } from './helpers';

describe('personae d100 test (d100-combat-rules.txt "How Attacks Work")', () => {
  it('prints success and degrees of success', async () => {
    const o = await cliJson('d100', 'test', '45', '--roll', '23', '--json');
    expect(o).toMatchObject({ success: true, degrees: 2, critical: false, fumble: false, target: 45, roll: 23 });
  });
  it('prints degrees of failure on a failure', async () => {
    expect(await cliJson('d100', 'test', '45', '--roll', '78', '--json')).toMatchObject({ success: false, degrees: 3 });
  });
  it('flags a Critical Hit roll and a Fumble roll', async () => {
    expect(await cliJson('d100', 'test', '45', '--roll', '7', '--json')).toMatchObject({ success: true, degrees: 4, critical: true, fumble: false });
    expect(await cliJson('d100', 'test', '45', '--roll', '97', '--json')).toMatchObject({ success: false, degrees: 5, critical: false, fumble: true });
  });
  it('reads "00" as 100 and applies --option', async () => {
    expect(await cliJson('d100', 'test', '120', '--roll', '00', '--json')).toMatchObject({ roll: 100, success: false, automatic: true });
    expect(await cliJson('d100', 'test', '45', '--roll', '23', '--option', 'degrees=tens-digit-plus-one', '--json')).toMatchObject({ degrees: 3 });
  });
  it('adds Advantages to the target', async () => {
    expect(await cliJson('d100', 'test', '45', '--roll', '62', '--advantage', '2', '--json')).toMatchObject({ target: 65, success: true, degrees: 0 });
  });
  it('refuses a bad roll or option with exit code 2 and one line naming it', async () => {
    const bad = await cli('d100', 'test', '45', '--roll', '101', '--json');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--roll: 101 is not a d100 result/);
    const opt = await cli('d100', 'test', '45', '--roll', '5', '--option', 'degrees=wrong');
    expect(opt.code).toBe(2);
    expect(opt.stderr).toMatch(/option degrees: "wrong" is not one of/);
  });
  it('rolls reproducibly with --seed', async () => {
    const a = await cliJson('d100', 'test', '45', '--seed', '3', '--json');
    const b = await cliJson('d100', 'test', '45', '--seed', '3', '--json');
    expect(a.roll).toBe(b.roll);
  });
});

describe('personae d100 location', () => {
  it('prints the location of a roll', async () => {
    expect((await cliJson('d100', 'location', '--roll', '5', '--json')).location).toBe('head');
    expect((await cliJson('d100', 'location', '--roll', '55', '--json')).location).toBe('body');
    expect((await cliJson('d100', 'location', '--roll', '15', '--json')).location).toBe('right-arm');
    expect((await cliJson('d100', 'location', '--roll', '25', '--json')).location).toBe('left-arm');
    expect((await cliJson('d100', 'location', '--roll', '80', '--json')).location).toBe('right-leg');
    expect((await cliJson('d100', 'location', '--roll', '00', '--json')).location).toBe('left-leg');
  });
  it('reverses the attack roll under hitLocation=reversed-attack-roll', async () => {
    expect(await cliJson('d100', 'location', '--roll', '5', '--option', 'hitLocation=reversed-attack-roll', '--json')).toMatchObject({ number: 50, location: 'body' });
  });
});
