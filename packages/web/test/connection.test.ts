import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personaeTable } from '@personae/rules';
import { createServer, type TableServer } from '@personae/server';
import { api } from '../src/lib/api';
import { TableConnection } from '../src/lib/connection';

// The app's WebSocket client against the real table server, in Node: the browser's WebSocket is
// played by `ws`, which has the same interface.
const g = globalThis as unknown as Record<string, unknown>;

describe('the table connection', () => {
  let server: TableServer;
  let base = '';
  let dataDir = '';
  const saved = { window: g.window, WebSocket: g.WebSocket, fetch: g.fetch };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'personae-web-conn-'));
    server = await createServer({ port: 0, host: '127.0.0.1', dataDir, logLevel: 'silent' }, personaeTable);
    const { port } = await server.listen();
    base = `127.0.0.1:${port}`;
    g.window = { addEventListener() {}, removeEventListener() {} };
    g.WebSocket = WebSocket;
    // The API client uses paths relative to the page; here the page is the server itself.
    const realFetch = saved.fetch as typeof fetch;
    g.fetch = (input: string, init?: RequestInit) => realFetch(`http://${base}${input}`, init);
  });

  afterAll(async () => {
    g.window = saved.window;
    g.WebSocket = saved.WebSocket;
    g.fetch = saved.fetch;
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function connect(tableId: string, token: string) {
    let changes = 0;
    const c = new TableConnection({ tableId, token, url: `ws://${base}/ws`, onChange: () => void changes++ });
    c.start();
    return { c, changes: () => changes };
  }

  const until = async (what: () => boolean, ms = 15_000) => {
    const end = Date.now() + ms;
    while (!what()) {
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  type View = { log: { seq: number; result?: unknown; purpose?: string }[] };
  const roll = (purpose: string) => ({ type: 'roll', actor: { name: 'A', dice: 3, modifiers: [] }, reactor: { name: 'B', dice: 2, modifiers: [] }, purpose });

  it('keeps the view current, and after a drop resumes from the last event seen', async () => {
    const created = await api.createTable('Conn', 'GM', false);
    const joined = await api.join(created.tableId, created.invite.token, 'Ann');
    const gm = connect(created.tableId, created.gm.token);
    const ann = connect(created.tableId, joined.token);
    await until(() => gm.c.status === 'live' && ann.c.status === 'live');

    const ack = await gm.c.send(roll('first'));
    await ann.c.stateAt(ack.lastSeq);
    expect((ann.c.state as View).log.map((e) => e.purpose)).toEqual(['first']);

    // Ann's socket drops; the GM rolls meanwhile; Ann comes back by herself and catches up. Her new
    // connection sends a hello with since and no request for the whole view: the server follows the
    // missed events with the changes to her view.
    const sentAfter: string[] = [];
    const RealWebSocket = g.WebSocket as typeof WebSocket;
    g.WebSocket = class extends RealWebSocket {
      override send(data: string) {
        sentAfter.push(data);
        super.send(data);
      }
    };
    let second: Awaited<ReturnType<typeof gm.c.send>>;
    try {
      const socket = (ann.c as unknown as { socket: WebSocket }).socket;
      socket.terminate();
      await until(() => ann.c.status === 'reconnecting');
      second = await gm.c.send(roll('second'));
      await until(() => ann.c.status === 'live');
      await ann.c.stateAt(second.lastSeq);
    } finally {
      g.WebSocket = RealWebSocket;
    }
    expect(sentAfter.map((m) => JSON.parse(m).type)).toEqual(['hello']);
    expect(JSON.parse(sentAfter[0]!).since).toBe(ack.lastSeq);
    expect((ann.c.state as View).log.map((e) => e.purpose)).toEqual(['first', 'second']);
    expect(ann.c.reconnections).toBe(1);
    expect(ann.c.lastSeq).toBe(second.lastSeq);
    gm.c.stop();
    ann.c.stop();
  });

  it('a command that names the version it was asked from is refused once the table has moved on', async () => {
    const created = await api.createTable('Versions', 'GM', false);
    const gm = connect(created.tableId, created.gm.token);
    const other = connect(created.tableId, created.gm.token);
    await until(() => gm.c.status === 'live' && other.c.status === 'live');
    const seen = (await gm.c.send(roll('seen'))).lastSeq!;
    // Another tab of the GM acts first: what was seen is no longer the table's version.
    const moved = await other.c.send(roll('meanwhile'));
    await expect(gm.c.send(roll('late'), undefined, seen)).rejects.toMatchObject({ code: 'conflict' });
    const ok = await gm.c.send(roll('current'), undefined, moved.lastSeq!);
    await gm.c.stateAt(ok.lastSeq);
    expect((gm.c.state as View).log.map((e) => e.purpose)).toEqual(['seen', 'meanwhile', 'current']);
    gm.c.stop();
    other.c.stop();
  });

  it('sends a command again after a drop with the same id, and the table applies it once', async () => {
    const created = await api.createTable('Retry', 'GM', false);
    const gm = connect(created.tableId, created.gm.token);
    await until(() => gm.c.status === 'live');
    const sent: string[] = [];
    const socket = (gm.c as unknown as { socket: WebSocket }).socket;
    const send = socket.send.bind(socket);
    socket.send = ((data: string) => {
      sent.push(data);
      send(data);
      // The connection breaks right after the command leaves, before its acknowledgement arrives.
      if (data.includes('"command"')) socket.terminate();
    }) as typeof socket.send;
    const ack = gm.c.send(roll('once'));
    const done = await ack;
    await gm.c.stateAt(done.lastSeq);
    expect((gm.c.state as View).log.filter((e) => e.purpose === 'once')).toHaveLength(1);
    expect(gm.c.reconnections).toBe(1);
    const again = await api.state(created.tableId, created.gm.token);
    expect((again.state as View).log.filter((e) => e.purpose === 'once')).toHaveLength(1);
    gm.c.stop();
  });

  it("follows the GM's change of settings, and a player may not make one", async () => {
    const created = await api.createTable('Settings', 'GM', false);
    const joined = await api.join(created.tableId, created.invite.token, 'Ann');
    const ann = connect(created.tableId, joined.token);
    await until(() => ann.c.status === 'live');
    expect(ann.c.welcome?.table.settings).toEqual({ physicalDice: false });
    const before = ann.changes();
    expect(await api.setSettings(created.tableId, created.gm.token, { physicalDice: true })).toEqual({ settings: { physicalDice: true } });
    await until(() => ann.c.welcome?.table.settings.physicalDice === true);
    expect(ann.changes()).toBeGreaterThan(before);
    await expect(api.setSettings(created.tableId, joined.token, { physicalDice: false })).rejects.toMatchObject({ code: 'forbidden', status: 403 });
    expect(ann.c.welcome?.table.name).toBe('Settings');
    ann.c.stop();
  });

  it('reports a refused link and does not retry it', async () => {
    const created = await api.createTable('Refused', 'GM', false);
    const bad = connect(created.tableId, 'gm_not-the-token');
    await until(() => bad.c.status === 'refused');
    expect(bad.c.problem).toMatch(/does not accept this link/);
    const attempts = bad.c.attempts;
    await new Promise((r) => setTimeout(r, 400));
    expect(bad.c.attempts).toBe(attempts);
    bad.c.stop();
  });
});
