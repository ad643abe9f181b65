import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../src/server';
import { secretDecider } from './fixtures/secret-decider';
import {
  connectAs,
  createTable,
  http,
  joinTable,
  openTestStore,
  reopenTestStore,
  runPg,
  sleep,
  startServer,
  type Running,
  type StoreKind,
} from './helpers';

const patch = (srv: Running, tableId: string, token: string | undefined, body: unknown) =>
  http(srv.url, 'PATCH', `/api/tables/${tableId}/settings`, { ...(token === undefined ? {} : { token }), body });

describe('changing a table\'s settings', () => {
  let srv: Running;
  beforeAll(async () => {
    srv = await startServer(secretDecider);
  });
  afterAll(async () => {
    await srv.close();
  });

  it('lets only the GM change them; everyone else is refused and nothing changes', async () => {
    const t = await createTable(srv.url);
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const bob = await joinTable(srv.url, t.tableId, t.invite.token, 'Bob');
    await http(srv.url, 'DELETE', `/api/tables/${t.tableId}/participants/${bob.participantId}`, { token: t.gm.token });

    for (const token of [ann.token, t.observer.token]) {
      const refused = await patch(srv, t.tableId, token, { physicalDice: true });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ type: 'error', code: 'forbidden', message: "only the GM can change the table's settings" });
    }
    for (const token of [undefined, 'gm_not-a-token', bob.token, t.invite.token]) {
      const refused = await patch(srv, t.tableId, token, { physicalDice: true });
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ type: 'error', code: 'unauthorized' });
    }
    const missing = await patch(srv, 't_missing', t.gm.token, { physicalDice: true });
    expect(missing).toMatchObject({ status: 404, body: { code: 'table_not_found' } });
    const info = await http(srv.url, 'GET', `/api/tables/${t.tableId}`, { token: ann.token });
    expect(info.body.table.settings).toEqual({ physicalDice: false });

    const changed = await patch(srv, t.tableId, t.gm.token, { physicalDice: true });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ settings: { physicalDice: true } });
    const after = await http(srv.url, 'GET', `/api/tables/${t.tableId}`, { token: ann.token });
    expect(after.body.table.settings).toEqual({ physicalDice: true });
  });

  it('validates the body', async () => {
    const t = await createTable(srv.url);
    const cases: Array<[unknown, string | undefined]> = [
      [{ physicalDice: 'yes' }, 'physicalDice'],
      [{ physicalDice: true, colour: 'red' }, undefined],
      [{}, undefined],
      [[true], undefined],
    ];
    for (const [body, field] of cases) {
      const res = await patch(srv, t.tableId, t.gm.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ type: 'error', code: 'invalid_message' });
      if (field) expect(res.body.field).toBe(field);
    }
    const notJson = await http(srv.url, 'PATCH', `/api/tables/${t.tableId}/settings`, { token: t.gm.token, rawBody: '{"physicalDice":' });
    expect(notJson).toMatchObject({ status: 400, body: { code: 'bad_json' } });
  });

  it('tells every connection at once, and the next commands follow the new settings', async () => {
    const t = await createTable(srv.url);
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const gm = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    const a = await connectAs(srv.wsUrl, t.tableId, ann.token);
    const obs = await connectAs(srv.wsUrl, t.tableId, t.observer.token);
    expect(a.welcome.table.settings).toEqual({ physicalDice: false });
    expect(await a.client.command('d1', { type: 'roll', count: 2 }, { dice: { roll: [3, 9] } })).toMatchObject({ code: 'physical-dice-off', field: 'dice.roll' });

    await patch(srv, t.tableId, t.gm.token, { physicalDice: true });
    for (const c of [gm, a, obs]) {
      expect(await c.client.waitFor((m) => m.type === 'settings')).toEqual({ type: 'settings', settings: { physicalDice: true } });
    }
    expect(await a.client.command('d2', { type: 'roll', count: 2 }, { dice: { roll: [3, 9] } })).toMatchObject({ type: 'ack', firstSeq: 1 });
    const late = await connectAs(srv.wsUrl, t.tableId, ann.token, 1);
    expect(late.welcome.table.settings).toEqual({ physicalDice: true });

    // Setting what is already set changes nothing and tells nobody.
    expect((await patch(srv, t.tableId, t.gm.token, { physicalDice: true })).body).toEqual({ settings: { physicalDice: true } });
    await sleep(50);
    expect(a.client.messages.filter((m) => m.type === 'settings')).toHaveLength(1);

    await patch(srv, t.tableId, t.gm.token, { physicalDice: false });
    expect(await late.client.waitFor((m) => m.type === 'settings')).toEqual({ type: 'settings', settings: { physicalDice: false } });
    expect(await a.client.command('d3', { type: 'roll', count: 1 }, { dice: { roll: [4] } })).toMatchObject({ code: 'physical-dice-off' });
    // Settings are not events: the log did not move.
    expect((await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.version).toBe(1);
    for (const c of [gm, a, obs, late]) c.client.close();
  });
});

for (const kind of ['sqlite', 'postgres'] as StoreKind[]) {
  describe.skipIf(kind === 'postgres' && !runPg)(`settings after a restart (${kind})`, () => {
    it('keeps the changed settings when the server and its store are opened again', async () => {
      const ts = await openTestStore(kind);
      const first = await createServer({ host: '127.0.0.1', port: 0, logLevel: 'silent', store: ts.store }, secretDecider);
      const { url } = await first.listen();
      const t = await createTable(url, { name: 'Restart table', settings: { physicalDice: false } });
      const ann = await joinTable(url, t.tableId, t.invite.token, 'Ann');
      const changed = await http(url, 'PATCH', `/api/tables/${t.tableId}/settings`, { token: t.gm.token, body: { physicalDice: true } });
      expect(changed.status).toBe(200);
      await first.close();
      await ts.store.close();

      ts.store = await reopenTestStore(kind, ts.location);
      const second = await createServer({ host: '127.0.0.1', port: 0, logLevel: 'silent', store: ts.store }, secretDecider);
      try {
        const { url: url2 } = await second.listen();
        const info = await http(url2, 'GET', `/api/tables/${t.tableId}`, { token: ann.token });
        expect(info.body.table.settings).toEqual({ physicalDice: true });
        const { client, welcome } = await connectAs(`${url2.replace('http', 'ws')}/ws`, t.tableId, ann.token);
        expect(welcome.table.settings).toEqual({ physicalDice: true });
        expect(await client.command('d1', { type: 'roll', count: 2 }, { dice: { roll: [10, 1] } })).toMatchObject({ type: 'ack' });
        client.close();
        const exported = await http(url2, 'GET', `/api/tables/${t.tableId}/export`, { token: t.gm.token });
        expect(exported.body.table.settings).toEqual({ physicalDice: true });
      } finally {
        await second.close();
        await ts.cleanup();
      }
    });
  });
}
