import { readFileSync } from 'node:fs';
import '@personae/d100';
import '@personae/lucidity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createTable, http, joinTable, relaxedLimits, startServer, TestClient, type CreatedTable, type Running } from './helpers';

/**
 * The caps on characters (MAX_CHARACTERS, MAX_CHARACTERS_PER_PLAYER) and on a sheet's size are a
 * rule of the table, whatever its ruleset: the Personae table's are in table-authorization.test.ts;
 * here the d100 and Lucidity tables, over HTTP and over the WebSocket. A refusal changes nothing.
 */
const example = (path: string) => parse(readFileSync(new URL(`../../../examples/${path}`, import.meta.url), 'utf8')) as Record<string, unknown>;

let srv: Running;
beforeAll(async () => {
  // Bodies up to 256 KiB, so that the sheet's own bound (64 KiB) is the one that answers.
  srv = await startServer(undefined, { config: { ...relaxedLimits(), maxCharacters: 3, maxCharactersPerPlayer: 1, maxMessageBytes: 256 * 1024 } });
});
afterAll(async () => {
  await srv.close();
});

interface Ruleset {
  id: 'd100' | 'lucidity';
  /** A player's own character, by id. */
  pc(id: string, controller?: string): Record<string, unknown>;
  /** One of the GM's characters. */
  foe(id: string): Record<string, unknown>;
  /** One of the GM's characters, hidden from the players. */
  hiddenFoe(id: string): Record<string, unknown>;
  /** The command that hands a character to a participant, where the ruleset has one. */
  handOver?(id: string, to: string): Record<string, unknown>;
}

const bandit = { name: 'Bandit', attributes: { STR: 1, DEX: 1, AWA: 0 }, defense: 11, protection: 2, health: 9, weapons: [{ name: 'Club', damage: '1d6' }] };
const RULESETS: Ruleset[] = [
  {
    id: 'd100',
    pc: (id, controller) => ({ type: 'add-character', id, sheet: example('d100/evoker-makoto.yaml'), ...(controller ? { controller } : {}) }),
    foe: (id) => ({ type: 'add-character', id, sheet: example('d100/shadow-pixie.yaml') }),
    hiddenFoe: (id) => ({ type: 'add-character', id, sheet: { ...example('d100/shadow-pixie.yaml'), hidden: true } }),
    handOver: (id, to) => ({ type: 'set-controller', id, controller: to }),
  },
  {
    id: 'lucidity',
    pc: (id, controller) => ({ type: 'add', id, side: 'party', sheet: example('lucidity/characters/ana-vell.yaml'), ...(controller ? { controller } : {}) }),
    foe: (id) => ({ type: 'add', id, side: 'foe', statBlock: { ...bandit, name: `Bandit ${id}` } }),
    hiddenFoe: (id) => ({ type: 'add', id, side: 'foe', hidden: true, statBlock: { ...bandit, name: `Bandit ${id}` } }),
    handOver: (id, to) => ({ type: 'set-controller', id, controller: to }),
  },
];

let n = 0;
async function send(t: CreatedTable, token: string, command: unknown) {
  const res = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, { token, body: { commandId: `c${++n}`, command } });
  return { status: res.status, code: res.body?.code as string | undefined, field: res.body?.field as string | undefined };
}
const gmView = async (t: CreatedTable) => JSON.stringify((await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body);

describe.each(RULESETS)('caps on characters at a $id table', (rs) => {
  it('one character per player and three per table, over HTTP; a refusal changes nothing', async () => {
    const t = await createTable(srv.url, { name: `Caps ${rs.id}`, ruleset: rs.id });
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const bo = await joinTable(srv.url, t.tableId, t.invite.token, 'Bo');
    expect((await send(t, ann.token, rs.pc('ann1'))).status).toBe(200);
    let before = await gmView(t);
    // Ann plays one already: a second is refused, whoever adds it for her.
    expect(await send(t, ann.token, rs.pc('ann2'))).toMatchObject({ status: 422, code: 'too-many-characters-per-player', field: 'controller' });
    expect(await send(t, t.gm.token, rs.pc('ann3', ann.participantId))).toMatchObject({ status: 422, code: 'too-many-characters-per-player' });
    expect(await gmView(t)).toBe(before);
    // Two more (Bo's and the GM's) fill the table; a fourth is refused for the GM and for a player.
    expect((await send(t, bo.token, rs.pc('bo1'))).status).toBe(200);
    expect((await send(t, t.gm.token, rs.foe('foe1'))).status).toBe(200);
    before = await gmView(t);
    expect(await send(t, t.gm.token, rs.foe('foe2'))).toMatchObject({ status: 422, code: 'too-many-characters' });
    if (rs.handOver) {
      // Handing the GM's character to a player who already plays one is refused as well.
      expect(await send(t, t.gm.token, rs.handOver('foe1', bo.participantId))).toMatchObject({ status: 422, code: 'too-many-characters-per-player' });
    }
    expect(await gmView(t)).toBe(before);
  });

  it("the GM's hidden characters do not fill the table for a player: she is answered as at a table without them", async () => {
    const t = await createTable(srv.url, { name: `Caps hidden ${rs.id}`, ruleset: rs.id });
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    for (const id of ['foe1', 'foe2', 'foe3']) expect((await send(t, t.gm.token, rs.hiddenFoe(id))).status).toBe(200);
    const before = await gmView(t);
    expect(await send(t, t.gm.token, rs.foe('foe4'))).toMatchObject({ status: 422, code: 'too-many-characters' });
    expect(await gmView(t)).toBe(before);
    expect((await send(t, ann.token, rs.pc('ann1'))).status).toBe(200);
  });

  it('the same caps over the WebSocket: the error names the command it answers', async () => {
    const t = await createTable(srv.url, { name: `Caps ws ${rs.id}`, ruleset: rs.id });
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const client = await TestClient.connect(srv.wsUrl);
    try {
      await client.hello(t.tableId, ann.token);
      expect((await client.command('w1', rs.pc('ann1'))).type).toBe('ack');
      const before = await gmView(t);
      const refused = await client.command('w2', rs.pc('ann2'));
      expect(refused).toMatchObject({ type: 'error', commandId: 'w2', code: 'too-many-characters-per-player' });
      expect(await gmView(t)).toBe(before);
    } finally {
      client.ws.close();
    }
  });

  it('a sheet larger than 64 KiB as JSON is refused before the rules read it', async () => {
    const t = await createTable(srv.url, { name: `Sheet ${rs.id}`, ruleset: rs.id });
    const big = rs.pc('big');
    const field = 'sheet' in big ? 'sheet' : 'statBlock';
    (big[field] as Record<string, unknown>).notes = 'x'.repeat(70 * 1024);
    const before = await gmView(t);
    expect(await send(t, t.gm.token, big)).toMatchObject({ status: 422, code: 'sheet-too-large', field });
    expect(await gmView(t)).toBe(before);
  });
});
