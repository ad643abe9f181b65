import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretDecider } from './fixtures/secret-decider';
import { connectAs, createTable, http, joinTable, relaxedLimits, sleep, startServer, TestClient, type CreatedTable, type Running } from './helpers';

let srv: Running;
let t: CreatedTable;
let ann: { participantId: string; token: string };

beforeAll(async () => {
  srv = await startServer(secretDecider, { config: relaxedLimits() });
  t = await createTable(srv.url);
  ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
});
afterAll(async () => {
  await srv.close();
});

const version = async () => (await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.version as number;

/** Sends a ping and waits for its pong: everything sent before it has been answered. */
async function roundTrip(c: TestClient, id: number) {
  c.send({ type: 'ping', id });
  await c.waitFor((m) => m.type === 'pong' && m.id === id);
}

describe('bad input', () => {
  it('answers malformed and invalid messages with a clear error and keeps the connection usable', async () => {
    const gm = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    const { client: c } = await connectAs(srv.wsUrl, t.tableId, ann.token);
    const before = await version();
    const cases: Array<[unknown, Record<string, unknown>]> = [
      ['{"type":"command",', { code: 'bad_json' }],
      ['', { code: 'bad_json' }],
      ['[1,2,3]', { code: 'invalid_message' }],
      ['42', { code: 'invalid_message' }],
      ['null', { code: 'invalid_message' }],
      [{ type: 'dance' }, { code: 'unknown_message_type', field: 'type' }],
      [{ noType: true }, { code: 'unknown_message_type', field: 'type' }],
      [{ type: 'command', command: { type: 'noop' } }, { code: 'invalid_message', field: 'commandId' }],
      [{ type: 'command', commandId: 'has space', command: { type: 'noop' } }, { code: 'invalid_message', field: 'commandId' }],
      [{ type: 'command', commandId: 'k1' }, { code: 'invalid_message', field: 'command', commandId: 'k1' }],
      [{ type: 'command', commandId: 'k2', command: {}, extra: 1 }, { code: 'invalid_message', commandId: 'k2' }],
      [{ type: 'command', commandId: 'k3', expectedVersion: -1, command: {} }, { code: 'invalid_message', field: 'expectedVersion' }],
      [{ type: 'command', commandId: 'k4', command: { type: 'fly' } }, { code: 'unknown_command', field: 'command.type', commandId: 'k4' }],
      [{ type: 'command', commandId: 'k5', command: { type: 'roll', count: 99 } }, { code: 'invalid_command', field: 'command.count' }],
      [{ type: 'command', commandId: 'k6', command: 'roll' }, { code: 'invalid_command' }],
      [{ type: 'command', commandId: 'k7', command: { type: 'rename', characterId: 'nobody', name: 'x' } }, { code: 'no_such_character' }],
      [{ type: 'hello', tableId: t.tableId, token: ann.token }, { code: 'already_authenticated' }],
      [{ type: 'ping', id: { nested: true } }, { code: 'invalid_message', field: 'id' }],
    ];
    for (const [message, expected] of cases) {
      c.send(message);
      const reply = await c.waitFor((m) => m.type === 'error');
      expect(reply, JSON.stringify(message)).toMatchObject({ type: 'error', ...expected });
      expect(typeof reply.message).toBe('string');
    }
    c.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await c.waitFor((m) => m.type === 'error')).toMatchObject({ code: 'invalid_message' });

    expect(await c.command('fine', { type: 'roll', count: 1 })).toMatchObject({ type: 'ack' });
    expect(await version()).toBe(before + 1);
    await gm.client.untilSeq(before + 1);
    expect(gm.client.messages.filter((m) => m.type === 'error')).toEqual([]);
    gm.client.close();
    c.close();
  });

  it('refuses a message over 64 KiB without closing, and closes on a frame over 1 MiB', async () => {
    const { client: c } = await connectAs(srv.wsUrl, t.tableId, ann.token);
    const big = JSON.stringify({ type: 'command', commandId: 'big', command: { type: 'gm-note', text: 'x'.repeat(70_000) } });
    c.send(big);
    expect(await c.waitFor((m) => m.type === 'error')).toMatchObject({ code: 'message_too_large' });
    await roundTrip(c, 1);

    c.send('y'.repeat(1024 * 1024 + 10));
    expect((await c.closed).code).toBe(1009);
    expect((await http(srv.url, 'GET', '/api/health')).status).toBe(200);

    const body = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, {
      token: ann.token,
      rawBody: big,
    });
    expect(body.status).toBe(413);
    expect(body.body.code).toBe('message_too_large');
  });

  it('rate-limits each connection with a token bucket', async () => {
    const limited = await startServer(secretDecider, { config: { rateLimit: { burst: 5, perSecond: 4 } } });
    try {
      const lt = await createTable(limited.url);
      const { client: c } = await connectAs(limited.wsUrl, lt.tableId, lt.gm.token);
      const other = await connectAs(limited.wsUrl, lt.tableId, lt.gm.token);
      for (let i = 0; i < 15; i++) c.send({ type: 'ping', id: i });
      await sleep(100);
      const pongs = c.messages.filter((m) => m.type === 'pong').length;
      const limitedCount = c.messages.filter((m) => m.type === 'error' && m.code === 'rate_limited').length;
      expect(pongs).toBeGreaterThanOrEqual(4);
      expect(pongs).toBeLessThanOrEqual(7);
      expect(pongs + limitedCount).toBe(15);
      // Another connection has its own bucket.
      await roundTrip(other.client, 99);
      // After a pause the bucket has refilled.
      await sleep(400);
      await roundTrip(c, 100);
      c.close();
      other.client.close();
    } finally {
      await limited.close();
    }
  });

  it('survives fuzzed messages: only errors come back and nothing changes', async () => {
    const gm = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    const { client: c } = await connectAs(srv.wsUrl, t.tableId, ann.token);
    const start = await version();
    const commandLike = fc.record(
      {
        type: fc.constantFrom('command', 'hello', 'state', 'ping', 'other'),
        commandId: fc.oneof(fc.string({ maxLength: 20 }), fc.integer()),
        expectedVersion: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.string()),
        dice: fc.oneof(fc.array(fc.integer({ min: -2, max: 12 }), { maxLength: 4 }), fc.dictionary(fc.constantFrom('roll', 'actor', 'x y', ''), fc.array(fc.integer({ min: -2, max: 12 }), { maxLength: 4 }))),
        command: fc.oneof(
          fc.jsonValue(),
          fc.record({ type: fc.constantFrom('roll', 'rename', 'create', 'gm-note', 'undo', 'burst'), count: fc.jsonValue() }, { requiredKeys: ['type'] }),
        ),
        tableId: fc.string(),
        token: fc.string(),
        since: fc.oneof(fc.integer(), fc.string()),
      },
      { requiredKeys: [] },
    );
    const message = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.json({ maxDepth: 3 }),
      commandLike.map((m) => JSON.stringify(m)),
      commandLike.map((m) => JSON.stringify(m).slice(0, 25)),
    );
    let id = 0;
    let acked = 0;
    await fc.assert(
      fc.asyncProperty(message, async (text) => {
        const before = c.messages.length;
        c.send(text);
        await roundTrip(c, ++id);
        const replies = c.messages.slice(before).filter((m) => m.type !== 'pong' && m.type !== 'event');
        for (const r of replies) {
          expect(['error', 'ack', 'state']).toContain(r.type);
          if (r.type === 'error') expect(r.code).not.toBe('internal_error');
          if (r.type === 'ack' && !r.duplicate && r.lastSeq !== null) acked += r.lastSeq - r.firstSeq + 1;
        }
      }),
      { numRuns: 300 },
    );
    expect(await version()).toBe(start + acked);
    expect(gm.client.messages.filter((m) => m.type === 'error')).toEqual([]);
    expect(await c.command('after-fuzz', { type: 'roll', count: 1 })).toMatchObject({ type: 'ack' });
    expect((await http(srv.url, 'GET', '/api/health')).status).toBe(200);
    gm.client.close();
    c.close();
  });

  it('survives fuzzed HTTP bodies without a server error', async () => {
    const start = await version();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ maxLength: 100 }), fc.json({ maxDepth: 3 })),
        fc.constantFrom('/api/tables', `/api/tables/${t.tableId}/commands`, `/api/tables/${t.tableId}/join`, '/api/tables/import'),
        async (body, path) => {
          const res = await http(srv.url, 'POST', path, { token: t.observer.token, rawBody: body });
          expect(res.status, `${path} ${body} -> ${res.text}`).toBeLessThan(500);
          if (res.status >= 400) expect(res.body).toMatchObject({ type: 'error' });
        },
      ),
      { numRuns: 150 },
    );
    expect(await version()).toBe(start);
    const routes = await http(srv.url, 'GET', '/api/nothing-here');
    expect(routes).toMatchObject({ status: 404, body: { code: 'not_found' } });
  });
});
