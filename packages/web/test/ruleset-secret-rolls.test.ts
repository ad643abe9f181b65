import { describe, expect, it } from 'vitest';
import { commitmentOpening, poolDice, type Actor, type SecretRollsView } from '@personae/core';
import { d100DiceOf, d100Ruleset, type EncounterEvent } from '@personae/d100';
import { seededDice } from '@personae/dice';
import { secretRoller, secretVerdicts } from '../src/rulesets/secret';

const GM: Actor = { role: 'gm', participantId: 'gm' };
const ANN: Actor = { role: 'player', participantId: 'ann' };
const scores = { melee: 50, ballistic: 40, magic: 40, strength: 30, toughness: 40, agility: 30, intelligence: 30, perception: 40, willpower: 30, fellowship: 30 };

/** A player's list of commitments and reveals at a d100 table: two secret tests, the first revealed. */
function playerLog(): SecretRollsView<EncounterEvent>['secretRolls']['log'] {
  const d = d100Ruleset.table!({});
  let s = d.initialState();
  const dice = seededDice(4);
  const run = (raw: unknown) => {
    const p = d.parseCommand(raw);
    if (!p.ok) throw new Error(p.error.message);
    const out = d.decide(s, p.command, { actor: GM, dice: poolDice({}, dice), now: '2026-11-26T20:00:00.000Z' });
    for (const e of out) s = d.evolve(s, e);
    return out as any[];
  };
  run({ type: 'add-character', id: 'stalker', sheet: { name: 'Stalker', kind: 'shadow', side: 'shadows', hidden: true, scores, weapons: [] } });
  const [, first] = run({ type: 'test', who: 'stalker', score: 'perception', label: 'Listen' });
  run({ type: 'test', who: 'stalker', score: 'agility', label: 'Sneak' });
  run({ type: 'reveal-roll', hash: first.hash });
  return JSON.parse(JSON.stringify((d.viewState(s, ANN) as SecretRollsView<EncounterEvent>).secretRolls.log));
}

describe('the web marks of secret rolls at a ruleset table', () => {
  it('marks a reveal verified against the commitment before it, and the roll still sealed as waiting', () => {
    const log = playerLog();
    const v = secretVerdicts(log, d100DiceOf);
    const [c1, c2, r] = log;
    expect(v.get(c1!.seq)).toEqual({ kind: 'revealed' });
    expect(v.get(c2!.seq)).toEqual({ kind: 'sealed' });
    expect(v.get(r!.seq)).toEqual({ kind: 'verified', committedAt: c1!.seq });
  });

  it('marks a reveal whose roll or dice were changed on the way NOT verified, with the reason', () => {
    const log = playerLog() as any[];
    log[2].rolls[0].shown.data.roll = (log[2].rolls[0].shown.data.roll % 100) + 1;
    expect(secretVerdicts(log, d100DiceOf).get(log[2].seq)).toMatchObject({ kind: 'not-verified', message: expect.stringMatching(/the result shows the dice/) });
    const other = playerLog() as any[];
    other[2].dice[0] = other[2].dice[0] + 1;
    expect(secretVerdicts(other, d100DiceOf).get(other[2].seq)).toMatchObject({ kind: 'not-verified', message: expect.stringMatching(/hash to/) });
    const orphan = playerLog().slice(2);
    expect(secretVerdicts(orphan, d100DiceOf).get(orphan[0]!.seq)).toMatchObject({ kind: 'not-verified', message: expect.stringMatching(/not in this list/) });
  });

  it('says who rolled as the commitment knows it: the GM, the table on a player\'s command, or the table', () => {
    const participants = [
      { id: 'gm', role: 'gm' as const, displayName: 'Gail' },
      { id: 'ann', role: 'player' as const, displayName: 'Ann' },
    ];
    const [first] = playerLog();
    expect(first).toMatchObject({ kind: 'committed', by: 'gm' });
    const line = (by: string | undefined) => commitmentOpening(secretRoller(participants, by), 'gm');
    expect(line(first!.kind === 'committed' ? first!.by : undefined)).toBe('The GM rolls in secret; the GM reveals it later');
    expect(line('ann')).toBe("On Ann's command, the table rolls in secret; the GM reveals it later");
    // A commitment that names no one, or someone who left the table.
    expect(line(undefined)).toBe('The table rolls in secret; the GM reveals it later');
    expect(line('gone')).toBe('The table rolls in secret; the GM reveals it later');
  });
});
