import { describe, expect, it } from 'vitest';
import { cli, cliJson } from './helpers';

const file = 'examples/scenarios/cultist-sword-fight.yaml';

describe('personae replay --rules', () => {
  it('under the scenario\'s own rules every roll comes out as recorded', async () => {
    const j = (await cliJson('replay', file, '--rules', 'core-2011', '--json')) as { rolls: { changed: boolean; then: unknown; now: unknown }[]; changed: number };
    expect(j.rolls.length).toBe(4);
    expect(j.changed).toBe(0);
    for (const r of j.rolls) expect(r.now).toEqual(r.then);
  });

  it('lists each roll then and now with its exact chance under each, and the run played again', async () => {
    const j = (await cliJson('replay', file, '--rules', 'srd-v4', '--json')) as {
      then: { preset: string };
      now: { preset: string };
      rolls: { actor: { dice: number[] }; then: { outcome: string; chance: number }; now: { outcome: string; chance: number } }[];
      characters: Record<string, { then: { status: string }; now: { status: string } }>;
      nowError?: { code: string };
    };
    expect(j.then.preset).toBe('core-2011');
    expect(j.now.preset).toBe('srd-v4');
    expect(j.rolls[0]!.actor.dice).toEqual([8, 4, 2]);
    for (const r of j.rolls) {
      expect(r.then.chance).toBeGreaterThan(0);
      expect(r.now.chance).toBeLessThan(1);
    }
    expect(j.characters.cultist!.then.status).toBe('wounded');
    // srd-v4 lets the encounter turn violent without a hostile step: the run plays through again.
    expect(j.nowError).toBeUndefined();
  });

  it('says where the run stops when the new rules refuse a step', async () => {
    const j = (await cliJson('replay', file, '--rules', 'srd-v4', '--option', 'escalationMaySkip=false', '--json')) as { nowError?: { code: string } };
    expect(j.nowError?.code).toBe('escalation-order');
  });

  it('--option alone changes one option of the scenario\'s own rules', async () => {
    const j = (await cliJson('replay', file, '--option', 'escalationMaySkip=true', '--json')) as { now: { rules: string }; changed: number };
    expect(j.now.rules).toBe('core-2011 with escalationMaySkip=true');
  });

  it('names an unknown preset or option', async () => {
    const r = await cli('replay', file, '--rules', 'v9');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/unknown rules preset "v9"/);
    const o = await cli('replay', file, '--option', 'fullTie=maybe');
    expect(o.stderr).toMatch(/--option "fullTie=maybe"/);
  });
});

describe('personae replay --rules for a d100 scenario', () => {
  const d100File = 'examples/d100/scenarios/weakness-one-more.yaml';
  type Verdict = { hit: boolean; location: string | null; odds: { hit: number } | null };
  type D100Replay = { ruleset: string; now: { preset: string }; attacks: { dice: number[]; then: Verdict; now: Verdict | null; changed: boolean }[]; changed: number };

  it("under the scenario's own rules every attack comes out as recorded", async () => {
    const j = (await cliJson('replay', d100File, '--rules', 'seed', '--json')) as unknown as D100Replay;
    expect(j.ruleset).toBe('d100');
    expect(j.attacks.length).toBe(3);
    expect(j.changed).toBe(0);
    for (const a of j.attacks) expect(a.now).toEqual(a.then);
  });

  it('lists each attack then and now with its exact odds under each, and the same dice', async () => {
    const j = (await cliJson('replay', d100File, '--rules', 'ffg-margin', '--json')) as unknown as D100Replay;
    expect(j.now.preset).toBe('ffg-margin');
    // The file gives the dice: the attack roll, the evasion roll, the location (d100-combat-rules.txt "How Attacks Work").
    expect(j.attacks[0]!.dice).toEqual([20, 70, 40]);
    // ffg-margin reads the location from the reversed attack roll: 20 reads 02, the head.
    expect(j.attacks[0]!.then.location).toBe('body');
    expect(j.attacks[0]!.now!.location).toBe('head');
    expect(j.changed).toBe(3);
    for (const a of j.attacks) expect(a.then.odds!.hit).toBeGreaterThan(0);
  });

  it('names the preset or option it cannot use, and exits 2', async () => {
    const bad = await cli('replay', d100File, '--option', 'degrees=bogus');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/degrees: "bogus" is not one of/);
  });
});

describe('personae replay --rules for a Lucidity scenario', () => {
  const lucidityFile = 'examples/lucidity/scenarios/bandit-on-the-road.yaml';
  type Verdict = { hit: boolean; total: number; damageTaken: number; odds: { hit: number; expectedDamage: number } | null };
  type LucidityReplay = { ruleset: string; now: { preset: string }; attacks: { action: number; then: Verdict; now: Verdict | null; changed: boolean }[]; changed: number };

  it("under the scenario's own rules every attack comes out as recorded", async () => {
    const j = (await cliJson('replay', lucidityFile, '--rules', 'standard', '--json')) as unknown as LucidityReplay;
    expect(j.ruleset).toBe('lucidity');
    expect(j.attacks.map((a) => a.action)).toEqual([2, 4, 6]);
    expect(j.changed).toBe(0);
    for (const a of j.attacks) expect(a.now).toEqual(a.then);
  });

  it('as-written takes Protection off twice: the archer\'s 1 damage is 0 with the same dice, and each attack expects less', async () => {
    const j = (await cliJson('replay', lucidityFile, '--rules', 'as-written', '--json')) as unknown as LucidityReplay;
    const archer = j.attacks[2]!;
    expect(archer.then.damageTaken).toBe(1);
    expect(archer.now!.damageTaken).toBe(0);
    expect(archer.now!.total).toBe(archer.then.total);
    expect(j.changed).toBe(1);
    for (const a of j.attacks) expect(a.now!.odds!.expectedDamage).toBeLessThanOrEqual(a.then.odds!.expectedDamage);
  });

  it('names the option it cannot use, and exits 2', async () => {
    const bad = await cli('replay', lucidityFile, '--option', 'protectionPipeline=nope');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/protectionPipeline/);
  });
});
