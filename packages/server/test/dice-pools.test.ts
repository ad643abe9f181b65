import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personaeTable } from '@personae/rules';
import { connectAs, createTable, exampleSheet, http, joinTable, relaxedLimits, startServer, type CreatedTable, type Running } from './helpers';

/**
 * Physical dice enter a Personae table by one way only, the envelope's named pools, checked by the
 * server against the pools the command rolls: over HTTP and the WebSocket, a player fills their own
 * pools, never the GM's side, another player's character or a hidden one; the GM fills any; a pool
 * left out is rolled by the server; and a pool that does not fit is refused by name with the table
 * unchanged.
 */
let srv: Running;
let n = 0;

beforeAll(async () => {
  srv = await startServer(personaeTable, { config: relaxedLimits() });
});
afterAll(async () => {
  await srv.close();
});

interface Seated {
  t: CreatedTable;
  ann: string;
  bo: string;
  /** Ann's dwarf, Bo's elf, the GM's hidden merchant. */
  dwarf: string;
  elf: string;
  merchant: string;
}

async function send(t: CreatedTable, token: string, command: unknown, dice?: Record<string, number[]>) {
  const res = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, { token, body: { commandId: `c${++n}`, command, ...(dice ? { dice } : {}) } });
  return { status: res.status, body: res.body };
}

async function gmState(t: CreatedTable) {
  return (await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body as { version: number; state: any };
}

async function seat(physicalDice = true): Promise<Seated> {
  const t = await createTable(srv.url, { name: 'Dice table', settings: { physicalDice } });
  const ann = (await joinTable(srv.url, t.tableId, t.invite.token, 'Ann')).token;
  const bo = (await joinTable(srv.url, t.tableId, t.invite.token, 'Bo')).token;
  expect((await send(t, ann, { type: 'add-character', sheet: exampleSheet('dwarf-iron-constitution.yaml') })).status).toBe(200);
  expect((await send(t, bo, { type: 'add-character', sheet: exampleSheet('desert-elf-singing-warrior.yaml') })).status).toBe(200);
  expect((await send(t, t.gm.token, { type: 'add-character', sheet: exampleSheet('merchant-privateer-scoundrel.yaml'), hidden: true })).status).toBe(200);
  const ids = (await gmState(t)).state.characters.map((c: { id: string }) => c.id) as string[];
  return { t, ann, bo, dwarf: ids[0]!, elf: ids[1]!, merchant: ids[2]! };
}

/** The newest roll in the GM's log. */
async function lastRoll(t: CreatedTable) {
  const log = (await gmState(t)).state.log as Array<{ result?: { actor: { roll: { source: string; rolled: number[] } }; reactor: { roll: { source: string; rolled: number[] } } } }>;
  return log.filter((e) => e.result).at(-1)!.result!;
}

/** The dwarf's Stonecraft (4 dice) against a Normal difficulty: the GM rolls 3. */
const unopposed = (actor: string) => ({ type: 'encounter', command: { type: 'unopposed', actor, skill: 'Stonecraft', difficulty: 'normal' } });

describe('named dice pools at a Personae table, over HTTP', () => {
  let s: Seated;
  beforeAll(async () => {
    s = await seat();
  });

  it("a player fills their own character's pool and the server rolls the GM's: a mixed roll", async () => {
    const res = await send(s.t, s.ann, unopposed(s.dwarf), { actor: [9, 8, 7, 6] });
    expect(res.status).toBe(200);
    const roll = await lastRoll(s.t);
    expect(roll.actor.roll).toMatchObject({ source: 'given', rolled: [9, 8, 7, 6] });
    expect(roll.reactor.roll.source).toBe('crypto');
    expect(roll.reactor.roll.rolled).toHaveLength(3);
  });

  it("a player fills their own free roll's pool; the reactor's is the server's", async () => {
    const res = await send(s.t, s.ann, { type: 'roll', actor: { name: 'Ann', dice: 2 }, reactor: { name: 'Wall', dice: 2 } }, { actor: [10, 3] });
    expect(res.status).toBe(200);
    const roll = await lastRoll(s.t);
    expect(roll.actor.roll).toMatchObject({ source: 'given', rolled: [10, 3] });
    expect(roll.reactor.roll.source).toBe('crypto');
  });

  it("a player never fills the GM's side, another player's character or a hidden character's pool; the table stays as it was", async () => {
    const attackOn = (target: string) => ({ type: 'encounter', command: { type: 'attack', actor: s.dwarf, target } });
    const cases: Array<[string, unknown, Record<string, number[]>]> = [
      ["the GM's difficulty dice", unopposed(s.dwarf), { difficulty: [1, 1, 1] }],
      ["the free roll's reactor", { type: 'roll', actor: { name: 'Ann', dice: 1 }, reactor: { name: 'Wall', dice: 1 } }, { reactor: [1] }],
      ["Bo's character's answer", attackOn(s.elf), { [`target:${s.elf}`]: [1, 1] }],
      ['the hidden merchant\'s answer', attackOn(s.merchant), { [`target:${s.merchant}`]: [1, 1] }],
      ['rerolls, which are both sides\'', attackOn(s.elf), { rerolls: [1] }],
    ];
    for (const [what, command, dice] of cases) {
      const before = (await gmState(s.t)).version;
      const res = await send(s.t, s.ann, command, dice);
      expect(res.status, what).toBe(422);
      expect(res.body.code, what).toBe('not-your-dice');
      expect(res.body.field, what).toBe(`dice.${Object.keys(dice)[0]}`);
      expect(res.body.message, what).not.toMatch(/Marisol|Gull|Vance/);
      expect((await gmState(s.t)).version, what).toBe(before);
    }
  });

  it('the GM fills any pool the command rolls: the whole roll entered', async () => {
    const res = await send(s.t, s.t.gm.token, unopposed(s.dwarf), { actor: [2, 2, 1, 1], difficulty: [10, 9, 8] });
    expect(res.status).toBe(200);
    const roll = await lastRoll(s.t);
    expect(roll.actor.roll).toMatchObject({ source: 'given', rolled: [2, 2, 1, 1] });
    expect(roll.reactor.roll).toMatchObject({ source: 'given', rolled: [10, 9, 8] });
  });

  it('a pool that does not fit the roll is refused by name, value and rule, and changes nothing', async () => {
    const cases: Array<[Record<string, unknown>, number, Record<string, unknown>]> = [
      [{ actor: [9, 8, 7] }, 422, { code: 'dice-count', field: 'dice.actor', rule: { section: 'The Challenge' }, message: expect.stringMatching(/3 dice were entered, but .*takes 4/) }],
      [{ actor: [9, 8, 7, 11] }, 422, { code: 'dice-face', field: 'dice.actor', message: expect.stringMatching(/die #4 is 11, but a d10 shows 1 to 10/) }],
      [{ reactor: [5] }, 422, { code: 'dice-pool', field: 'dice.reactor', message: expect.stringMatching(/rolls no pool "reactor"/) }],
      [{ 'not a pool': [5] }, 400, { code: 'invalid_message' }],
      [{ actor: [] }, 400, { code: 'invalid_message' }],
      [{ actor: [0] }, 400, { code: 'invalid_message', field: 'dice.actor.0' }],
    ];
    for (const [dice, status, body] of cases) {
      const before = (await gmState(s.t)).version;
      const res = await send(s.t, s.t.gm.token, unopposed(s.dwarf), dice as Record<string, number[]>);
      expect(res.status, JSON.stringify(dice)).toBe(status);
      expect(res.body, JSON.stringify(dice)).toMatchObject(body);
      expect((await gmState(s.t)).version).toBe(before);
    }
  });
});

describe('named dice pools over the WebSocket', () => {
  it("takes a player's own pool and refuses the GM's, and refuses a player's dice where the table takes none", async () => {
    const s = await seat();
    const { client } = await connectAs(srv.wsUrl, s.t.tableId, s.ann);
    try {
      expect(await client.command('w1', unopposed(s.dwarf), { dice: { actor: [5, 5, 5, 5] } })).toMatchObject({ type: 'ack' });
      expect((await lastRoll(s.t)).actor.roll.rolled).toEqual([5, 5, 5, 5]);
      const before = (await gmState(s.t)).version;
      expect(await client.command('w2', unopposed(s.dwarf), { dice: { difficulty: [1, 1, 1] } })).toMatchObject({ type: 'error', code: 'not-your-dice', field: 'dice.difficulty' });
      expect((await gmState(s.t)).version).toBe(before);
    } finally {
      client.close();
    }

    const off = await seat(false);
    const player = await connectAs(srv.wsUrl, off.t.tableId, off.ann);
    const gm = await connectAs(srv.wsUrl, off.t.tableId, off.t.gm.token);
    try {
      const before = (await gmState(off.t)).version;
      expect(await player.client.command('w1', unopposed(off.dwarf), { dice: { actor: [5, 5, 5, 5] } })).toMatchObject({ type: 'error', code: 'physical-dice-off', field: 'dice.actor' });
      expect((await gmState(off.t)).version).toBe(before);
      // The GM may still type in the table's dice.
      expect(await gm.client.command('w2', unopposed(off.dwarf), { dice: { actor: [5, 5, 5, 5] } })).toMatchObject({ type: 'ack' });
    } finally {
      player.client.close();
      gm.client.close();
    }
  });
});
