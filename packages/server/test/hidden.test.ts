import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretDecider } from './fixtures/secret-decider';
import { connectAs, createTable, http, joinTable, startServer, TestClient, type CreatedTable, type Running } from './helpers';

const ANN_SECRET = 'ANN-SECRET-7f3a';
const BOB_SECRET = 'BOB-SECRET-91cc';
const GM_NOTE = 'GM-NOTE-the-duke-is-a-vampire';

let srv: Running;
let t: CreatedTable;
let ann: { participantId: string; token: string };
let bob: { participantId: string; token: string };
const live: Record<string, TestClient> = {};

beforeAll(async () => {
  srv = await startServer(secretDecider);
  t = await createTable(srv.url);
  ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
  bob = await joinTable(srv.url, t.tableId, t.invite.token, 'Bob');
  live.gm = (await connectAs(srv.wsUrl, t.tableId, t.gm.token)).client;
  live.ann = (await connectAs(srv.wsUrl, t.tableId, ann.token)).client;
  live.bob = (await connectAs(srv.wsUrl, t.tableId, bob.token)).client;
  live.observer = (await connectAs(srv.wsUrl, t.tableId, t.observer.token)).client;

  await live.ann!.command('a1', { type: 'create', characterId: 'ash', name: 'Ash', secret: ANN_SECRET });
  await live.gm!.command('g1', { type: 'gm-note', text: GM_NOTE });
  await live.gm!.command('g2', { type: 'create', characterId: 'birch', name: 'Birch', secret: BOB_SECRET, owner: bob.participantId });
  await live.bob!.command('b1', { type: 'roll', count: 2 });
  for (const c of Object.values(live)) await c.untilSeq(4);
});

afterAll(async () => {
  for (const c of Object.values(live)) c.close();
  await srv.close();
});

/** Everything a client read off the wire, as one text. */
const wire = (c: TestClient) => c.frames.join('\n');

describe('hidden data stays on the server', () => {
  it('sends each participant only what they may see, live', () => {
    expect(wire(live.gm!)).toContain(ANN_SECRET);
    expect(wire(live.gm!)).toContain(BOB_SECRET);
    expect(wire(live.gm!)).toContain(GM_NOTE);

    expect(wire(live.ann!)).toContain(ANN_SECRET);
    expect(wire(live.ann!)).not.toContain(BOB_SECRET);
    expect(wire(live.ann!)).not.toContain(GM_NOTE);

    expect(wire(live.bob!)).toContain(BOB_SECRET);
    expect(wire(live.bob!)).not.toContain(ANN_SECRET);
    expect(wire(live.bob!)).not.toContain(GM_NOTE);

    for (const secret of [ANN_SECRET, BOB_SECRET, GM_NOTE]) expect(wire(live.observer!)).not.toContain(secret);
  });

  it('marks an invisible event by its sequence number only, so clients see no gap', () => {
    const note = live.bob!.events().find((e) => e.seq === 2);
    expect(note).toEqual({ type: 'event', seq: 2, event: null });
    expect(live.bob!.events().map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    const created = live.bob!.events().find((e) => e.seq === 1)!;
    expect(created.event).toEqual({ type: 'created', characterId: 'ash', owner: ann.participantId, name: 'Ash', secret: null });
    // commandId is only echoed to the participant who sent the command.
    expect(created.commandId).toBeUndefined();
    expect(live.ann!.events().find((e) => e.seq === 1)!.commandId).toBe('a1');
  });

  it('redacts the catch-up after a reconnect, the welcome state and state requests', async () => {
    for (const since of [0, 1, 3]) {
      const { client } = await connectAs(srv.wsUrl, t.tableId, bob.token, since);
      await client.untilSeq(4);
      expect(client.events().map((e) => e.seq)).toEqual([1, 2, 3, 4].filter((s) => s > since));
      client.send({ type: 'state' });
      await client.waitFor((m) => m.type === 'state');
      expect(wire(client)).not.toContain(ANN_SECRET);
      expect(wire(client)).not.toContain(GM_NOTE);
      client.close();
    }
    const fresh = await connectAs(srv.wsUrl, t.tableId, t.observer.token);
    expect(fresh.welcome.state.characters.ash).toEqual({ owner: ann.participantId, name: 'Ash', secret: null });
    expect(fresh.welcome.state.gmNotes).toBeUndefined();
    expect(wire(fresh.client)).not.toContain(ANN_SECRET);
    fresh.client.close();
    const gm = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    expect(gm.welcome.state.gmNotes).toEqual([GM_NOTE]);
    gm.client.close();
  });

  it('redacts HTTP reads and exports for everyone but the GM', async () => {
    for (const token of [bob.token, t.observer.token]) {
      for (const path of ['state', 'events?since=0', 'export', '']) {
        const res = await http(srv.url, 'GET', `/api/tables/${t.tableId}${path ? `/${path}` : ''}`, { token });
        expect(res.status).toBe(200);
        expect(res.text).not.toContain(ANN_SECRET);
        expect(res.text).not.toContain(GM_NOTE);
      }
    }
    const bobExport = await http(srv.url, 'GET', `/api/tables/${t.tableId}/export`, { token: bob.token });
    expect(bobExport.body.redactedFor).toEqual({ role: 'player', participantId: bob.participantId });
    expect(bobExport.body.events[1]).toEqual({ seq: 2, at: null, participantId: null, commandId: null, event: null });
    expect(bobExport.body.events[3].commandId).toBe('b1');
    expect(bobExport.body.events[0].commandId).toBeNull();

    const gmExport = await http(srv.url, 'GET', `/api/tables/${t.tableId}/export`, { token: t.gm.token });
    expect(gmExport.body.redactedFor).toBeNull();
    expect(gmExport.text).toContain(ANN_SECRET);
    expect(gmExport.text).toContain(GM_NOTE);
  });

  it('does not echo refused hidden content to anyone else', async () => {
    const before = live.ann!.frames.length;
    const refused = await live.bob!.command('b2', { type: 'gm-note', text: 'BOB-TRIES-A-NOTE' });
    expect(refused.code).toBe('gm_only');
    await live.gm!.command('g3', { type: 'noop' });
    expect(live.ann!.frames.slice(before).join('\n')).not.toContain('BOB-TRIES');
  });
});
