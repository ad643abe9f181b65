import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReveal, personaeTable } from '@personae/rules';
import { connectAs, createTable, http, joinTable, startServer, type CreatedTable, type Running, type TestClient } from './helpers';

/**
 * Secret rolls over the real server: the GM rolls in secret, and a player and an observer, reading
 * every frame and every route they may, get the commitment at once and nothing of the dice, the salt
 * or what the roll was until the GM reveals it; then they can check the reveal against the commitment.
 */
let srv: Running;
let t: CreatedTable;
let gm: TestClient;
let player: TestClient;
let observer: TestClient;
let ann: { participantId: string; token: string };

const wire = (c: TestClient) => c.frames.join('\n');
const SECRET_WORDS = ['Watchers in the dark', 'Hidden Archers', 'Stealth Mastery'];

beforeAll(async () => {
  srv = await startServer(personaeTable);
  t = await createTable(srv.url);
  ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
  gm = (await connectAs(srv.wsUrl, t.tableId, t.gm.token)).client;
  player = (await connectAs(srv.wsUrl, t.tableId, ann.token)).client;
  observer = (await connectAs(srv.wsUrl, t.tableId, t.observer.token)).client;
});

afterAll(async () => {
  for (const c of [gm, player, observer]) c?.close();
  await srv.close();
});

describe('secret rolls over the server', () => {
  it('sends the commitment to everyone at once and the dice to nobody but the GM until the reveal', async () => {
    const ack = await gm.command('s1', {
      type: 'roll',
      hidden: true,
      purpose: SECRET_WORDS[0],
      actor: { name: SECRET_WORDS[1], dice: 5, modifiers: [{ value: 3, source: SECRET_WORDS[2] }] },
      reactor: { name: 'Caravan', dice: 3, modifiers: [] },
    });
    expect(ack.type).toBe('ack');
    for (const c of [gm, player, observer]) await c.untilSeq(2);

    const gmState = (await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.state;
    const sealed = gmState.secretRolls.sealed;
    expect(sealed).toHaveLength(1);
    const hash: string = sealed[0].hash;
    const rolled = gm.events().find((e) => e.seq === 1)!.event;
    const salt: string = rolled.seal.salt;
    expect(rolled.seal.hash).toBe(hash);

    for (const c of [player, observer]) {
      const committed = c.events().find((e) => e.seq === 2)!.event;
      expect(committed).toMatchObject({ type: 'committed', hash });
      expect(c.events().find((e) => e.seq === 1)!.event).toBeNull();
    }
    const playerState = (await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: ann.token })).body;
    const playerExport = (await http(srv.url, 'GET', `/api/tables/${t.tableId}/export`, { token: ann.token })).text;
    expect(playerState.state.secretRolls.sealed).toEqual([]);
    expect(playerState.state.log.find((e: { commitment?: unknown }) => e.commitment)).toMatchObject({ commitment: { hash } });
    for (const text of [wire(player), wire(observer), JSON.stringify(playerState), playerExport]) {
      expect(text).toContain(hash);
      expect(text).not.toContain(salt);
      for (const w of SECRET_WORDS) expect(text).not.toContain(w);
    }
  });

  it('refuses a player who tries to reveal, and reveals on the GM\'s word to everyone, verifiably', async () => {
    const gmState = (await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.state;
    const hash: string = gmState.secretRolls.sealed[0].hash;
    const refused = await player.command('p1', { type: 'reveal', hash });
    expect(refused).toMatchObject({ type: 'error', code: 'gm-only' });
    expect((await gm.command('s2', { type: 'reveal', hash })).type).toBe('ack');
    for (const c of [gm, player, observer]) await c.untilSeq(3);
    for (const c of [player, observer]) {
      const revealed = c.events().find((e) => e.seq === 3)!.event;
      expect(revealed).toMatchObject({ type: 'revealed', hash, committedAt: 2 });
      expect(checkReveal(hash, revealed, revealed.result)).toEqual({ ok: true });
      const tampered = { ...revealed, dice: revealed.dice.map((d: number, i: number) => (i === 0 ? (d % 10) + 1 : d)) };
      expect(checkReveal(hash, tampered, undefined).ok).toBe(false);
      expect(wire(c)).toContain(SECRET_WORDS[1]);
    }
  });
});

describe('the fairness check of physical dice over the server', () => {
  it('goes to the GM only: a player who typed dice in never receives the check', async () => {
    const table = await createTable(srv.url, { name: 'Physical', settings: { physicalDice: true } });
    const bea = await joinTable(srv.url, table.tableId, table.invite.token, 'Bea');
    const gmc = (await connectAs(srv.wsUrl, table.tableId, table.gm.token)).client;
    const pc = (await connectAs(srv.wsUrl, table.tableId, bea.token)).client;
    try {
      for (let i = 0; i < 3; i++) {
        const ack = await pc.command(`f${i}`, { type: 'roll', actor: { name: 'Bea', dice: 2, modifiers: [] }, reactor: { name: 'Wall', dice: 2, modifiers: [] } }, { dice: { actor: [10, 9] } });
        expect(ack.type).toBe('ack');
      }
      pc.send({ type: 'state' });
      await pc.waitFor((m) => m.type === 'state');
      const gmView = (await http(srv.url, 'GET', `/api/tables/${table.tableId}/state`, { token: table.gm.token })).body.state;
      expect(gmView.diceFairness).toEqual([expect.objectContaining({ participantId: bea.participantId, faces: expect.objectContaining({ dice: 6, enoughData: false }) })]);
      expect(gmView.diceFairness[0].outcomes.challenges).toBe(3);
      const playerView = (await http(srv.url, 'GET', `/api/tables/${table.tableId}/state`, { token: bea.token })).body;
      const playerExport = (await http(srv.url, 'GET', `/api/tables/${table.tableId}/export`, { token: bea.token })).text;
      expect(playerView.state.diceFairness).toBeNull();
      for (const text of [wire(pc), JSON.stringify(playerView), playerExport]) {
        expect(text).not.toContain('chiSquare');
        expect(text).not.toContain('pValue');
      }
    } finally {
      gmc.close();
      pc.close();
    }
  });
});
