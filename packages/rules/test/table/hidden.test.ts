import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { seededDice } from '@personae/dice';
import { Recorded } from '../helpers/recorded';
import { sheet } from '../helpers/sheets';
import { personaeTable, tableLog, type TableCommandInput, type TableEvent, type Viewer } from '../../src/index';

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
      expect(e.lines.join('\n')).toMatch(/side of the roll is not shown \(option hiddenSideShown = outcome\)/);
      expect(e.lines.join('\n')).toMatch(/Outcome for /);
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
    const order = view.log.find((e) => e.lines[0]?.startsWith('Action order'))!;
    expect(order.lines.join('\n')).toMatch(/Marisol "Gull" Vance: its roll is not shown/);
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

