import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personaeTable } from '@personae/rules';
import { connectAs, createTable, http, joinTable, startServer, type CreatedTable, type Running, type TestClient } from './helpers';

// Table talk with the Personae table on the real server: what is said aloud reaches everyone; a
// whisper reaches its speaker and its one recipient, and no frame, catch-up, state or export of any
// other participant carries it.

const ALOUD = 'ALOUD-the-bridge-is-out';
const TO_GM = 'WHISPER-ann-to-gm-4c1e';
const TO_ANN = 'WHISPER-gm-to-ann-9d2b';
const TO_BOB = 'WHISPER-gm-to-bob-77aa';

let srv: Running;
let t: CreatedTable;
let ann: { participantId: string; token: string };
let bob: { participantId: string; token: string };
const live: Record<'gm' | 'ann' | 'bob' | 'observer', TestClient> = {} as never;

beforeAll(async () => {
  srv = await startServer(personaeTable);
  t = await createTable(srv.url, { name: 'Talk table', gmName: 'Mara' });
  ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
  bob = await joinTable(srv.url, t.tableId, t.invite.token, 'Bob');
  live.gm = (await connectAs(srv.wsUrl, t.tableId, t.gm.token)).client;
  live.ann = (await connectAs(srv.wsUrl, t.tableId, ann.token)).client;
  live.bob = (await connectAs(srv.wsUrl, t.tableId, bob.token)).client;
  live.observer = (await connectAs(srv.wsUrl, t.tableId, t.observer.token)).client;

  expect((await live.bob.command('b1', { type: 'say', text: ALOUD })).type).toBe('ack');
  expect((await live.ann.command('a1', { type: 'say', text: TO_GM, to: 'gm' })).type).toBe('ack');
  expect((await live.gm.command('g1', { type: 'say', text: TO_ANN, to: ann.participantId })).type).toBe('ack');
  expect((await live.gm.command('g2', { type: 'say', text: TO_BOB, to: bob.participantId })).type).toBe('ack');
  for (const c of Object.values(live)) await c.untilSeq(4);
  for (const c of Object.values(live)) {
    c.send({ type: 'state' });
    await c.waitFor((m) => m.type === 'state');
  }
});

afterAll(async () => {
  for (const c of Object.values(live)) c.close();
  await srv.close();
});

const wire = (c: TestClient) => c.frames.join('\n');

describe('table talk and whispers', () => {
  it('says aloud to everyone, observers included', () => {
    for (const c of Object.values(live)) expect(wire(c)).toContain(ALOUD);
  });

  it('sends each whisper to its speaker and its recipient only, live and in the state', () => {
    expect(wire(live.gm)).toContain(TO_GM);
    expect(wire(live.gm)).toContain(TO_ANN);
    expect(wire(live.gm)).toContain(TO_BOB);

    expect(wire(live.ann)).toContain(TO_GM);
    expect(wire(live.ann)).toContain(TO_ANN);
    expect(wire(live.ann)).not.toContain(TO_BOB);

    expect(wire(live.bob)).toContain(TO_BOB);
    expect(wire(live.bob)).not.toContain(TO_GM);
    expect(wire(live.bob)).not.toContain(TO_ANN);

    for (const w of [TO_GM, TO_ANN, TO_BOB]) expect(wire(live.observer)).not.toContain(w);
    // A whisper a player may not hear is a bare sequence number on their wire, so they see no gap.
    expect(live.bob.events().find((e) => e.seq === 2)).toEqual({ type: 'event', seq: 2, event: null });
  });

  it('keeps whispers out of the catch-up after a reconnect, the welcome state and the HTTP state', async () => {
    const again = await connectAs(srv.wsUrl, t.tableId, bob.token, 0);
    await again.client.untilSeq(4);
    const fresh = await connectAs(srv.wsUrl, t.tableId, bob.token);
    for (const text of [wire(again.client), JSON.stringify(fresh.welcome)]) {
      expect(text).toContain(TO_BOB);
      expect(text).not.toContain(TO_GM);
      expect(text).not.toContain(TO_ANN);
    }
    again.client.close();
    fresh.client.close();
    const state = await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: bob.token });
    expect(state.status).toBe(200);
    expect(state.text).toContain(ALOUD);
    expect(state.text).not.toContain(TO_GM);
    const watched = await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.observer.token });
    for (const w of [TO_GM, TO_ANN, TO_BOB]) expect(watched.text).not.toContain(w);
  });

  it("keeps whispers out of a player's export of the table", async () => {
    const exported = await http(srv.url, 'GET', `/api/tables/${t.tableId}/export`, { token: ann.token });
    expect(exported.status).toBe(200);
    expect(exported.text).toContain(TO_ANN);
    expect(exported.text).toContain(TO_GM);
    expect(exported.text).not.toContain(TO_BOB);
  });

  it('refuses a player whispering to another player, naming the field, and stores nothing', async () => {
    const before = (await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.version;
    const refused = await live.ann.command('a2', { type: 'say', text: 'psst', to: bob.participantId });
    expect(refused).toMatchObject({ type: 'error', code: 'whisper-to-gm', field: 'to' });
    const empty = await live.ann.command('a3', { type: 'say', text: '   ' });
    expect(empty).toMatchObject({ type: 'error', field: 'command.text' });
    const observer = await live.observer.command('o1', { type: 'say', text: 'hello' });
    expect(observer.type).toBe('error');
    expect((await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.version).toBe(before);
  });
});
