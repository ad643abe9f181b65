import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitRoll } from '@personae/core';
import { seededDice } from '@personae/dice';
import { personaeTable, type TableCommandInput, type TableState, type Viewer } from '@personae/rules';
import { cli, cliJson } from './helpers';

/** A table's log as a player exports it: two secret rolls, one revealed. */
function playerExport(): { events: { seq: number; event: any }[] } {
  const gm: Viewer = { role: 'gm', participantId: 'p-gm' };
  const ann: Viewer = { role: 'player', participantId: 'p-ann' };
  let state: TableState = personaeTable.initialState();
  const events: { seq: number; event: any }[] = [];
  const dice = seededDice(3);
  const run = (raw: TableCommandInput) => {
    const parsed = personaeTable.parseCommand(raw);
    if (!parsed.ok) throw new Error(parsed.error.message);
    for (const e of personaeTable.decide(state, parsed.command, { actor: gm, dice, now: '2026-11-25T20:00:00.000Z' })) {
      state = personaeTable.evolve(state, e);
      events.push({ seq: state.seq, event: JSON.parse(JSON.stringify(personaeTable.redactEvent(e, ann, state))) });
    }
  };
  const roll = { type: 'roll', hidden: true, actor: { name: 'Ambush', dice: 4 }, reactor: { name: 'Guard', dice: 3 } } as TableCommandInput;
  run(roll);
  run(roll);
  run({ type: 'reveal', hash: events[1]!.event.hash });
  return { events };
}

function writeLog(data: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'personae-verify-')), 'table.json');
  writeFileSync(file, JSON.stringify(data));
  return file;
}

describe('personae verify', () => {
  const salt = '00112233445566778899aabbccddeeff';
  const { hash } = commitRoll({ dice: [7, 3, 10, 1], salt });

  it('verifies a revealed roll against its commitment', async () => {
    const r = await cli('verify', '--commitment', hash, '--dice', '7,3,10,1', '--salt', salt);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('verified: the dice 7, 3, 10, 1 are the ones committed to\n');
    expect(await cliJson('verify', '--commitment', hash, '--dice', '7,3,10,1', '--salt', salt, '--json')).toEqual({ verified: true, dice: [7, 3, 10, 1] });
  });

  it('refuses a tampered roll with exit code 1', async () => {
    const r = await cli('verify', '--commitment', hash, '--dice', '7,3,10,2', '--salt', salt, '--json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ verified: false, dice: [7, 3, 10, 2] });
  });

  it('names the bad input with exit code 2', async () => {
    const bad = await cli('verify', '--commitment', 'abc', '--dice', '7', '--salt', salt);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--commitment: "abc" is not a SHA-256 hash');
    const die = await cli('verify', '--commitment', hash, '--dice', '7,x', '--salt', salt);
    expect(die.code).toBe(2);
    expect(die.stderr).toContain('--dice: "x" is not a die result');
    const s = await cli('verify', '--commitment', hash, '--dice', '7', '--salt', 'zz');
    expect(s.code).toBe(2);
    expect(s.stderr).toContain('salt');
  });

  it('checks every revealed secret roll of an exported log, and lists those not yet revealed', async () => {
    const data = playerExport();
    const r = await cli('verify', '--log', writeLog(data));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^entry #5: verified against the commitment of entry #2 \([0-9a-f]{16}\.\.\.\)$/m);
    expect(r.stdout).toMatch(/^entry #4: commitment [0-9a-f]{16}\.\.\. not revealed yet$/m);
    expect(r.stdout).toContain('1 revealed secret roll, all verified');
    const json = await cliJson('verify', '--log', writeLog(data), '--json');
    expect(json).toMatchObject({ verified: true, reveals: [{ seq: 5, committedAt: 2, verified: true }], unrevealed: [{ seq: 4 }] });
  });

  it('fails with exit code 1 on a log whose revealed roll was tampered with', async () => {
    const data = playerExport();
    const revealed = data.events.find((e) => e.event?.type === 'revealed')!.event;
    revealed.dice[0] = (revealed.dice[0] % 10) + 1;
    const r = await cli('verify', '--log', writeLog(data));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('entry #5: NOT verified');
    const shown = playerExport();
    const other = shown.events.find((e) => e.event?.type === 'revealed')!.event;
    other.result.actor.dice[0] = (other.result.actor.dice[0] % 10) + 1;
    const r2 = await cli('verify', '--log', writeLog(shown), '--json');
    expect(r2.code).toBe(1);
    expect(JSON.parse(r2.stdout).reveals[0].reason).toMatch(/the result shows the dice/);
  });

  it('names a log it cannot read with exit code 2', async () => {
    const missing = await cli('verify', '--log', '/nonexistent/table.json');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--log: cannot read /nonexistent/table.json');
    const notLog = await cli('verify', '--log', writeLog({ hello: 1 }));
    expect(notLog.code).toBe(2);
    expect(notLog.stderr).toContain('not an exported table log');
    const both = await cli('verify', '--log', writeLog({ events: [] }), '--salt', 'ab');
    expect(both.code).toBe(2);
  });
});

