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

describe('personae d100 sheet check', () => {
  it('passes the legal example sheets with exit code 0 and derives their values', async () => {
    const r = await cli('d100', 'sheet', 'check', 'examples/d100/evoker-makoto.yaml', 'examples/d100/shadow-pixie.yaml', '--json');
    expect(r.code).toBe(0);
    const o = JSON.parse(r.stdout) as { legal: boolean; sheets: { derived: { woundMax: unknown; fatePointPool: number } }[] };
    expect(o.legal).toBe(true);
    expect(o.sheets[0]!.derived).toMatchObject({ woundMax: { light: 4, heavy: 2, deadly: 1 }, fatePointPool: 3 });
  });
  it('names field, value and rule for each problem of the illegal sheets, with exit code 1', async () => {
    const r = await cli('d100', 'sheet', 'check', 'examples/d100/invalid/too-many-wounds.yaml', 'examples/d100/invalid/bad-affinity.yaml');
    expect(r.exitCodeSet).toBe(1);
    expect(r.stdout).toMatch(/wounds\.light: 6 is more than the track holds \(4 for Toughness 40, TB 4\)/);
    expect(r.stdout).toMatch(/fatePoints: 5 is more than the pool/);
    expect(r.stdout).toMatch(/affinities\.fire: .*"immune"/);
    expect(r.stdout).toMatch(/scores\.melee: .*140/);
  });
});

describe('personae d100 odds', () => {
  it('prints the exact hit chance and a wound distribution that sums to 1', async () => {
    const o = (await cliJson('d100', 'odds', '--attack', '45', '--evasion', '30', '--damage', '8', '--armour', '2', '--element', 'melee', '--json')) as { hit: number; fumble: number; wounds: Record<string, number> };
    expect(o.hit).toBeCloseTo(0.4046, 10);
    expect(o.fumble).toBeCloseTo(0.05, 10);
    expect(Object.values(o.wounds).reduce((s, p) => s + p, 0)).toBeCloseTo(1, 10);
  });
  it('an unopposed attack against a Block affinity deals no wounds', async () => {
    const o = (await cliJson('d100', 'odds', '--attack', '60', '--damage', '9', '--element', 'fire', '--affinity', 'block', '--json')) as { hit: number; wounds: Record<string, number> };
    expect(o.hit).toBeCloseTo(0.6, 10);
    expect(o.wounds).toEqual({ 0: expect.closeTo(1, 10) });
  });
});

describe('personae replay with a d100 scenario', () => {
  it('prints every event and each character\'s final wound tracks, Stress and conditions', async () => {
    const o = (await cliJson('replay', 'examples/d100/scenarios/weakness-one-more.yaml', '--json')) as {
      ruleset: string;
      events: { type: string }[];
      state: { characters: { id: string; wounds: Record<string, number>; stress: number; conditions: Record<string, unknown>; ailments: unknown[]; out: boolean }[] };
    };
    expect(o.ruleset).toBe('d100');
    expect(o.events.filter((e) => e.type === 'attack-resolved')).toHaveLength(3);
    const pixie = o.state.characters.find((c) => c.id === 'pixie')!;
    expect(pixie).toMatchObject({ wounds: { light: 0, heavy: 0, deadly: 0 }, stress: 18, out: true });
    expect(pixie.conditions).toMatchObject({ bloodLoss: true });
    expect(o.state.characters.find((c) => c.id === 'makoto')).toMatchObject({ wounds: { light: 4, heavy: 2, deadly: 1 }, stress: 0 });
  });
});

describe('personae replay of the d100 action scenario (analyse-and-tricks.yaml)', () => {
  it('ends as worked by hand in the file: the forced reroll undoes the hit, Medicine heals, the wall stops the push', async () => {
    const o = (await cliJson('replay', 'examples/d100/scenarios/analyse-and-tricks.yaml', '--json')) as {
      events: { type: string; data: Record<string, unknown> }[];
      state: { characters: { id: string; wounds: Record<string, number>; stress: number; conditions: Record<string, unknown> }[] };
    };
    const types = o.events.map((e) => e.type);
    for (const t of ['analysed', 'disrupted', 'test-rerolled', 'equipped', 'consumable-used', 'trick-resolved', 'went-stealthy']) expect(types).toContain(t);
    const hero = o.state.characters.find((c) => c.id === 'hero')!;
    expect(hero).toMatchObject({ wounds: { light: 4, heavy: 2, deadly: 1 }, stress: 0, conditions: { stealthy: true, distracting: null } });
    expect(o.events.find((e) => e.type === 'equipped')!.data).toMatchObject({ item: 'Rifle', stow: 'Sword', cost: 'action' });
    const shade = o.state.characters.find((c) => c.id === 'shade')!;
    expect(shade).toMatchObject({ wounds: { light: 3, heavy: 1, deadly: 1 }, stress: 3, conditions: { position: { x: 2, y: 0, elevation: 0 }, scaredBy: ['hero'] } });
  });
});

describe('personae replay of a d100 scenario in text', () => {
  it('prints each event as a line in words, a joining character with its tracks, not raw JSON', async () => {
    const r = await cli('replay', 'examples/d100/scenarios/weakness-one-more.yaml');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.some((l) => /^\[\d+\] Makoto joins \(evoker, side pc\): Light 4\/4, Heavy 2\/2, Deadly 1\/1, Stress 0, Fate Points \d+/.test(l))).toBe(true);
    expect(lines.some((l) => /^\[\d+\] .* attacks Pixie: roll \d+/.test(l))).toBe(true);
    expect(r.stdout).not.toMatch(/\{"/);
  });
});

describe('personae replay with an illegal d100 scenario', () => {
  it('stops at the refused action with exit code 2 and names it', async () => {
    const r = await cli('replay', 'examples/d100/scenarios/invalid/out-of-turn.yaml', '--json');
    expect(r.exitCodeSet).toBe(2);
    expect(r.stderr).toMatch(/action 2 refused \(not-your-turn\): attacker: it is Pixie's turn/);
    expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).toBe('not-your-turn');
  });
});
