import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { connectAs, createTable, dropSchema, http, joinTable, PG_URL, relaxedLimitsEnv, runPg, tempDir, TestClient, uniqueSchema } from './helpers';
import { rollCommand, spawnServer } from './process';

type Kind = 'sqlite' | 'postgres';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

function storeEnv(kind: Kind): Record<string, string> {
  if (kind === 'sqlite') {
    const dir = tempDir();
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    return { DATA_DIR: dir };
  }
  const schema = uniqueSchema();
  cleanups.push(() => dropSchema(schema));
  return { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema, DATA_DIR: '/nonexistent-unused' };
}

interface Sent {
  client: number;
  commandId: string;
  count: number;
}

for (const kind of ['sqlite', 'postgres'] as Kind[]) {
  describe.skipIf(kind === 'postgres' && !runPg)(`crash and restart (${kind})`, () => {
    it('keeps every acknowledged event after SIGKILL mid-stream, and retries apply once', async () => {
      const env = { ...storeEnv(kind), ...relaxedLimitsEnv(1000) };
      const first = await spawnServer(env);
      const t = await createTable(first.url, { name: 'Crash table' });
      const players = await Promise.all(['Ann', 'Bob'].map((n) => joinTable(first.url, t.tableId, t.invite.token, n)));
      const tokens = [t.gm.token, ...players.map((p) => p.token)];
      const clients = await Promise.all(tokens.map(async (token) => (await connectAs(first.wsUrl, t.tableId, token)).client));

      // Each client keeps a window of commands in flight; the server is killed once 90 are acknowledged.
      const sent: Sent[] = [];
      const acked = new Map<string, { firstSeq: number; lastSeq: number }>();
      const window = 4;
      let killed = false;
      const pump = (ci: number) => {
        const client = clients[ci]!;
        let next = 0;
        const sendOne = () => {
          if (killed) return;
          const s = { client: ci, commandId: `c${ci}-${next++}`, count: 1 + (next % 5) };
          sent.push(s);
          client.send({ type: 'command', commandId: s.commandId, command: rollCommand(s.count) });
        };
        client.ws.on('message', (data) => {
          const m = JSON.parse(data.toString());
          if (m.type === 'ack') {
            acked.set(m.commandId, { firstSeq: m.firstSeq, lastSeq: m.lastSeq });
            if (acked.size >= 90 && !killed) {
              killed = true;
              first.child.kill('SIGKILL');
            }
            sendOne();
          }
        });
        for (let i = 0; i < window; i++) sendOne();
      };
      clients.forEach((_, ci) => pump(ci));
      const exit = await first.exited;
      expect(exit.signal).toBe('SIGKILL');
      await Promise.all(clients.map((c) => c.closed));
      expect(acked.size).toBeGreaterThanOrEqual(90);
      expect(sent.length).toBeGreaterThan(acked.size);

      // What the clients saw live before the crash, by seq.
      const seenLive = new Map<number, unknown>();
      for (const c of clients) for (const e of c.events()) seenLive.set(e.seq, e.event);

      const second = await spawnServer(env);
      try {
        const { client: gm, welcome } = await connectAs(second.wsUrl, t.tableId, t.gm.token, 0);
        const version = welcome.version as number;
        const maxAcked = Math.max(...[...acked.values()].map((a) => a.lastSeq));
        expect(version).toBeGreaterThanOrEqual(maxAcked);
        await gm.untilSeq(version, 10_000);
        const events = gm.events();
        expect(events.map((e) => e.seq)).toEqual(Array.from({ length: version }, (_, i) => i + 1));
        const bySeq = new Map(events.map((e) => [e.seq as number, e]));
        for (const [commandId, { firstSeq }] of acked) {
          const stored = bySeq.get(firstSeq)!;
          expect(stored.event.type).toBe('rolled');
          const ci = Number(commandId.slice(1, commandId.indexOf('-')));
          const participant = ci === 0 ? t.gm.participantId : players[ci - 1]!.participantId;
          expect(stored.event.by).toBe(participant);
          if (seenLive.has(firstSeq)) expect(stored.event).toEqual(seenLive.get(firstSeq));
        }

        // Retry everything that was sent; acknowledged ones come back as duplicates, the rest apply once.
        const retryClients = await Promise.all(
          tokens.map(async (token) => (await connectAs(second.wsUrl, t.tableId, token, version)).client),
        );
        const results = await Promise.all(
          sent.map((s) => retryClients[s.client]!.command(s.commandId, rollCommand(s.count))),
        );
        results.forEach((r, i) => {
          expect(r.type, JSON.stringify(r)).toBe('ack');
          const before = acked.get(sent[i]!.commandId);
          if (before) expect(r).toMatchObject({ duplicate: true, firstSeq: before.firstSeq });
        });
        const final = await http(second.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token });
        expect(final.body.version).toBe(sent.length);
        for (const c of [gm, ...retryClients]) c.close();
      } finally {
        second.child.kill('SIGTERM');
        const stopped = await second.exited;
        expect(stopped.code).toBe(0);
      }
    }, 120_000);
  });
}

describe('graceful shutdown of the process', () => {
  it('exits 0 on SIGTERM after closing sockets with 1001 and refusing new connections', async () => {
    const env = storeEnv('sqlite');
    const srv = await spawnServer(env);
    expect((await http(srv.url, 'GET', '/api/health')).body).toMatchObject({ status: 'ok', store: 'sqlite' });
    const t = await createTable(srv.url);
    const { client } = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    expect(await client.command('c1', rollCommand(2))).toMatchObject({ type: 'ack' });
    srv.child.kill('SIGTERM');
    expect((await client.closed).code).toBe(1001);
    expect((await srv.exited).code).toBe(0);
    await expect(TestClient.connect(srv.wsUrl)).rejects.toThrow();
    expect(srv.output()).toContain('shutting down');
    for (const token of [t.gm.token, t.invite.token, t.observer.token]) expect(srv.output()).not.toContain(token);

    const again = await spawnServer(env);
    const state = await http(again.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token });
    expect(state.body.version).toBe(1);
    expect(state.body.state.log[0].result.actor.dice).toHaveLength(2);
    again.child.kill('SIGTERM');
    await again.exited;
  }, 90_000);
});
