import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { poolDice, type EnteredPools } from '@personae/core';
import { seededDice } from '@personae/dice';
import { Recorded } from '../helpers/recorded';
import { sheet } from '../helpers/sheets';
import { entryLines, personaeTable, tableLog, type TableCommandInput, type TableEvent, type Viewer } from '../../src/index';

const gm: Viewer = { role: 'gm', participantId: 'p-gm' };
const ann: Viewer = { role: 'player', participantId: 'p-ann' };
const watcher: Viewer = { role: 'observer', participantId: 'observer' };

/**
 * The hidden adversary's secrets: its concept, its skills, abilities and weapons (none of them shared
 * with the dwarf's sheet), and the attribute labels of its modifiers.
 */
const SECRETS = ['Merchant, Privateer', 'Cutlass', 'Flintlock', 'Sailing', 'Bluff', 'Misdirection', 'Lucky Compass', 'Port-Born', 'Brutal'];

/** A table driven as the server drives it, recording what each seat receives. */
const recorded = () => new Recorded([gm, ann, watcher], seededDice(11), { settings: { physicalDice: false } });

function hiddenEncounter(options: Record<string, unknown> = {}) {
  const t = recorded();
  t.run(gm, { type: 'configure', preset: 'core-2011', options: { actionOrder: 'initiative-skill', ...options } });
  t.run(ann, { type: 'add-character', sheet: sheet('dwarf-iron-constitution.yaml') });
  t.run(gm, { type: 'add-character', sheet: sheet('merchant-privateer-scoundrel.yaml'), hidden: true });
  const [dwarf, merchant] = Object.keys(t.state.characters) as [string, string];
  t.run(ann, { type: 'encounter', command: { type: 'escalate', actor: dwarf, to: 'non-violent' } });
  t.run(ann, { type: 'encounter', command: { type: 'escalate', actor: dwarf, to: 'violent' } });
  const turn = () => t.state.encounter.now!.combat!.turn.actor;
  for (let round = 1; round <= 3; round++) {
    for (let i = 0; i < 2; i++) {
      if (turn() === dwarf) {
        t.run(ann, { type: 'encounter', command: { type: 'attack', actor: dwarf, target: merchant } });
        t.run(ann, { type: 'encounter', command: { type: 'end-turn', actor: dwarf } });
      } else {
        // A hidden attack, an open one, and a hidden parry declared last (the dwarf's warhammer is not
        // attacked into it: a one-handed blade cannot parry it).
        if (round === 3) t.run(gm, { type: 'encounter', hidden: true, command: { type: 'defend', actor: merchant, kind: 'parry', skill: 'Cutlass' } });
        else t.run(gm, { type: 'encounter', hidden: round === 1, command: { type: 'attack', actor: merchant, target: dwarf, skill: 'Cutlass', abilities: ['Brutal Cutlass Strike'] } });
        t.run(gm, { type: 'encounter', command: { type: 'end-turn', actor: merchant } });
      }
    }
  }
  return { t, dwarf, merchant };
}

describe('hidden information at the table', () => {
  it('a whole hidden encounter: no frame a player or observer receives names the hidden sheet', () => {
    const { t } = hiddenEncounter();
    t.run(gm, { type: 'encounter', command: { type: 'undo', actor: 'gm' }, seen: t.state.seq });
    // The GM sees every secret, so the search below would find them if they leaked.
    for (const s of SECRETS) expect(t.wire(gm)).toContain(s);
    for (const viewer of [ann, watcher]) {
      const wire = t.wire(viewer);
      for (const s of SECRETS) expect(wire, `${viewer.role} received "${s}"`).not.toContain(s);
      expect(wire).not.toMatch(/Marisol "Gull" Vance sustains \d/);
      expect(wire).not.toMatch(/Marisol \\"Gull\\" Vance's modifier: \+\d+ [A-Z]/);
    }
  });

  it('the hidden side of an open attack shows only its name and the outcome by default', () => {
    const { t, merchant } = hiddenEncounter();
    const full = tableLog(t.state).filter((e) => e.result && e.secretOf?.includes(merchant));
    expect(full.length).toBeGreaterThan(0);
    const seen = personaeTable.viewState(t.state, ann).log.filter((e) => e.result && e.characters.includes(merchant));
    expect(seen.length).toBeGreaterThan(0);
    for (const e of seen) {
      const hiddenSide = e.result!.actor.name.includes('Marisol') ? e.result!.actor : e.result!.reactor;
      expect(hiddenSide.roll.rolled).toEqual([]);
      expect(hiddenSide.modifiers).toEqual([]);
      expect(entryLines(e).join('\n')).toMatch(/side of the roll is not shown \(option hiddenSideShown = outcome\)/);
      expect(entryLines(e).join('\n')).toMatch(/Outcome for /);
    }
  });

  it('option hiddenSideShown = dice shows its dice and one summed, unlabelled modifier', () => {
    const { t, merchant } = hiddenEncounter({ hiddenSideShown: 'dice' });
    const seen = personaeTable.viewState(t.state, watcher).log.filter((e) => e.result && e.characters.includes(merchant));
    const gmSeen = personaeTable.viewState(t.state, gm).log.filter((e) => e.result && !e.hidden && e.characters.includes(merchant));
    expect(seen.length).toBe(gmSeen.length);
    seen.forEach((e, i) => {
      const hiddenSide = e.result!.actor.name.includes('Marisol') ? e.result!.actor : e.result!.reactor;
      const truth = gmSeen[i]!.result!.actor.name.includes('Marisol') ? gmSeen[i]!.result!.actor : gmSeen[i]!.result!.reactor;
      expect(hiddenSide.roll.rolled).toEqual(truth.roll.rolled);
      expect(hiddenSide.modifier).toBe(truth.modifier);
      expect(hiddenSide.modifiers.map((m) => m.source)).toEqual(truth.modifier === 0 ? [] : ['in total']);
    });
    for (const s of SECRETS) expect(t.wire(watcher)).not.toContain(s);
  });

  it("the scene carries no hidden ability, defense or initiative line, and the hidden character's condition only", () => {
    const { t, merchant } = hiddenEncounter();
    const view = personaeTable.viewState(t.state, ann);
    const scene = view.scene!;
    expect(scene.combat!.defenses[merchant]).toBeUndefined();
    expect(scene.combat!.abilityUse[merchant]).toBeUndefined();
    expect(scene.banks[merchant]).toBeUndefined();
    const play = view.characters.find((c) => c.id === merchant)!.play!;
    expect(play.hits).toBe(0);
    expect(play.status).toBe(t.state.encounter.now!.characters[merchant]!.status);
    const order = view.log.find((e) => entryLines(e)[0]?.startsWith('Action order'))!;
    expect(entryLines(order).join('\n')).toMatch(/Marisol "Gull" Vance: its roll is not shown/);
  });

  it('the owner of a hidden character sees it whole', () => {
    const t = recorded();
    t.run(gm, { type: 'add-character', sheet: sheet('merchant-privateer-scoundrel.yaml'), hidden: true, owner: ann.participantId });
    const view = personaeTable.viewState(t.state, ann);
    expect(view.characters[0]!.sheet?.concept).toBe('Merchant, Privateer, Scoundrel');
    expect(personaeTable.viewState(t.state, watcher).characters.map((c) => [c.name, c.sheet])).toEqual([['Marisol "Gull" Vance', null]]);
  });

  it('refusals name nothing hidden and answer a real and a made-up hidden ability alike', () => {
    const { t, dwarf, merchant } = hiddenEncounter();
    const refusal = (raw: TableCommandInput) => {
      const before = JSON.stringify(t.state);
      const parsed = personaeTable.parseCommand(raw);
      if (!parsed.ok) throw new Error(parsed.error.message);
      let caught: { code: string; message: string } | null = null;
      try {
        personaeTable.decide(t.state, parsed.command, { actor: ann, dice: seededDice(1), now: '2026-11-25T20:00:00.000Z' });
      } catch (e) {
        caught = e as { code: string; message: string };
      }
      expect(JSON.stringify(t.state)).toBe(before);
      return caught!;
    };
    const real = refusal({ type: 'encounter', command: { type: 'attack', actor: dwarf, target: merchant, reactorAbilities: ['Misdirection'] } });
    const madeUp = refusal({ type: 'encounter', command: { type: 'attack', actor: dwarf, target: merchant, reactorAbilities: ['Made Up Trick'] } });
    expect(real.code).toBe('not-your-choice');
    expect(madeUp.code).toBe(real.code);
    expect(refusal({ type: 'encounter', command: { type: 'attack', actor: dwarf, target: merchant, defenseSkill: 'Cutlass' } }).code).toBe('not-your-choice');
    // The merchant's hidden parry cannot meet a warhammer: the rule's refusal would name her weapon.
    expect(t.state.encounter.now!.combat!.turn.actor).toBe(dwarf);
    const parried = refusal({ type: 'encounter', command: { type: 'attack', actor: dwarf, target: merchant } });
    expect(parried.code).toBe('refused');
    for (const s of SECRETS) expect(parried.message).not.toContain(s);
  });

  it('a command naming a hidden character or hazard out of the scene is answered as one naming no one', () => {
    const t = recorded();
    t.run(ann, { type: 'add-character', sheet: sheet('dwarf-iron-constitution.yaml') });
    t.run(gm, { type: 'add-character', sheet: sheet('merchant-privateer-scoundrel.yaml'), hidden: true });
    t.run(gm, { type: 'encounter', hidden: true, command: { type: 'join', actor: 'gm', character: { id: 'rockfall', name: 'Rockfall', skills: [{ name: 'Falling Rocks', dice: 4, attribute: 'stature' }], obstacle: { kind: 'hazard', hidden: true } } } });
    const [dwarf, merchant] = Object.keys(t.state.characters) as [string, string];
    for (const id of [merchant, 'rockfall']) t.run(gm, { type: 'encounter', hidden: true, command: { type: 'leave', actor: 'gm', id } });
    const commands = (id: string): TableCommandInput[] => [
      { type: 'encounter', command: { type: 'attack', actor: dwarf, target: id } },
      { type: 'encounter', command: { type: 'stabilize', actor: dwarf, target: id } },
      { type: 'encounter', command: { type: 'recover', actor: dwarf, target: id } },
      { type: 'encounter', command: { type: 'assist', actor: dwarf, primary: id } },
      { type: 'encounter', command: { type: 'give-criticals', actor: dwarf, to: id, count: 1 } },
      { type: 'encounter', command: { type: 'escalate', actor: id, to: 'violent' } },
      { type: 'roll', character: id, actor: { name: 'Brogan', dice: 2 }, difficulty: 3 },
      { type: 'purchase', id, item: 'Rope', cost: 0 },
    ];
    const answer = (raw: TableCommandInput, id: string, pools: EnteredPools = {}) => {
      const parsed = personaeTable.parseCommand(raw);
      if (!parsed.ok) throw new Error(parsed.error.message);
      try {
        personaeTable.decide(t.state, parsed.command, { actor: ann, dice: poolDice(pools, seededDice(1)), now: '2026-11-25T20:00:00.000Z', settings: { physicalDice: true } });
        return 'applied';
      } catch (e) {
        const { code, field, message } = e as { code: string; field?: string; message: string };
        return JSON.stringify({ code, field: field?.replaceAll(id, 'ID'), message: message.replaceAll(id, 'ID') });
      }
    };
    for (const hidden of [merchant, 'rockfall']) {
      const made = commands('nobody').map((raw) => answer(raw, 'nobody'));
      expect(commands(hidden).map((raw) => answer(raw, hidden)), hidden).toEqual(made);
      expect(made[0]).toContain('unknown-character');
      // Dice typed in for its answer: refused as the GM's, not by its name.
      const dice = (id: string) => answer(commands(id)[0]!, id, { [`target:${id}`]: [5, 5] });
      expect(dice(hidden), hidden).toBe(dice('nobody'));
      expect(dice('nobody')).toContain('not-your-dice');
    }
  });

  it('property: any command a player or observer sends is applied or refused with a RuleError; a refusal changes nothing and names nothing hidden', () => {
    const { t, dwarf, merchant } = hiddenEncounter();
    const id = fc.constantFrom(dwarf, merchant, 'constructor', '__proto__', 'toString', 'gm', 'nobody');
    const words = fc.constantFrom('Cutlass', 'Misdirection', 'Made Up', 'Warhammer', 'Dodge', 'Brutal Cutlass Strike');
    const dice = fc.array(fc.integer({ min: 1, max: 10 }), { minLength: 1, maxLength: 6 });
    const inner = fc.oneof(
      fc.record({ type: fc.constant('attack'), actor: id, target: id, skill: fc.option(words, { nil: undefined }), reactorAbilities: fc.option(fc.array(words, { maxLength: 2 }), { nil: undefined }), dice: fc.option(fc.record({ actor: fc.option(dice, { nil: undefined }), reactor: fc.option(dice, { nil: undefined }) }), { nil: undefined }) }),
      fc.record({ type: fc.constant('defend'), actor: id, kind: fc.constantFrom('parry', 'block', 'power'), skill: fc.option(words, { nil: undefined }) }),
      fc.record({ type: fc.constantFrom('end-turn', 'undo', 'redo', 'begin-scene'), actor: id }),
      fc.record({ type: fc.constant('stabilize'), actor: id, target: id }),
    );
    const command = fc.oneof(
      fc.record({ type: fc.constant('encounter'), command: inner, hidden: fc.boolean(), seen: fc.option(fc.nat(200), { nil: undefined }) }),
      fc.record({ type: fc.constantFrom('set-owner', 'set-visibility', 'remove-character'), id }).map((c) => (c.type === 'set-owner' ? { ...c, owner: null } : c.type === 'set-visibility' ? { ...c, hidden: false } : c)),
      fc.record({ type: fc.constant('advance'), id, command: fc.constantFrom({ type: 'award', points: 5 }, { type: 'undo' }, { type: 'spend', purchase: { kind: 'hit' } }) }),
    );
    fc.assert(
      fc.property(command, fc.constantFrom(ann, watcher), fc.boolean(), (raw, viewer, physicalDice) => {
        const parsed = personaeTable.parseCommand(raw);
        if (!parsed.ok) return;
        const before = JSON.stringify(t.state);
        try {
          const events = personaeTable.decide(t.state, parsed.command, { actor: viewer, dice: seededDice(9), now: '2026-11-25T20:00:00.000Z', settings: { physicalDice } });
          let state = t.state;
          for (const e of events) {
            state = personaeTable.evolve(state, JSON.parse(JSON.stringify(e)) as TableEvent);
            const seen = JSON.stringify(personaeTable.redactEvent(e, ann, state)) + JSON.stringify(personaeTable.redactEvent(e, watcher, state));
            for (const secret of SECRETS) expect(seen).not.toContain(secret);
          }
        } catch (e) {
          expect(e).toBeInstanceOf(Error);
          expect(typeof (e as { code?: unknown }).code).toBe('string');
          for (const secret of SECRETS) expect((e as Error).message).not.toContain(secret);
        }
        expect(JSON.stringify(t.state)).toBe(before);
      }),
      { numRuns: 300, seed: 20261125 },
    );
  });
});


describe("a new character's id tells a player nothing of hidden ones", () => {
  const bob: Viewer = { role: 'player', participantId: 'p-bob' };
  const named = (file: string, name: string) => ({ ...sheet(file), name });
  const idsOf = (t: Recorded) => Object.values(t.state.characters).map((c) => [c.id, c.owner]);

  /** The GM's hidden character named `name`, taken out of the scene, then the player adds Brogan Ironhand. */
  function afterHiddenOne(name: string) {
    const t = new Recorded([gm, ann, watcher], seededDice(3));
    t.run(gm, { type: 'add-character', sheet: named('merchant-privateer-scoundrel.yaml', name), hidden: true });
    const hidden = Object.keys(t.state.characters)[0]!;
    t.run(gm, { type: 'encounter', command: { type: 'leave', actor: 'gm', id: hidden } });
    // A hidden obstacle of the same name besides, which exists only in the encounter.
    t.run(gm, { type: 'encounter', hidden: true, command: { type: 'join', actor: 'gm', character: { id: 'brogan-ironhand-2', name, skills: [{ name: 'Falling Rocks', dice: 4, attribute: 'stature' }], obstacle: { kind: 'hazard', hidden: true } } } });
    const from = new Map([ann, watcher].map((v) => [v, t.seen.get(v)!.length]));
    t.run(ann, { type: 'add-character', sheet: sheet('dwarf-iron-constitution.yaml') });
    const received = (v: Viewer) => t.seen.get(v)!.slice(from.get(v)).join('\n');
    return { t, hidden, ann: received(ann), watcher: received(watcher) };
  }

  it('a player adding a character named as a hidden one out of the scene gets the same id and frames as when none is', () => {
    const clash = afterHiddenOne('Brogan Ironhand');
    const free = afterHiddenOne('Someone Else');
    expect(clash.hidden).toBe('brogan-ironhand');
    expect(clash.t.state.characters['p-ann:brogan-ironhand']?.owner).toBe('p-ann');
    expect(clash.ann).toContain('p-ann:brogan-ironhand');
    // The views carry the hidden characters' names, which the seats saw while they were in the scene;
    // with those put alike, every frame is the same.
    const alike = (frames: string) => frames.replaceAll('Someone Else', 'Brogan Ironhand').replaceAll('"someone-else"', '"brogan-ironhand"');
    expect(free.ann).toContain('Someone Else');
    expect(clash.ann).toBe(alike(free.ann));
    expect(clash.watcher).toBe(alike(free.watcher));
  });

  it("only the player's own earlier characters count: the same name again gets a number, another seat's does not", () => {
    const t = new Recorded([gm, ann], seededDice(3));
    t.run(gm, { type: 'add-character', sheet: sheet('dwarf-iron-constitution.yaml'), hidden: true });
    t.run(ann, { type: 'add-character', sheet: sheet('dwarf-iron-constitution.yaml') });
    t.run(ann, { type: 'add-character', sheet: sheet('dwarf-iron-constitution.yaml') });
    t.run(bob, { type: 'add-character', sheet: sheet('dwarf-iron-constitution.yaml') });
    // A name written like another seat's id gives an id in the player's own space.
    t.run(ann, { type: 'add-character', sheet: named('dwarf-iron-constitution.yaml', 'p-bob:brogan-ironhand') });
    expect(idsOf(t)).toEqual([
      ['brogan-ironhand', null],
      ['p-ann:brogan-ironhand', 'p-ann'],
      ['p-ann:brogan-ironhand-2', 'p-ann'],
      ['p-bob:brogan-ironhand', 'p-bob'],
      ['p-ann:p-bob-brogan-ironhand', 'p-ann'],
    ]);
    // A removed character keeps its id in the encounter: whether the GM removed it or hid it, the next is "-3".
    t.run(gm, { type: 'remove-character', id: 'p-ann:brogan-ironhand-2' });
    t.run(ann, { type: 'add-character', sheet: sheet('dwarf-iron-constitution.yaml') });
    expect(t.state.characters['p-ann:brogan-ironhand-3']?.owner).toBe('p-ann');
  });

  it("the GM cannot bring a character into the encounter under an id in a seat's space", () => {
    const t = new Recorded([gm, ann], seededDice(3));
    t.run(ann, { type: 'add-character', sheet: sheet('dwarf-iron-constitution.yaml') });
    const before = JSON.stringify(t.state);
    const hazard = (id: string) => ({ type: 'encounter' as const, hidden: true, command: { type: 'join' as const, actor: 'gm', character: { id, name: 'Trap', skills: [{ name: 'Spikes', dice: 3, attribute: 'stature' as const }], obstacle: { kind: 'hazard' as const, hidden: true } } } });
    for (const id of ['p-ann:brogan-ironhand-2', 'p-bob:trap']) {
      expect(() => t.run(gm, hazard(id)), id).toThrow(expect.objectContaining({ code: 'bad-id', field: 'command.character.id' }));
      expect(JSON.stringify(t.state)).toBe(before);
    }
    t.run(gm, hazard('trap'));
    expect(t.state.encounter.now!.characters.trap?.present).toBe(true);
  });

  it('an id is never "gm", nor a prototype key taken as held, and fits the commands that name it', () => {
    const t = new Recorded([gm, ann], seededDice(3));
    t.run(gm, { type: 'add-character', sheet: named('merchant-privateer-scoundrel.yaml', 'GM') });
    t.run(gm, { type: 'add-character', sheet: named('merchant-privateer-scoundrel.yaml', 'Constructor') });
    t.run(ann, { type: 'add-character', sheet: named('dwarf-iron-constitution.yaml', `Brogan ${'Ironhand '.repeat(10)}`.trim()) });
    const [gmNamed, constructor, long] = Object.keys(t.state.characters) as [string, string, string];
    expect([gmNamed, constructor]).toEqual(['gm-2', 'constructor']);
    expect(long).toMatch(/^p-ann:brogan-ironhand-ironhand-[a-z-]*[a-z]$/);
    expect(long.length).toBeLessThanOrEqual('p-ann:'.length + 40);
    t.run(ann, { type: 'purchase', id: long, item: 'Rope', cost: 0 });
  });
});

describe('a hidden character added out of the scene', () => {
  /** Ann's dwarf in the scene; the GM's hidden merchant added in the scene or out of it. */
  function table(outOfScene: boolean) {
    const t = recorded();
    t.run(ann, { type: 'add-character', sheet: sheet('dwarf-iron-constitution.yaml') });
    t.run(gm, { type: 'add-character', sheet: sheet('merchant-privateer-scoundrel.yaml'), hidden: true, outOfScene });
    const [dwarf, merchant] = Object.keys(t.state.characters) as [string, string];
    return { t, dwarf, merchant };
  }
  const NAME = 'Marisol';

  it('added in the scene (the default), players see it by name at once', () => {
    const { t, merchant } = table(false);
    expect(t.wire(ann)).toContain(NAME);
    expect(personaeTable.viewState(t.state, ann).characters.map((c) => c.id)).toContain(merchant);
  });

  it('out of the scene, no frame a player or observer receives carries its id or name, while the GM has it whole', () => {
    const { t, merchant } = table(true);
    expect(t.state.encounter.now?.characters[merchant]).toBeUndefined();
    expect(t.wire(gm)).toContain(NAME);
    for (const viewer of [ann, watcher]) {
      expect(t.wire(viewer), viewer.role).not.toContain(NAME);
      expect(t.wire(viewer), viewer.role).not.toContain(merchant);
    }
    expect(personaeTable.viewState(t.state, gm).characters.find((c) => c.id === merchant)).toMatchObject({ hidden: true });
  });

  it('a player naming it is answered as naming no one', () => {
    const { t, dwarf, merchant } = table(true);
    const answer = (id: string) => {
      try {
        t.run(ann, { type: 'encounter', command: { type: 'attack', actor: dwarf, target: id } });
        return 'applied';
      } catch (e) {
        return (e as Error).message.replaceAll(id, 'ID');
      }
    };
    expect(answer(merchant)).toBe(answer('nobody'));
  });

  it('the GM brings it in with enter-scene: from then on players see it by name in the scene', () => {
    const { t, merchant } = table(true);
    const from = t.seen.get(ann)!.length;
    t.run(gm, { type: 'enter-scene', id: merchant });
    expect(t.state.encounter.now?.characters[merchant]?.present).toBe(true);
    const after = t.seen.get(ann)!.slice(from).join('\n');
    expect(after).toContain(NAME);
    expect(personaeTable.viewState(t.state, ann).characters.find((c) => c.id === merchant)).toMatchObject({ name: expect.stringContaining(NAME) });
    // its sheet stays hidden
    for (const s of SECRETS) expect(t.wire(ann)).not.toContain(s);
  });

  it('only the GM adds out of the scene or brings a character in; a character in the scene cannot enter again; refusals change nothing', () => {
    const { t, dwarf, merchant } = table(true);
    const before = JSON.stringify(t.state);
    const refused = (viewer: Viewer, raw: TableCommandInput) => {
      try {
        t.run(viewer, raw);
        return 'applied';
      } catch (e) {
        return (e as { code: string }).code;
      }
    };
    expect(refused(ann, { type: 'add-character', sheet: sheet('dwarf-iron-constitution.yaml'), outOfScene: true })).toBe('gm-only');
    expect(refused(ann, { type: 'enter-scene', id: merchant })).toBe('gm-only');
    expect(refused(gm, { type: 'enter-scene', id: dwarf })).toBe('already-present');
    expect(refused(gm, { type: 'enter-scene', id: 'nobody' })).toBe('unknown-character');
    expect(JSON.stringify(t.state)).toBe(before);
  });

  it('added out of the scene before any encounter, it sets the encounter up when it enters', () => {
    const t = recorded();
    t.run(gm, { type: 'add-character', sheet: sheet('merchant-privateer-scoundrel.yaml'), hidden: true, outOfScene: true });
    const merchant = Object.keys(t.state.characters)[0]!;
    expect(t.state.encounter.now).toBeNull();
    t.run(gm, { type: 'enter-scene', id: merchant });
    expect(t.state.encounter.now?.characters[merchant]?.present).toBe(true);
  });
});

describe('a roll of the roller in the open with a side named after a hidden character', () => {
  it.each(['outcome', 'dice'] as const)('shows that side as option hiddenSideShown = %s says, and nothing of its sheet', (shown) => {
    const t = recorded();
    t.run(gm, { type: 'configure', preset: 'core-2011', options: { hiddenSideShown: shown } });
    t.run(ann, { type: 'add-character', sheet: sheet('dwarf-iron-constitution.yaml') });
    t.run(gm, { type: 'add-character', sheet: sheet('merchant-privateer-scoundrel.yaml'), hidden: true });
    const gull = Object.values(t.state.characters).find((c) => c.hidden)!.sheet.name;
    const [rolled] = t.run(gm, { type: 'roll', actor: { name: gull, dice: 5, modifiers: [{ value: 2, source: 'Cutlass (stature)' }] }, reactor: { name: 'Brogan Ironhand', dice: 3, modifiers: [] } }) as [Extract<TableEvent, { type: 'rolled' }>];
    for (const v of [ann, watcher]) {
      expect(t.wire(v)).not.toContain('Cutlass');
      const entry = personaeTable.viewState(t.state, v).log.at(-1)!;
      expect(entry.result!.outcome).toBe(rolled.result.outcome);
      expect(entry.result!.actor).toMatchObject({ name: gull, dice: shown === 'dice' ? rolled.result.actor.dice : [] });
      expect(entry.result!.reactor).toEqual(rolled.result.reactor);
    }
    expect(t.wire(gm)).toContain('Cutlass');
  });
});
