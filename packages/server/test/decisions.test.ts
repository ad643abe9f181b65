import { readFileSync } from 'node:fs';
import { rejudgeD100Log } from '@personae/d100';
import { rejudgeLucidityLog } from '@personae/lucidity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createTable, http, joinTable, startServer, type Running } from './helpers';

/**
 * The GM's read-only re-judge of a d100 or Lucidity table's log reads the table's recorded decisions
 * (every event with its dice) from GET /api/tables/:id/decisions. The events hold what players and
 * observers are not shown, so the server answers only the GM; asking changes nothing at the table.
 */
let srv: Running;
beforeAll(async () => {
  srv = await startServer();
});
afterAll(async () => {
  await srv.close();
});

const example = (path: string) => parse(readFileSync(new URL(`../../../examples/${path}`, import.meta.url), 'utf8')) as Record<string, unknown>;
const scores = { melee: 50, ballistic: 40, magic: 40, strength: 30, toughness: 40, agility: 30, intelligence: 30, perception: 20, willpower: 30, fellowship: 30 };
const hero = { name: 'Hero', side: 'pc', scores, weapons: [{ name: 'Sword', class: 'melee', element: 'melee', damage: 5 }] };
const lurker = { name: 'Hidden Lurker', kind: 'shadow', side: 'shadows', hidden: true, arcana: 'Tower', scores, affinities: { ice: 'absorb' }, weapons: [{ name: 'Claws', class: 'melee', element: 'melee', damage: 3 }] };

async function seated(ruleset: string) {
  const t = await createTable(srv.url, { name: `Decisions ${ruleset}`, ruleset });
  const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
  let n = 0;
  const send = async (command: unknown, dice?: Record<string, number[]>) => {
    const res = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, { token: t.gm.token, body: { commandId: `c${++n}`, command, ...(dice ? { dice } : {}) } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res;
  };
  const state = async () => (await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body;
  const decisions = (token: string | undefined) => http(srv.url, 'GET', `/api/tables/${t.tableId}/decisions`, token ? { token } : {});
  return { t, ann, send, state, decisions };
}

/** Everyone but the GM is refused, and learns nothing of the log from the refusal. */
async function refusedToAllButTheGm(s: Awaited<ReturnType<typeof seated>>, secret: RegExp) {
  const other = await createTable(srv.url, { name: 'Elsewhere', ruleset: 'd100' });
  for (const [token, status, code] of [
    [s.ann.token, 403, 'forbidden'],
    [s.t.observer.token, 403, 'forbidden'],
    [undefined, 401, 'unauthorized'],
    [other.gm.token, 401, 'unauthorized'],
    ['not-a-token', 401, 'unauthorized'],
  ] as const) {
    const res = await s.decisions(token);
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(res.text).not.toMatch(secret);
    expect(res.body.events).toBeUndefined();
  }
}

describe("the table's recorded decisions, for the GM's re-judge", () => {
  it('d100: the GM gets every event with its dice, players and observers are refused, and the table does not change', async () => {
    const s = await seated('d100');
    await s.send({ type: 'add-character', id: 'hero', sheet: hero });
    await s.send({ type: 'add-character', id: 'lurker', sheet: lurker });
    await s.send({ type: 'start' });
    // The GM's dice for the attacks (d100-combat-rules.txt "How Attacks Work"): hits to the body, the
    // body and a leg, none critical. With the server's, about one run in 80 failed: after a Critical
    // Hit to the head the next attacker was Confused (doing nothing, attacking itself, or dropping its
    // weapon).
    const rolls = [
      { attack: [30], evasion: [80], location: [50] },
      { attack: [30], evasion: [10], location: [50] },
      { attack: [45], evasion: [95], location: [80] },
    ];
    for (const dice of rolls) {
      const { state } = await s.state();
      const attacker = state.current as string;
      await s.send({ type: 'attack', attacker, defender: attacker === 'hero' ? 'lurker' : 'hero', advantages: [], disadvantages: [] }, dice);
      await s.send({ type: 'end-turn' });
    }
    const before = await s.state();
    await refusedToAllButTheGm(s, /Lurker|attack-resolved|absorb/);
    const res = await s.decisions(s.t.gm.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'decisions', ruleset: 'd100', version: before.version });
    expect(res.body.events.map((e: { seq: number }) => e.seq)).toEqual(Array.from({ length: before.version }, (_, i) => i + 1));
    const attacks = res.body.events.filter((e: { event: { type: string } }) => e.event.type === 'attack-resolved');
    expect(attacks).toHaveLength(3);
    for (const a of attacks) expect(a.event.data.dice.length).toBeGreaterThan(0);
    // Judged under the table's own rules, every attack comes out as recorded.
    const own = rejudgeD100Log(res.body.events, res.body.setup, { preset: 'seed', overrides: {} });
    expect(own).toHaveLength(3);
    expect(own.every((r) => !r.changed)).toBe(true);
    // Nothing changed: the same version and state.
    expect(await s.state()).toEqual(before);
  });

  it('Lucidity: the same, with the attacks judged again from their d20, d6 and damage dice', async () => {
    const s = await seated('lucidity');
    await s.send({ type: 'add', id: 'ana', side: 'party', sheet: example('lucidity/characters/ana-vell.yaml') });
    await s.send({ type: 'add', id: 'lurker', side: 'foe', hidden: true, statBlock: { name: 'Hidden Lurker', health: 40, defense: 12, protection: 1, weapons: [{ name: 'Claws', damage: '1d6' }] } });
    await s.send({ type: 'start' });
    for (let i = 0; i < 2; i++) {
      const { state } = await s.state();
      const actor = state.current as string;
      await s.send({ type: 'attack', actor, target: actor === 'ana' ? 'lurker' : 'ana', buffs: 1 });
      await s.send({ type: 'end-turn' });
    }
    const before = await s.state();
    await refusedToAllButTheGm(s, /Lurker|attacked|Claws/);
    const res = await s.decisions(s.t.gm.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'decisions', ruleset: 'lucidity', version: before.version });
    const own = rejudgeLucidityLog(res.body.events, res.body.setup, { preset: 'standard', overrides: {} });
    expect(own).toHaveLength(2);
    expect(own.every((r) => r.reproduced && !r.changed)).toBe(true);
    expect(await s.state()).toEqual(before);
  });
});
