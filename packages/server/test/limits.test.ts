import { connect as tcpConnect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretDecider } from './fixtures/secret-decider';
import { connectAs, createTable, http, joinTable, sleep, startServer, TestClient, WAIT_MS, type Running } from './helpers';

const roll = { type: 'roll', count: 1 };

function nested(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

describe('limits', () => {
  let srv: Running;
  /** The rate limits' clock: it stands still unless a test moves it, so no allowance refills mid-test. */
  let now = 0;
  beforeAll(async () => {
    srv = await startServer(secretDecider, {
      config: {
        rateClock: () => now,
        createRate: { max: 4, windowMs: 60_000 },
        joinRate: { max: 4, windowMs: 60_000 },
        maxParticipants: 2,
        commandRate: { burst: 3, perSecond: 1 },
        maxMessageBytes: 2048,
        maxJsonDepth: 16,
      },
    });
  });
  afterAll(async () => {
    await srv.close();
  });

  it('sends security headers with every answer', async () => {
    const res = await http(srv.url, 'GET', '/api/health');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const missing = await http(srv.url, 'GET', '/api/nothing-here');
    expect(missing.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses deeply nested JSON and "__proto__" keys with a 400 naming the problem', async () => {
    const t = await createTable(srv.url);
    const deep = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, {
      token: t.gm.token,
      rawBody: `{"commandId":"d1","command":${nested(40)}}`,
    });
    expect(deep.status).toBe(400);
    expect(deep.body).toMatchObject({ code: 'too_deep' });
    const proto = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, {
      token: t.gm.token,
      rawBody: '{"commandId":"p1","command":{"type":"roll","count":1,"__proto__":{"admin":true}}}',
    });
    expect(proto.status).toBe(400);
    expect(proto.body).toMatchObject({ code: 'forbidden_key', field: 'command.__proto__' });

    const { client } = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    client.send(`{"type":"command","commandId":"w1","command":${nested(40)}}`);
    expect(await client.waitFor((m) => m.type === 'error')).toMatchObject({ code: 'too_deep', commandId: 'w1' });
    client.send('{"type":"command","commandId":"w2","command":{"__proto__":{"x":1}}}');
    expect(await client.waitFor((m) => m.type === 'error')).toMatchObject({ code: 'forbidden_key', commandId: 'w2' });
    client.send(JSON.stringify({ type: 'command', commandId: 'w3', command: { type: 'roll', note: 'x'.repeat(4000) } }));
    expect(await client.waitFor((m) => m.type === 'error')).toMatchObject({ code: 'message_too_large', commandId: 'w3' });
    expect(await client.command('w4', roll)).toMatchObject({ type: 'ack' });
    expect((await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.version).toBe(1);
    client.close();
  });

  it('counts commands per token across all its connections and says when to retry', async () => {
    const t = await createTable(srv.url);
    const a = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    const b = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    const answers = await Promise.all([
      a.client.command('a1', roll),
      b.client.command('b1', roll),
      a.client.command('a2', roll),
      b.client.command('b2', roll),
    ]);
    const acks = answers.filter((m) => m.type === 'ack');
    const limited = answers.filter((m) => m.type === 'error');
    expect(acks).toHaveLength(3);
    expect(limited).toHaveLength(1);
    // The allowance is empty; one command more comes back after a second (1 per second).
    expect(limited[0]).toMatchObject({ code: 'rate_limited', retryAfterMs: 1000 });
    // HTTP commands with the same token draw on the same allowance.
    const viaHttp = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, {
      token: t.gm.token,
      body: { commandId: 'h1', command: roll },
    });
    expect(viaHttp.status).toBe(429);
    expect(viaHttp.body).toMatchObject({ code: 'rate_limited', commandId: 'h1' });
    // Just short of the named delay it is still refused; after it, the refused command goes through.
    now += limited[0]!.retryAfterMs - 1;
    expect(await a.client.command(limited[0]!.commandId, roll)).toMatchObject({ type: 'error', code: 'rate_limited' });
    now += 1;
    expect(await a.client.command(limited[0]!.commandId, roll)).toMatchObject({ type: 'ack' });
    expect((await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.version).toBe(4);
    a.client.close();
    b.client.close();
  });

  it('caps participants per table and sends participant changes as deltas', async () => {
    const t = await createTable(srv.url);
    const gm = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const joined = await gm.client.waitFor((m) => m.type === 'participant-joined');
    expect(joined.participant).toEqual({ id: ann.participantId, role: 'player', displayName: 'Ann' });
    const full = await http(srv.url, 'POST', `/api/tables/${t.tableId}/join`, { body: { invite: t.invite.token, displayName: 'Bo' } });
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({ code: 'table_full' });
    const removed = await http(srv.url, 'DELETE', `/api/tables/${t.tableId}/participants/${ann.participantId}`, { token: t.gm.token });
    expect(removed.status).toBe(200);
    expect(await gm.client.waitFor((m) => m.type === 'participant-left')).toEqual({ type: 'participant-left', participantId: ann.participantId });
    expect(gm.client.messages.some((m) => m.type === 'participants')).toBe(false);
    gm.client.close();
  });

  it('throttles table creation and joins per address', async () => {
    // This server allows 4 creations a minute; the tests above used 3.
    expect((await http(srv.url, 'POST', '/api/tables', { body: { name: 'Four' } })).status).toBe(201);
    const refused = await http(srv.url, 'POST', '/api/tables', { body: { name: 'Five' } });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'rate_limited' });
    expect(refused.body.retryAfterMs).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Joins: one was used above (plus one refused as full); two more pass, the fifth is throttled.
    const other = await startServer(secretDecider, { config: { joinRate: { max: 2, windowMs: 60_000 } } });
    try {
      const t = await createTable(other.url);
      await joinTable(other.url, t.tableId, t.invite.token, 'A');
      await joinTable(other.url, t.tableId, t.invite.token, 'B');
      const third = await http(other.url, 'POST', `/api/tables/${t.tableId}/join`, { body: { invite: t.invite.token, displayName: 'C' } });
      expect(third.status).toBe(429);
      expect(third.body.code).toBe('rate_limited');
      const participants = (await http(other.url, 'GET', `/api/tables/${t.tableId}`, { token: t.gm.token })).body.participants;
      expect(participants).toHaveLength(3);
    } finally {
      await other.close();
    }
  });
});

/** A connection to `wsUrl`, tried again until the server accepts it (for up to WAIT_MS). */
async function reconnect(wsUrl: string): Promise<TestClient> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      return await TestClient.connect(wsUrl);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(50);
    }
  }
}

describe('connection limits and timeouts', () => {
  // Each on a server of its own: connections the first test closed may still be counted by the server
  // for a moment, and must not take the second test's places.
  let capped: Running;
  let timed: Running;
  beforeAll(async () => {
    capped = await startServer(secretDecider, { config: { maxConnectionsPerAddress: 3 } });
    timed = await startServer(secretDecider, { config: { requestTimeoutMs: 600, headersTimeoutMs: 600 } });
  });
  afterAll(async () => {
    await capped?.close();
    await timed?.close();
  });

  it('closes connections from one address beyond the cap, and accepts again once some close', async () => {
    const clients = await Promise.all([0, 1, 2].map(() => TestClient.connect(capped.wsUrl)));
    await expect(TestClient.connect(capped.wsUrl)).rejects.toThrow();
    clients[0]!.close();
    await clients[0]!.closed;
    // The server counts the connection gone when its own side has closed, which may come a little
    // after the client's: try again until it is let in.
    const again = await reconnect(capped.wsUrl);
    again.close();
    for (const c of clients.slice(1)) c.close();
    await Promise.all([again, ...clients].map((c) => c.closed));
  });

  it('ends a request whose body does not arrive in time, and keeps serving', async () => {
    const { port } = new URL(timed.url);
    const socket = tcpConnect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (d) => (received += d.toString()));
    const closed = new Promise<number>((resolve) => {
      const started = Date.now();
      socket.on('close', () => resolve(Date.now() - started));
    });
    socket.write('POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":');
    // 600 ms allowed, checked every 300 ms; a busy machine may take a few seconds more to close it.
    const after = await Promise.race([closed, sleep(20_000).then(() => -1)]);
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThan(20_000);
    expect(received).toMatch(/^HTTP\/1\.1 408/);
    expect((await http(timed.url, 'GET', '/api/health')).status).toBe(200);
  });
});
