import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { findRuleset } from '@personae/core';
import { givenDice, seededDice } from '@personae/dice';
import { decideEncounter, encounterDecider, evolveEncounter, initialEncounter, parseD100Scenario, runD100Scenario, d100Ruleset, type EncounterState } from '../src';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const file = resolve(root, 'examples/d100/scenarios/weakness-one-more.yaml');
const sheets = (path: string) => parseYaml(readFileSync(resolve(dirname(file), path), 'utf8')) as unknown;
const scenario = parseD100Scenario(readFileSync(file, 'utf8'), 'weakness-one-more.yaml');
const GM = { role: 'gm' as const, participantId: 'gm' };

describe('a d100 encounter as events (d100-combat-rules.txt, "Combat Structure", "One More")', () => {
  const run = runD100Scenario(scenario, sheets, seededDice(scenario.seed));
  it('plays the example scenario as worked by hand', () => {
    expect(run.error).toBe(null);
    // initiative: the Pixie's Agility Bonus 4 beats Makoto's 3
    expect(run.state.order).toEqual(['pixie', 'makoto']);
    // Zio: 20 vs 45, 2 DoS; evasion 70 vs 55 fails; damage 4 + 2 = 6 vs TB 4 + Resist 5 + Armour 2 = 11: no wound
    const zio = run.events.find((e) => e.type === 'attack-resolved')!;
    expect(zio.type === 'attack-resolved' && zio.data.summary).toMatchObject({ hit: true, damage: 6, defense: 11, wounds: [] });
    // Agi: 12 vs 40, 3 DoS; damage 7 against Armour 0 (Weak ignores TB): base, High Damage, Weakness
    const attacks = run.events.filter((e) => e.type === 'attack-resolved');
    expect(attacks[1]!.type === 'attack-resolved' && attacks[1]!.data.summary).toMatchObject({ damage: 7, defense: 0, wounds: ['damage over Defense', 'High Damage', 'Weakness'], oneMore: true });
    // Naginata on the One More: 30 vs 45 + 10 (Ailment), 2 DoS; 5 + SB 3 + 2 + 1 net Advantage = 11 vs TB 3: two wounds
    expect(attacks[2]!.type === 'attack-resolved' && attacks[2]!.data.summary).toMatchObject({ evasionRoll: null, damage: 11, defense: 3, wounds: ['damage over Defense', 'High Damage'] });
    const pixie = run.state.fighters.pixie!;
    expect(pixie.tracks.left).toEqual({ light: 0, heavy: 0, deadly: 0 });
    expect(pixie.out).toBe(true);
    expect(pixie.stress).toBe(3 + 5 + 10);
    // the round ended and, with the Pixie out, Makoto starts round 2
    expect(run.state).toMatchObject({ round: 2, current: 'makoto', oneMore: null });
  });

  it('replay is deterministic: the same file gives the same events, and folding their JSON gives the same state', () => {
    const again = runD100Scenario(scenario, sheets, seededDice(99));
    expect(again.events).toEqual(run.events);
    let s: EncounterState = initialEncounter();
    for (const e of JSON.parse(JSON.stringify(run.events))) s = evolveEncounter(s, e);
    expect(s.fighters).toEqual(run.state.fighters);
  });

  it('undo takes back the last command: the One More attack', () => {
    const before = run.events.findIndex((e) => e.type === 'attack-resolved' && e.data.spec.kind === 'melee');
    let s: EncounterState = initialEncounter();
    for (const e of run.events.slice(0, before + 1)) s = evolveEncounter(s, e);
    expect(s.fighters.pixie!.out).toBe(true);
    const undo = decideEncounter(s, { type: 'undo', seen: s.seq }, { actor: GM, dice: givenDice([]), now: '' });
    const back = undo.reduce(evolveEncounter, s);
    expect(back.fighters.pixie!.tracks.left).toEqual({ light: 0, heavy: 1, deadly: 1 });
    expect(back.oneMore?.holder).toBe('makoto');
  });

  it('refuses out-of-turn actions and leaves the state unchanged', () => {
    let s: EncounterState = initialEncounter();
    for (const e of run.events.slice(0, 4)) s = evolveEncounter(s, e);
    const copy = JSON.stringify(s);
    expect(() => decideEncounter(s, { type: 'attack', attacker: 'makoto', defender: 'pixie', advantages: [], disadvantages: [], fateBlocks: 0, chance: false }, { actor: GM, dice: givenDice([50, 50, 50]), now: '' })).toThrow(/it is Pixie's turn/);
    expect(JSON.stringify(s)).toBe(copy);
  });

  it('redacts the hidden Pixie for players', () => {
    const player = { role: 'player' as const, participantId: 'makoto' };
    const view = encounterDecider.viewState(run.state, player) as { characters: { id: string }[] };
    expect(view.characters.map((c) => c.id)).toEqual(['makoto']);
    const seen = run.events.map((e) => encounterDecider.redactEvent(e, player, run.state)).filter((e) => e !== null);
    expect(seen.some((e) => JSON.stringify(e).includes('pixie'))).toBe(false);
    expect((encounterDecider.viewState(run.state, GM) as { characters: unknown[] }).characters).toHaveLength(2);
  });

  it('is registered with the core registry as "d100"', () => {
    expect(findRuleset('d100')).toBe(d100Ruleset);
    expect(d100Ruleset.options.find((o) => o.name === 'degrees')?.default).toBe('tens-digit');
  });

  it('any sequence of commands from players either refuses or moves on, and folding is deterministic (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('end-turn', 'attack-a', 'attack-b', 'defend', 'undo'), { maxLength: 12 }), fc.integer({ min: 1, max: 1000 }), (steps, seed) => {
        let s = runD100Scenario({ ...scenario, actions: [{ type: 'start' }] }, sheets, seededDice(1)).state;
        const dice = seededDice(seed);
        const events = [];
        for (const step of steps) {
          const cmd =
            step === 'attack-a' ? { type: 'attack', attacker: 'makoto', defender: 'pixie' }
            : step === 'attack-b' ? { type: 'attack', attacker: 'pixie', defender: 'makoto' }
            : step === 'undo' ? { type: step, seen: s.seq }
            : { type: step };
          const parsed = encounterDecider.parseCommand(cmd);
          if (!parsed.ok) throw new Error(parsed.error.message);
          try {
            for (const e of decideEncounter(s, parsed.command, { actor: GM, dice, now: '' })) {
              s = evolveEncounter(s, e);
              events.push(e);
            }
          } catch (e) {
            expect((e as Error).name).toBe('RuleError');
          }
        }
        let t = runD100Scenario({ ...scenario, actions: [{ type: 'start' }] }, sheets, seededDice(1)).state;
        for (const e of JSON.parse(JSON.stringify(events))) t = evolveEncounter(t, e);
        expect(t.fighters).toEqual(s.fighters);
      }),
      { numRuns: 60 },
    );
  });
});

describe('Baton Pass and the All Out Attack in an encounter (d100-combat-rules.txt, "Baton Pass", "All Out Attack")', () => {
  const f = resolve(root, 'examples/d100/scenarios/baton-pass-all-out.yaml');
  const sheetsHere = (path: string) => parseYaml(readFileSync(resolve(dirname(f), path), 'utf8')) as unknown;
  const run = runD100Scenario(parseD100Scenario(readFileSync(f, 'utf8'), 'baton-pass-all-out.yaml'), sheetsHere, seededDice(3));
  it('passes the One More to Yukari with two Advantages (rank 4) and spends it on the All Out Attack', () => {
    expect(run.error).toBe(null);
    expect(run.state.order).toEqual(['pixie', 'yukari', 'makoto']);
    const pass = run.events.find((e) => e.type === 'baton-passed');
    expect(pass?.data).toMatchObject({ from: 'makoto', to: 'yukari', advantages: 2 });
    // Yukari 33 vs 45 + 10: 2 DoS; Makoto 25 vs 40 + 10: 3 DoS; 2 participants + 3 = 5 wounds
    const aoa = run.events.find((e) => e.type === 'all-out-attack');
    expect(aoa?.data).toMatchObject({ woundsEach: 5, killed: ['pixie'] });
    expect(run.state.fighters.pixie!.out).toBe(true);
    expect(run.state.fighters.pixie!.ailments.some((a) => a.name === 'staggered')).toBe(false);
  });
  it('refuses a second pass back to Makoto in the same chain', () => {
    const upTo = run.events.findIndex((e) => e.type === 'baton-passed');
    let s: EncounterState = initialEncounter();
    for (const e of run.events.slice(0, upTo + 1)) s = evolveEncounter(s, e);
    expect(() => decideEncounter(s, { type: 'baton-pass', to: 'makoto' }, { actor: GM, dice: givenDice([]), now: '' })).toThrow(/already given or received a Baton Pass/);
  });
});

describe('ailments expire on the sufferer\'s turns in an encounter', () => {
  it('Dizzy inflicted during the Pixie\'s turn lasts through its next two turns', () => {
    const base = runD100Scenario({ ...scenario, actions: [{ type: 'start' }, { type: 'inflict-ailment', target: 'pixie', ailment: 'dizzy' }] }, sheets, seededDice(1));
    let s = base.state;
    const end = () => { for (const e of decideEncounter(s, { type: 'end-turn' }, { actor: GM, dice: givenDice([]), now: '' })) s = evolveEncounter(s, e); };
    const dizzy = () => s.fighters.pixie!.ailments.some((a) => a.name === 'dizzy');
    end(); // the Pixie's first turn ends: it does not count
    expect(dizzy()).toBe(true);
    end(); end(); // Makoto's turn, then the Pixie's second turn: one counted
    expect(dizzy()).toBe(true);
    end(); end(); // the Pixie's third turn ends: two counted, it wears off
    expect(dizzy()).toBe(false);
  });
});
