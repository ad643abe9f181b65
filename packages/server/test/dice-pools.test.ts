import '@personae/d100';
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

/**
 * A d100 table (d100-combat-rules.txt, "How Attacks Work"): each die of a command is in the pool of
 * whoever rolls it. The attacker's player enters the attack roll (and location) while the server rolls
 * the defender's evasion; the GM enters any pool; a player is never told of a hidden character's pool.
 */
describe('named dice pools at a d100 table', () => {
  let d100: Running;
  beforeAll(async () => {
    d100 = await startServer(undefined, { config: relaxedLimits() });
  });
  afterAll(async () => {
    await d100.close();
  });

  const scores = { melee: 50, ballistic: 40, magic: 40, strength: 30, toughness: 40, agility: 30, intelligence: 30, perception: 20, willpower: 30, fellowship: 30 };
  const sword = [{ name: 'Sword', class: 'melee', element: 'melee', damage: 5 }];
  /** Ann's hero acts first (Agility Bonus 3), then the GM's Shade (2) and the hidden Lurker (1). */
  async function d100Table(physicalDice = true) {
    const t = await createTable(d100.url, { name: 'Dice', ruleset: 'd100', settings: { physicalDice } });
    const ann = await joinTable(d100.url, t.tableId, t.invite.token, 'Ann');
    const post = async (token: string, command: unknown, dice?: Record<string, number[]>) => {
      const res = await http(d100.url, 'POST', `/api/tables/${t.tableId}/commands`, { token, body: { commandId: `d${++n}`, command, ...(dice ? { dice } : {}) } });
      return { status: res.status, body: res.body };
    };
    expect((await post(ann.token, { type: 'add-character', id: 'hero', sheet: { name: 'Hero', side: 'pc', scores, weapons: sword } })).status).toBe(200);
    expect((await post(t.gm.token, { type: 'add-character', id: 'shade', sheet: { name: 'Shade', side: 'shadows', scores: { ...scores, agility: 20 }, weapons: sword } })).status).toBe(200);
    expect((await post(t.gm.token, { type: 'add-character', id: 'lurker', sheet: { name: 'Lurker', side: 'shadows', hidden: true, scores: { ...scores, agility: 10 }, weapons: sword } })).status).toBe(200);
    expect((await post(t.gm.token, { type: 'start' })).status).toBe(200);
    const version = async () => (await http(d100.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.version as number;
    /** The newest attack as the GM's event feed holds it. */
    const lastAttack = async () => {
      const feed = (await http(d100.url, 'GET', `/api/tables/${t.tableId}/events?since=0`, { token: t.gm.token })).body.events as Array<{ event: { type: string; data: { dice: number[]; summary: { roll: number; evasionRoll: number | null } } } | null }>;
      return feed.map((e) => e.event).filter((e) => e?.type === 'attack-resolved').at(-1)!.data;
    };
    return { t, ann, hero: `${ann.participantId}:hero`, post, version, lastAttack };
  }

  it("the attacker's player enters the attack roll and the server rolls the defender's evasion: a mixed roll, over HTTP", async () => {
    const s = await d100Table();
    const res = await s.post(s.ann.token, { type: 'attack', attacker: s.hero, defender: 'shade' }, { attack: [5] });
    expect(res.status).toBe(200);
    const attack = await s.lastAttack();
    expect(attack.dice[0]).toBe(5);
    expect(attack.summary.roll).toBe(5);
    // The Shade could oppose, so the server rolled its evasion.
    expect(attack.summary.evasionRoll).toEqual(attack.dice[1]);
    expect(attack.dice[1]).toBeGreaterThanOrEqual(1);
  });

  it('the GM enters every pool of a player\'s attack, the evasion too', async () => {
    const s = await d100Table();
    expect((await s.post(s.t.gm.token, { type: 'attack', attacker: s.hero, defender: 'shade' }, { attack: [5], evasion: [99] })).status).toBe(200);
    expect((await s.lastAttack()).dice.slice(0, 2)).toEqual([5, 99]);
  });

  it("a player never fills the defender's evasion, the GM's character's turn or a hidden character's pool, and hears only of their own pools", async () => {
    const s = await d100Table();
    const before = await s.version();
    const attack = { type: 'attack', attacker: s.hero, defender: 'shade' };
    const evasion = await s.post(s.ann.token, attack, { attack: [5], evasion: [1] });
    expect(evasion).toMatchObject({ status: 422, body: { code: 'not-your-dice', field: 'dice.evasion' } });
    expect(evasion.body.message).toMatch(/Shade's evasion roll.*you may fill "attack" \(Hero's attack roll\), "location" \(Hero's hit location roll\), "actor"/);
    expect(evasion.body.message).not.toMatch(/lurker/i);
    const shadeTurn = await s.post(s.ann.token, { type: 'end-turn' }, { 'turn:shade': [50] });
    expect(shadeTurn).toMatchObject({ status: 422, body: { code: 'not-your-dice', field: 'dice.turn:shade' } });
    expect(shadeTurn.body.message).not.toMatch(/lurker/i);
    const hidden = await s.post(s.ann.token, { type: 'end-turn' }, { 'turn:lurker': [50] });
    const nobody = await s.post(s.ann.token, { type: 'end-turn' }, { 'turn:nobody': [50] });
    expect(hidden).toMatchObject({ status: 422, body: { code: 'dice-pool', field: 'dice.turn:lurker' } });
    const { commandId: _a, ...hiddenBody } = hidden.body;
    const { commandId: _b, ...nobodyBody } = nobody.body;
    expect(JSON.stringify(nobodyBody).replaceAll('nobody', 'lurker')).toBe(JSON.stringify(hiddenBody));
    expect(hidden.body.message).not.toMatch(/Lurker/);
    // Dice that do not fit the roll: two attack dice for one attack roll, a face a d100 cannot show.
    expect(await s.post(s.ann.token, attack, { attack: [5, 6] })).toMatchObject({ status: 422, body: { code: 'dice-count', field: 'dice.attack' } });
    expect(await s.post(s.ann.token, attack, { attack: [0] })).toMatchObject({ status: 400, body: { code: 'invalid_message' } });
    expect(await s.version()).toBe(before);
  });

  it('over the WebSocket: a player\'s own pool is taken, the defender\'s refused, and none where the table takes no physical dice', async () => {
    const s = await d100Table();
    const { client } = await connectAs(d100.wsUrl, s.t.tableId, s.ann.token);
    try {
      const before = await s.version();
      expect(await client.command('w1', { type: 'attack', attacker: s.hero, defender: 'shade' }, { dice: { evasion: [1] } })).toMatchObject({ type: 'error', code: 'not-your-dice', field: 'dice.evasion' });
      expect(await s.version()).toBe(before);
      expect(await client.command('w2', { type: 'attack', attacker: s.hero, defender: 'shade' }, { dice: { attack: [7] } })).toMatchObject({ type: 'ack' });
      expect((await s.lastAttack()).dice[0]).toBe(7);
    } finally {
      client.close();
    }
    const off = await d100Table(false);
    const player = await connectAs(d100.wsUrl, off.t.tableId, off.ann.token);
    try {
      expect(await player.client.command('w1', { type: 'attack', attacker: off.hero, defender: 'shade' }, { dice: { attack: [7] } })).toMatchObject({ type: 'error', code: 'physical-dice-off', field: 'dice.attack' });
    } finally {
      player.client.close();
    }
  });
});
