import { describe, expect, it } from 'vitest';
import { seededDice } from '@personae/dice';
import { Recorded } from '../helpers/recorded';
import { sheet } from '../helpers/sheets';
import { verifyRoll } from '@personae/core';
import { checkReveal, committedDice, entryLines, keyedValues, personaeTable, tableLog, type TableCommandInput, type TableEvent, type Viewer } from '../../src/index';

const gm: Viewer = { role: 'gm', participantId: 'p-gm' };
const ann: Viewer = { role: 'player', participantId: 'p-ann' };
const watcher: Viewer = { role: 'observer', participantId: 'observer' };
const SALT = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';

/** A table driven as the server drives it, recording what each seat receives; every secret roll uses SALT. */
const recorded = () => new Recorded([gm, ann, watcher], seededDice(5), { salt: () => SALT });

const secretRoll: TableCommandInput = {
  type: 'roll',
  hidden: true,
  purpose: 'Does the ambush spot them?',
  actor: { name: 'Ambushers', dice: 4, modifiers: [{ value: 2, source: 'Skulk' }] },
  reactor: { name: 'Caravan', dice: 3, modifiers: [] },
};

describe('provably fair secret rolls', () => {
  it('publishes a commitment to every viewer at once, and the dice and salt only to the GM', () => {
    const t = recorded();
    const events = t.run(gm, secretRoll);
    expect(events.map((e) => e.type)).toEqual(['rolled', 'committed']);
    const rolled = events[0] as Extract<TableEvent, { type: 'rolled' }>;
    const committed = events[1] as Extract<TableEvent, { type: 'committed' }>;
    expect(rolled.seal!.hash).toBe(committed.hash);
    expect(verifyRoll({ hash: committed.hash }, { dice: committedDice(rolled.result), salt: SALT }).ok).toBe(true);

    for (const v of [ann, watcher]) {
      const view = personaeTable.viewState(t.state, v);
      const entry = view.log.find((e) => e.commitment)!;
      expect(entry.commitment!.hash).toBe(committed.hash);
      expect(entry.result).toBeUndefined();
      expect(view.secretRolls.sealed).toEqual([]);
      // Neither the salt, nor the purpose, nor the sides' names reach a player before the reveal.
      for (const secret of [SALT, 'ambush', 'Ambushers', 'Caravan', 'Skulk']) expect(t.wire(v)).not.toContain(secret);
    }
    expect(t.wire(gm)).toContain(SALT);
    expect(personaeTable.viewState(t.state, gm).secretRolls.sealed).toEqual([{ hash: committed.hash, committedAt: 2, purpose: 'Does the ambush spot them?' }]);
  });

  it('reveals on the GM\'s word: the revealed roll verifies against the commitment published before', () => {
    const t = recorded();
    const [rolled, committed] = t.run(gm, secretRoll) as [Extract<TableEvent, { type: 'rolled' }>, Extract<TableEvent, { type: 'committed' }>];
    expect(() => t.run(ann, { type: 'reveal', hash: committed.hash })).toThrow(/only the GM/);
    const [revealed] = t.run(gm, { type: 'reveal', hash: committed.hash }) as [Extract<TableEvent, { type: 'revealed' }>];
    expect(revealed.dice).toEqual(committedDice(rolled.result));
    const view = personaeTable.viewState(t.state, ann);
    const shown = view.log.find((e) => e.reveal)!;
    expect(shown.result!.outcome).toBe(rolled.result.outcome);
    expect(shown.reveal!.committedAt).toBe(view.log.find((e) => e.commitment)!.seq);
    expect(checkReveal(committed.hash, shown.reveal!, shown.result)).toEqual({ ok: true });
    expect(personaeTable.viewState(t.state, gm).secretRolls.sealed).toEqual([]);
    // A roll is revealed once.
    expect(() => t.run(gm, { type: 'reveal', hash: committed.hash })).toThrow(/no unrevealed secret roll/);
  });

  it('a tampered roll does not verify: a changed die, a changed salt, or a result showing other dice', () => {
    const t = recorded();
    const [, committed] = t.run(gm, secretRoll) as [TableEvent, Extract<TableEvent, { type: 'committed' }>];
    t.run(gm, { type: 'reveal' });
    const shown = personaeTable.viewState(t.state, ann).log.find((e) => e.reveal)!;
    const reveal = shown.reveal!;
    const dice = [...reveal.dice];
    dice[0] = dice[0] === 10 ? 9 : dice[0]! + 1;
    expect(checkReveal(committed.hash, { ...reveal, dice }, undefined).ok).toBe(false);
    expect(checkReveal(committed.hash, { ...reveal, salt: SALT.replace('0f', '0e') }, undefined).ok).toBe(false);
    const result = { ...shown.result!, actor: { ...shown.result!.actor, dice: dice.slice(0, shown.result!.actor.dice.length) } };
    const check = checkReveal(committed.hash, reveal, result);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toMatch(/the result shows the dice/);
  });

  it('reveals every sealed roll at the end of the scene when the table says so', () => {
    const t = recorded();
    expect(() => t.run(ann, { type: 'secret-reveal', reveal: 'scene' })).toThrow(/only the GM/);
    t.run(gm, { type: 'secret-reveal', reveal: 'scene' });
    t.run(gm, { type: 'add-character', sheet: sheet('dwarf-iron-constitution.yaml') });
    const first = t.run(gm, secretRoll)[1] as Extract<TableEvent, { type: 'committed' }>;
    const second = t.run(gm, { ...secretRoll, purpose: 'second' } as TableCommandInput)[1] as Extract<TableEvent, { type: 'committed' }>;
    expect(first.reveal).toBe('scene');
    const seqBefore = t.state.seq;
    const events = t.run(gm, { type: 'encounter', command: { type: 'end-scene', actor: 'gm' } });
    const revealed = events.filter((e): e is Extract<TableEvent, { type: 'revealed' }> => e.type === 'revealed');
    expect(revealed.map((e) => e.hash)).toEqual([first.hash, second.hash]);
    expect(revealed.every((e) => e.when === 'scene')).toBe(true);
    const log = personaeTable.viewState(t.state, ann).log.filter((e) => e.seq > seqBefore && e.reveal);
    expect(log).toHaveLength(2);
    for (const e of log) expect(checkReveal(e.reveal!.hash, e.reveal!, e.result)).toEqual({ ok: true });
    expect(tableLog(t.state).at(-1)!.lines[0]).toMatch(/^At the end of the scene, the table reveals the secret roll committed in entry #\d+/);
    // Nothing is left to reveal at the next scene's end.
    expect(t.run(gm, { type: 'encounter', command: { type: 'end-scene', actor: 'gm' } }).some((e) => e.type === 'revealed')).toBe(false);
  });

  it('refuses a reveal that names no sealed roll, and an ill-formed commitment, without changing the table', () => {
    const t = recorded();
    expect(() => t.run(gm, { type: 'reveal' })).toThrow(/no secret roll left/);
    expect(personaeTable.parseCommand({ type: 'reveal', hash: 'abc' })).toMatchObject({ ok: false, error: { field: 'hash' } });
    expect(t.state.seq).toBe(0);
  });

  it('an open roll is not sealed', () => {
    const t = recorded();
    const events = t.run(gm, { ...secretRoll, hidden: false } as TableCommandInput);
    expect(events.map((e) => e.type)).toEqual(['rolled']);
    expect(keyedValues(t.state.sealed)).toEqual([]);
  });

  it("refuses a player's roll or encounter action marked hidden, naming the field, and changes nothing; the same command in the open is made", () => {
    const t = recorded();
    t.run(ann, { type: 'add-character', sheet: sheet('dwarf-iron-constitution.yaml') });
    const [dwarf] = Object.keys(t.state.characters) as [string];
    const escalate: TableCommandInput = { type: 'encounter', hidden: true, command: { type: 'escalate', actor: dwarf, to: 'non-violent' } };
    const before = JSON.stringify(t.state);
    const frames = t.wire(ann).length;
    for (const command of [secretRoll, { ...secretRoll, character: dwarf, actor: { name: 'Brogan Ironhand', dice: 3 } }, escalate] as TableCommandInput[]) {
      expect(() => t.run(ann, command)).toThrow(expect.objectContaining({ code: 'gm-only', field: 'hidden', message: expect.stringMatching(/^hidden: true is refused: only the GM (rolls|acts) in secret/) }));
    }
    expect(JSON.stringify(t.state)).toBe(before);
    expect(t.wire(ann)).toHaveLength(frames);
    expect(t.run(ann, { ...secretRoll, hidden: false } as TableCommandInput).map((e) => e.type)).toEqual(['rolled']);
    expect(t.run(ann, { ...escalate, hidden: false } as TableCommandInput).map((e) => e.type)).toContain('encounter');
    expect(keyedValues(t.state.sealed)).toEqual([]);
  });

  it("a reveal shows the dice and outcome of a hidden character's side, and never its sheet, nor the name of one out of the scene", () => {
    const t = recorded();
    t.run(ann, { type: 'add-character', sheet: sheet('dwarf-iron-constitution.yaml') });
    t.run(gm, { type: 'add-character', sheet: sheet('merchant-privateer-scoundrel.yaml'), hidden: true });
    t.run(gm, { type: 'add-character', sheet: sheet('wounded-sellsword.yaml'), hidden: true, outOfScene: true });
    const [, merchant, sellsword] = Object.keys(t.state.characters) as [string, string, string];
    const gull = t.state.characters[merchant]!.sheet.name;
    const tomas = t.state.characters[sellsword]!.sheet.name;
    const [, first] = t.run(gm, { type: 'roll', hidden: true, character: merchant, actor: { name: gull, dice: 5, modifiers: [{ value: 2, source: 'Cutlass (stature)' }] }, reactor: { name: 'Brogan Ironhand', dice: 3, modifiers: [{ value: 1, source: 'Block' }] } });
    const [, second] = t.run(gm, { type: 'roll', hidden: true, actor: { name: tomas, dice: 4, modifiers: [{ value: 3, source: 'Sailing' }] }, difficulty: 'challenging' });
    const revealed = t.run(gm, { type: 'reveal' }) as Extract<TableEvent, { type: 'revealed' }>[];
    expect(revealed.map((e) => e.hash)).toEqual([first, second].map((e) => (e as Extract<TableEvent, { type: 'committed' }>).hash));

    for (const v of [ann, watcher]) {
      for (const secret of ['Cutlass', 'Sailing', tomas, sellsword]) expect(t.wire(v), `${v.role}: ${secret}`).not.toContain(secret);
      const entries = personaeTable.viewState(t.state, v).log.filter((e) => e.reveal);
      expect(entries).toHaveLength(2);
      for (const [i, e] of entries.entries()) {
        const whole = revealed[i]!.result;
        expect(checkReveal(e.reveal!.hash, e.reveal!, e.result)).toEqual({ ok: true });
        expect(e.result!.outcome).toBe(whole.outcome);
        expect(e.result!.actor).toMatchObject({ dice: whole.actor.dice, modifier: whole.actor.modifier, modifiers: [{ value: whole.actor.modifier, source: 'in total' }] });
      }
      // The merchant is in the scene and seen by name; the dwarf's side is Ann's to see whole.
      expect(entries[0]!.result!.actor.name).toBe(gull);
      expect(entries[0]!.result!.reactor).toEqual(revealed[0]!.result.reactor);
      expect(entries[1]!.characters).not.toContain(tomas);
      expect(entryLines(entries[1]!).join(' ')).toMatch(/^The GM reveals the secret roll committed in entry #\d+: dice [\d, ]+, salt [0-9a-f]+\. /);
    }
    // The GM reads the rolls whole.
    for (const secret of ['Cutlass', 'Sailing', tomas]) expect(personaeTable.viewState(t.state, gm).log.filter((e) => e.reveal).map((e) => entryLines(e).join(' ')).join(' ')).toContain(secret);
  });
});
