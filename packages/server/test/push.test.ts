import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretDecider } from './fixtures/secret-decider';
import { connectAs, createTable, joinTable, startServer, type Running } from './helpers';

describe('pushed views', () => {
  let srv: Running;
  beforeAll(async () => {
    srv = await startServer(secretDecider);
  });
  afterAll(async () => {
    await srv.close();
  });

  it('follows new events with each viewer\u2019s own view of the new state, unasked', async () => {
    const t = await createTable(srv.url);
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const gm = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    const player = await connectAs(srv.wsUrl, t.tableId, ann.token);
    const observer = await connectAs(srv.wsUrl, t.tableId, t.observer.token);
    const ack = await gm.client.command('c1', { type: 'create', characterId: 'ash', name: 'Ash', secret: 'fears water' });
    expect(ack.type).toBe('ack');
    // The GM got the event, then the state, then the ack.
    const order = gm.client.messages.slice(1).map((m) => m.type);
    expect(order).toEqual(['event', 'state', 'ack']);
    for (const c of [gm.client, player.client, observer.client]) {
      const pushed = await c.waitFor((m) => m.type === 'state');
      expect(pushed.version).toBe(1);
      expect(pushed.state.characters.ash.name).toBe('Ash');
    }
    const secrets = [gm.client, player.client, observer.client].map(
      (c) => c.messages.find((m) => m.type === 'state')!.state.characters.ash.secret,
    );
    expect(secrets).toEqual(['fears water', null, null]);
    expect(player.client.messages.find((m) => m.type === 'state')!.state.gmNotes).toBeUndefined();
    for (const c of [gm.client, player.client, observer.client]) c.close();
  });
});
