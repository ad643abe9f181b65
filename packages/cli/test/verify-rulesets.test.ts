import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { poolDice, type Actor } from '@personae/core';
import { d100Ruleset } from '@personae/d100';
import { seededDice } from '@personae/dice';
import { lucidityRuleset } from '@personae/lucidity';
import { cli, cliJson } from './helpers';

const GM: Actor = { role: 'gm', participantId: 'p-gm' };
const ANN: Actor = { role: 'player', participantId: 'p-ann' };
const scores = { melee: 50, ballistic: 40, magic: 40, strength: 30, toughness: 40, agility: 30, intelligence: 30, perception: 40, willpower: 30, fellowship: 30 };

/** A d100 or Lucidity table's log as a player exports it: the GM's hidden character rolls twice in secret, one roll is revealed. */
function playerExport(ruleset: 'd100' | 'lucidity'): { table: { ruleset: string }; events: { seq: number; event: any }[] } {
  const d = (ruleset === 'd100' ? d100Ruleset : lucidityRuleset).table!({});
  let state = d.initialState();
  const events: { seq: number; event: any }[] = [];
  const dice = seededDice(3);
  const run = (raw: unknown) => {
    const parsed = d.parseCommand(raw);
    if (!parsed.ok) throw new Error(parsed.error.message);
    for (const e of d.decide(state, parsed.command, { actor: GM, dice: poolDice({}, dice), now: '2026-11-26T20:00:00.000Z' })) {
      state = d.evolve(state, e);
      events.push({ seq: state.seq, event: JSON.parse(JSON.stringify(d.redactEvent(e, ANN, state))) });
    }
  };
  if (ruleset === 'd100') {
    run({ type: 'add-character', id: 'stalker', sheet: { name: 'Stalker', kind: 'shadow', side: 'shadows', hidden: true, scores, weapons: [] } });
    run({ type: 'test', who: 'stalker', score: 'perception', label: 'Listen' });
    run({ type: 'test', who: 'stalker', score: 'agility', label: 'Sneak' });
  } else {
    run({ type: 'add', id: 'stalker', side: 'foe', hidden: true, statBlock: { name: 'Stalker', health: 5, attributes: { AWA: 2 } } });
    run({ type: 'roll', actor: 'stalker', attribute: 'AWA', target: 12 });
    run({ type: 'roll', actor: 'stalker', attribute: 'DEX', target: 12 });
  }
  const first = events.find((e) => e.event?.type === 'roll-committed')!;
  run({ type: 'reveal-roll', hash: first.event.hash });
  return { table: { ruleset }, events };
}

function writeLog(data: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'personae-verify-')), 'table.json');
  writeFileSync(file, JSON.stringify(data));
  return file;
}

describe.each(['d100', 'lucidity'] as const)('personae verify --log on a %s table', (ruleset) => {
  it('verifies the revealed secret roll against its commitment, and lists the one not yet revealed', async () => {
    const data = playerExport(ruleset);
    const committed = data.events.filter((e) => e.event?.type === 'roll-committed').map((e) => e.seq);
    const revealed = data.events.find((e) => e.event?.type === 'roll-revealed')!;
    expect(committed).toHaveLength(2);
    const json = await cliJson('verify', '--log', writeLog(data), '--json');
    expect(json).toEqual({ verified: true, reveals: [{ seq: revealed.seq, hash: revealed.event.hash, committedAt: committed[0], verified: true }], unrevealed: [{ seq: committed[1], hash: expect.any(String) }] });
    const r = await cli('verify', '--log', writeLog(data));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`entry #${revealed.seq}: verified against the commitment of entry #${committed[0]}`);
  });

  it('fails with exit code 1 when a die of the roll revealed, or of the dice, was changed', async () => {
    const shown = playerExport(ruleset);
    // A player's export holds the roll revealed as withheld: its dice and outcome.
    const roll = shown.events.find((e) => e.event?.type === 'roll-revealed')!.event.rolls[0].shown;
    if (ruleset === 'd100') roll.data.roll = (roll.data.roll % 100) + 1;
    else roll.data.roll.d20 = (roll.data.roll.d20 % 20) + 1;
    const r = await cli('verify', '--log', writeLog(shown), '--json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).reveals[0]).toMatchObject({ verified: false, reason: expect.stringMatching(/the result shows the dice/) });
    const dice = playerExport(ruleset);
    const ev = dice.events.find((e) => e.event?.type === 'roll-revealed')!.event;
    ev.dice[0] = ev.dice[0] + 1;
    const r2 = await cli('verify', '--log', writeLog(dice));
    expect(r2.code).toBe(1);
    expect(r2.stdout).toMatch(/NOT verified: the dice .* hash to/);
  });

  it('names a ruleset it does not know with exit code 2', async () => {
    const r = await cli('verify', '--log', writeLog({ ...playerExport(ruleset), table: { ruleset: 'gurps' } }));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('table.ruleset "gurps" is not one this program knows');
  });
});
