// Worked situations for the d100 ruleset, computed by hand from d100-combat-rules.txt and checked
// through the CLI the way an outside checker calls it. Where the seed is silent the expected value
// follows the documented option default (docs/d100/options.md), named in the case.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cliJson, expectUsageError } from './helpers';

interface TestOut { success: boolean; degrees: number; degreesOfSuccess: number; degreesOfFailure: number; critical: boolean; fumble: boolean; automatic: boolean; roll: number }

const test = async (target: string, roll: string, ...more: string[]) =>
  (await cliJson('d100', 'test', target, '--roll', roll, ...more, '--json')) as unknown as TestOut;

describe('d100 test: roll-under with degrees ("How Attacks Work"; degrees=tens-digit, autoResults=ffg by default)', () => {
  it('a roll equal to the target succeeds, with 0 degrees; one over fails with 0 degrees', async () => {
    expect(await test('45', '45')).toMatchObject({ success: true, degrees: 0 });
    expect(await test('45', '46')).toMatchObject({ success: false, degrees: 0 });
  });

  it('degrees are the tens digits apart: exact multiples of ten', async () => {
    // 50 against 50: same tens digit. 9 against 50: 5 - 0 = 5. 40 against 45: 4 - 4 = 0.
    expect(await test('50', '50')).toMatchObject({ success: true, degrees: 0 });
    expect(await test('50', '9')).toMatchObject({ success: true, degrees: 5 });
    expect(await test('45', '40')).toMatchObject({ success: true, degrees: 0 });
    expect(await test('45', '33')).toMatchObject({ success: true, degreesOfSuccess: 1, degreesOfFailure: 0 });
    // 95 against 45: 9 - 4 = 5 degrees of failure.
    expect(await test('45', '95')).toMatchObject({ success: false, degrees: 5, degreesOfFailure: 5, degreesOfSuccess: 0 });
  });

  it('the other readings of degrees are named option values', async () => {
    // margin: |45 - 44| / 10 rounded down = 0; margin-plus-one: 1 + |45 - 25| / 10 = 3.
    expect(await test('45', '44', '--option', 'degrees=margin')).toMatchObject({ success: true, degrees: 0 });
    expect(await test('45', '25', '--option', 'degrees=margin-plus-one')).toMatchObject({ success: true, degrees: 3 });
    expect(await test('45', '25', '--option', 'degrees=tens-digit-plus-one')).toMatchObject({ success: true, degrees: 3 });
  });

  it('01 always succeeds and 00 (100) always fails, degrees clamped at 0 (autoResults=ffg)', async () => {
    expect(await test('0', '01')).toMatchObject({ roll: 1, success: true, automatic: true, degrees: 0 });
    expect(await test('120', '00')).toMatchObject({ roll: 100, success: false, automatic: true, degrees: 0 });
    // Without the automatic results the same rolls follow the target alone.
    expect(await test('0', '1', '--option', 'autoResults=none')).toMatchObject({ success: false, automatic: false });
    expect(await test('45', '100', '--option', 'autoResults=none')).toMatchObject({ success: false, degrees: 6 });
  });

  it('"Critical Hits": a roll of 10 or lower is flagged, 11 is not', async () => {
    expect(await test('45', '10')).toMatchObject({ success: true, degrees: 3, critical: true });
    expect(await test('45', '11')).toMatchObject({ success: true, degrees: 3, critical: false });
    expect(await test('45', '01')).toMatchObject({ success: true, degrees: 4, critical: true });
  });

  it('"Chance Attacks" (the Fumble paragraph): 96 and over is a Fumble, 95 is not', async () => {
    expect(await test('45', '96')).toMatchObject({ success: false, degrees: 5, fumble: true });
    expect(await test('45', '95')).toMatchObject({ fumble: false });
    expect(await test('50', '00')).toMatchObject({ roll: 100, success: false, degrees: 5, fumble: true });
  });
});

describe('d100 location: the hit-location table at its edges ("How Attacks Work" Step Four; locationTable=ffg-humanoid)', () => {
  const edges: [string, string][] = [
    ['01', 'head'], ['10', 'head'], ['11', 'right-arm'], ['20', 'right-arm'], ['21', 'left-arm'], ['30', 'left-arm'],
    ['31', 'body'], ['70', 'body'], ['71', 'right-leg'], ['85', 'right-leg'], ['86', 'left-leg'], ['99', 'left-leg'], ['00', 'left-leg'], ['100', 'left-leg'],
  ];
  it.each(edges)('roll %s hits the %s', async (roll, location) => {
    expect((await cliJson('d100', 'location', '--roll', roll, '--json')).location).toBe(location);
  });

  it('hitLocation=reversed-attack-roll swaps the two digits of the roll', async () => {
    const rev = async (roll: string) => cliJson('d100', 'location', '--roll', roll, '--option', 'hitLocation=reversed-attack-roll', '--json');
    expect(await rev('10')).toMatchObject({ number: 1, location: 'head' });
    expect(await rev('01')).toMatchObject({ number: 10, location: 'head' });
    expect(await rev('12')).toMatchObject({ number: 21, location: 'left-arm' });
    expect(await rev('37')).toMatchObject({ number: 73, location: 'right-leg' });
    expect(await rev('00')).toMatchObject({ number: 100, location: 'left-leg' });
  });
});

describe('d100 bad input: one "personae:" line naming the flag and value, exit 2, nothing on stdout', () => {
  const cases: [string[], RegExp][] = [
    [['d100', 'test', '45', '--roll', '0'], /--roll: 0 is not a d100 result/],
    [['d100', 'test', '45', '--roll', '101'], /--roll: 101 is not a d100 result/],
    [['d100', 'test', '45', '--roll', 'abc'], /--roll: "abc" is not a whole number/],
    [['d100', 'test', '45', '--roll', '5.5'], /--roll: "5.5" is not a whole number/],
    [['d100', 'test', '45', '--roll', '0x10'], /--roll: "0x10" is not a whole number/],
    [['d100', 'test', '1e3', '--roll', '5'], /TARGET: "1e3" is not a whole number/],
    [['d100', 'test', 'abc', '--roll', '5'], /TARGET: "abc" is not a whole number/],
    [['d100', 'test', '--roll', '5'], /target/],
    [['d100', 'test', '45', '--roll', '5', '--option', 'nosuch=1'], /unknown d100 option "nosuch"/],
    [['d100', 'test', '45', '--roll', '5', '--option', 'degrees=wrong'], /option degrees: "wrong" is not one of/],
    [['d100', 'location', '--roll', '0'], /--roll: 0 is not a d100 result/],
    [['d100', 'location', '--roll', '5', '--option', 'hitLocation=x'], /option hitLocation: "x" is not one of/],
  ];
  it.each(cases)('%j', async (argv, message) => {
    await expectUsageError([...argv, '--json'], message);
  });

  it('--json prints one JSON document on stdout and nothing on stderr', async () => {
    const r = await cli('d100', 'test', '45', '--roll', '23', '--json');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(() => JSON.parse(r.stdout) as unknown).not.toThrow();
  });
});

// Two sheets with given wound tracks, and scenarios whose every die is given.
const dir = mkdtempSync(join(tmpdir(), 'd100-worked-'));
const ryo = `{ name: Ryo, kind: npc, side: pc, scores: { melee: 50, ballistic: 30, magic: 20, strength: 40, toughness: 40, agility: 50, intelligence: 30, perception: 30, willpower: 30, fellowship: 30 }, weapons: [{ name: Spear, class: melee, element: melee, damage: 5 }, { name: Knife, class: melee, element: melee, damage: 1 }, { name: Agi, class: magic, element: fire, damage: 4 }, { name: Zio, class: magic, element: elec, damage: 4 }] }`;
const aki = `{ name: Aki, kind: evoker, side: rivals, scores: { melee: 40, ballistic: 30, magic: 40, strength: 30, toughness: 30, agility: 20, intelligence: 30, perception: 20, willpower: 30, fellowship: 30 }, realisation: 20, persona: { name: Pyro, wounds: 2, affinities: { elec: resist } }, weapons: [{ name: Staff, class: melee, element: melee, damage: 3 }] }`;
const imp = `{ name: Imp, kind: shadow, side: shadows, scores: { melee: 40, ballistic: 30, magic: 40, strength: 30, toughness: 40, agility: 30, intelligence: 30, perception: 30, willpower: 30, fellowship: 30 }, affinities: { fire: weak, ice: resist }, weapons: [{ name: Bufu, class: magic, element: ice, damage: 4 }] }`;
const guard = (wounds: string) => `{ name: Guard, kind: npc, side: enemies, scores: { melee: 40, ballistic: 30, magic: 20, strength: 30, toughness: 30, agility: 30, intelligence: 30, perception: 30, willpower: 30, fellowship: 30 }, armour: { body: 1 }${wounds}, weapons: [{ name: Club, class: melee, element: melee, damage: 3 }] }`;
/** A scenario of Ryo against one foe: `imp`, `aki`, or else the Guard with `foe` added to its sheet (its wounds). */
function scenario(name: string, foe: string, actions: string[]): string {
  const file = join(dir, name);
  const entry = foe === 'imp' ? `  imp: { inline: ${imp} }` : foe === 'aki' ? `  aki: { inline: ${aki} }` : `  guard: { inline: ${guard(foe)} }`;
  writeFileSync(file, ['ruleset: d100', `title: ${name}`, 'seed: 1', 'characters:', `  ryo: { inline: ${ryo} }`, entry, 'actions:', ...actions.map((a) => `  - ${a}`), ''].join('\n'));
  return file;
}

interface Fighter { id: string; wounds: { light: number; heavy: number; deadly: number }; stress: number; injuries: { location: string; name: string }[]; ailments: { name: string }[]; conditions: { prone: boolean; bloodLoss: boolean }; out: boolean }
interface Summary { hit: boolean; evasionRoll: number | null; critical: boolean; fumble: boolean; damage: number | null; defense: number | null; location: string | null; wounds: string[]; savage: string[]; oneMore: boolean }
interface Replay { events: { type: string; data: { summary?: Summary } }[]; state: { oneMore: unknown; characters: (Fighter & { persona: { wounds: number; max: number } | null })[] } }
const summaries = (r: Replay) => r.events.filter((e) => e.type === 'attack-resolved').map((e) => e.data.summary!);
const replay = async (file: string) => (await cliJson('replay', file, '--json')) as unknown as Replay;

describe('d100 replay: wound tracks, Stress and conditions worked by hand', () => {
  it('"How Attacks Work", "Inflicting Multiple Wounds", "Wounds and Injury": High Damage, overflow to Heavy and a leg Injury', async () => {
    // Guard: TB 3, so Light 3, Heavy 1 (3/2 rounded down), Deadly 1; Defense 3, 4 on the body (armour 1).
    // Ryo acts first (Agility Bonus 5 against 3). SB 4.
    // 1. Attack 23 against 50: tens digits 5 - 2 = 3 DoS. Evasion 80 against 40 fails.
    //    Location 55: body. Damage 5 + SB 4 + 3 = 12 > Defense 4: one wound, and 12 - 4 = 8 >= 5 is
    //    High Damage: a second wound. Light 3 -> 1, Stress 2.
    // 2. Attack 41 against 50: 1 DoS. Evasion 90 fails. Location 75: right leg, no armour, Defense 3.
    //    Damage 5 + 4 + 1 = 10: one wound plus High Damage (10 - 3 = 7). Light 1 -> 0 (Stress 1), then
    //    Heavy 1 -> 0 (Stress 5) with the leg Injury for 0 Heavy Wounds left: Broken Leg, which
    //    carries every milder leg entry (Broken Toes: prone). Stress 2 + 1 + 5 = 8.
    const file = scenario('spear.yaml', '', [
      '{ type: start }',
      '{ type: attack, attacker: ryo, defender: guard, weapon: Spear, attackTarget: 50, evasionTarget: 40, dice: [23, 80, 55] }',
      '{ type: end-turn }',
      '{ type: end-turn }',
      '{ type: attack, attacker: ryo, defender: guard, weapon: Spear, attackTarget: 50, evasionTarget: 40, dice: [41, 90, 75] }',
    ]);
    const r = await replay(file);
    const attacks = r.events.filter((e) => e.type === 'attack-resolved').map((e) => e.data.summary!);
    expect(attacks.map((a) => [a.location, a.damage, a.defense, a.wounds.length])).toEqual([['body', 12, 4, 2], ['right-leg', 10, 3, 2]]);
    const g = r.state.characters.find((c) => c.id === 'guard')!;
    expect(g.wounds).toEqual({ light: 0, heavy: 0, deadly: 1 });
    expect(g.stress).toBe(8);
    expect(g.injuries).toEqual([expect.objectContaining({ location: 'right-leg', name: 'broken-leg' })]);
    expect(g.conditions.prone).toBe(true);
    const ryoAfter = r.state.characters.find((c) => c.id === 'ryo')!;
    expect(ryoAfter).toMatchObject({ wounds: { light: 4, heavy: 2, deadly: 1 }, stress: 0 });
  });

  it('"Savage Attacks": the seed\'s own example, 2 Light and 1 Heavy left, a Helpless target', async () => {
    // Knife: 1 + SB 4 + 1 DoS (45 against 50) = 6 > Defense 4 (body): one Light wound, and Helpless
    // makes it Savage: one wound of the next severity, a Heavy. Left with 1 Light, as the seed says.
    // Stress 1 + 5; the body Injury with 0 Heavy left is Puncture: Blood Loss.
    const file = scenario('savage.yaml', ', wounds: { light: 2, heavy: 1, deadly: 1 }', [
      '{ type: start }',
      '{ type: set-condition, target: guard, condition: helpless, value: true }',
      '{ type: attack, attacker: ryo, defender: guard, weapon: Knife, attackTarget: 50, dice: [45, 50] }',
    ]);
    const r = await replay(file);
    const hit = r.events.find((e) => e.type === 'attack-resolved')!.data.summary!;
    expect(hit).toMatchObject({ location: 'body', damage: 6, defense: 4, savage: ['Helpless'] });
    const g = r.state.characters.find((c) => c.id === 'guard')!;
    expect(g.wounds).toEqual({ light: 1, heavy: 0, deadly: 1 });
    expect(g.stress).toBe(6);
    expect(g.injuries).toEqual([expect.objectContaining({ location: 'body', name: 'puncture' })]);
    expect(g.conditions.bloodLoss).toBe(true);
  });

  it('"How Attacks Work" Step Three, the Fumble paragraph: more DoS wins, a tie goes to the higher target and then the reactor, 96+ misses unopposed', async () => {
    // 1. Attack 35 against 50: 2 DoS; evasion 15 against 40: 3 DoS. The defender has more: a miss.
    // 2. Attack 25: 3 DoS; evasion 12: 3 DoS. Tied: the higher final target (50 against 40) wins
    //    (opposedTie=higher-target-then-reactor). Body: 5 + 4 + 3 - 3 = 9 against 4: a wound and High Damage.
    // 3. Attack 97: a Fumble, an automatic miss; no evasion die is drawn.
    const file = scenario('opposed.yaml', '', [
      '{ type: start }',
      '{ type: attack, attacker: ryo, defender: guard, weapon: Spear, attackTarget: 50, evasionTarget: 40, dice: [35, 15] }',
      '{ type: end-turn }', '{ type: end-turn }',
      '{ type: attack, attacker: ryo, defender: guard, weapon: Spear, attackTarget: 50, evasionTarget: 40, dice: [25, 12, 50] }',
      '{ type: end-turn }', '{ type: end-turn }',
      '{ type: attack, attacker: ryo, defender: guard, weapon: Spear, attackTarget: 50, evasionTarget: 40, dice: [97] }',
      '{ type: end-turn }', '{ type: end-turn }',
      '{ type: attack, attacker: ryo, defender: guard, weapon: Spear, attackTarget: 40, evasionTarget: 40, dice: [25, 22] }',
    ]);
    const r = await replay(file);
    // 4. Attack 25 and evasion 22, both against 40: 2 DoS each, the same target: the reactor keeps it, a miss.
    expect(summaries(r).map((a) => [a.hit, a.fumble, a.evasionRoll, a.damage, a.wounds.length])).toEqual([[false, false, 15, null, 0], [true, false, 12, 9, 2], [false, true, null, null, 0], [false, false, 22, null, 0]]);
    expect(r.state.characters.find((c) => c.id === 'guard')).toMatchObject({ wounds: { light: 1, heavy: 1, deadly: 1 }, stress: 2 });
  });

  it('"Critical Hits", "Elemental Affinities", "One More", "Ailments", "Wounds and Injury": a physical critical, then a weakness', async () => {
    // Imp: TB 4, Light 4, Heavy 2, Deadly 1, no armour; weak to fire.
    // 1. Spear, attack 7 against 50: 5 DoS and a Critical Hit; evasion 45 against 40 fails. Body.
    //    5 + SB 4 + 5 = 14 against 4: a wound, High Damage (10), the Critical Hit: 3 wounds; 10 over
    //    Defense is Very High Damage: Savage, one wound above the last normal one (a Heavy).
    //    Light 4 -> 1 (Stress 3), Heavy 2 -> 1 (Stress 5) with the body Injury for 1 Heavy left:
    //    Cracked (one-off Blood Loss; it carries Bruised Rib). A physical critical Staggers: One More.
    // 2. The One More: Agi. The Staggered Imp cannot oppose, and its one ailment gives Ryo an
    //    Advantage: target 60, so 30 is 3 DoS, and +1 damage. Right arm. 4 + 3 + 1 = 8; weakness
    //    ignores TB: Defense 0. A wound, High Damage (8), Weakness, Bruised Rib: 4 wounds, Savage.
    //    Light 1 -> 0 (1), Heavy 1 -> 0 (5, Broken Arm), Deadly 1 -> 0 (10): out of the fight.
    //    Already Staggered, so no new One More. Stress 3 + 5 + 1 + 5 + 10 = 24.
    const file = scenario('critical.yaml', 'imp', [
      '{ type: start }',
      '{ type: attack, attacker: ryo, defender: imp, weapon: Spear, attackTarget: 50, evasionTarget: 40, dice: [7, 45, 60] }',
      '{ type: attack, attacker: ryo, defender: imp, weapon: Agi, attackTarget: 50, evasionTarget: 40, dice: [30, 15] }',
    ]);
    const r = await replay(file);
    const [first, second] = summaries(r);
    expect(first).toMatchObject({ hit: true, critical: true, location: 'body', damage: 14, defense: 4, savage: ['Very High Damage'], oneMore: true });
    expect(first!.wounds).toHaveLength(3);
    expect(second).toMatchObject({ hit: true, evasionRoll: null, location: 'right-arm', damage: 8, defense: 0, oneMore: false });
    expect(second!.wounds).toHaveLength(4);
    expect(second!.savage).toHaveLength(1);
    const g = r.state.characters.find((c) => c.id === 'imp')!;
    expect(g).toMatchObject({ wounds: { light: 0, heavy: 0, deadly: 0 }, stress: 24, out: true, conditions: { bloodLoss: true } });
    expect(g.injuries.map((i) => [i.location, i.name])).toEqual([['body', 'cracked'], ['right-arm', 'broken-arm']]);
    expect(g.ailments.map((a) => a.name)).toEqual(['staggered']);
    expect(r.state.oneMore).toBeNull();
  });

  it('"Wounds and Personas", "Elemental Affinities" (Resist): the Persona takes wounds first, and its defeat costs 10 Stress', async () => {
    // Aki: TB 3 (Light 3, Heavy 1), Persona Pyro with 2 wounds, resisting Elec while it stands.
    // 1. Zio (Elec), 3 DoS: 4 + 3 = 7 against TB 3 + 5 (Resist) = 8: no wound.
    // 2. Spear, 1 DoS: 5 + SB 4 + 1 = 10 against 3: a wound and High Damage. Both go to the Persona
    //    (1 Stress each, no Injury); it is defeated: 10 more Stress. Stress 12.
    // 3. Zio again, now against Aki's own affinities: 7 against 3: one Light wound, Stress 13.
    const file = scenario('persona.yaml', 'aki', [
      '{ type: start }',
      '{ type: attack, attacker: ryo, defender: aki, weapon: Zio, attackTarget: 50, evasionTarget: 40, dice: [23, 80, 55] }',
      '{ type: end-turn }', '{ type: end-turn }',
      '{ type: attack, attacker: ryo, defender: aki, weapon: Spear, attackTarget: 50, evasionTarget: 40, dice: [41, 90, 75] }',
      '{ type: end-turn }', '{ type: end-turn }',
      '{ type: attack, attacker: ryo, defender: aki, weapon: Zio, attackTarget: 50, evasionTarget: 40, dice: [23, 80, 55] }',
    ]);
    const r = await replay(file);
    expect(summaries(r).map((a) => [a.damage, a.defense, a.wounds.length])).toEqual([[7, 8, 0], [10, 3, 2], [7, 3, 1]]);
    const a = r.state.characters.find((c) => c.id === 'aki')!;
    expect(a).toMatchObject({ wounds: { light: 2, heavy: 1, deadly: 1 }, stress: 13, persona: { wounds: 0, max: 2 }, injuries: [] });
  });
});
