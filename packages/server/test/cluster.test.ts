import { createServer as createTcpServer, connect as tcpConnect, type Server as TcpServer, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type ServerConfig, type TableServer } from '../src/server';
import { openPostgresStore, parseWake, type PostgresStoreOptions, type Store } from '../src/store';
import { secretDecider } from './fixtures/secret-decider';
import { connectAs, createTable, dropSchema, http, joinTable, PG_URL, runPg, sleep, TestClient, uniqueSchema, WAIT_MS } from './helpers';

// Two nodes in one process: two servers, each with its own store (pool and listening connection)
// on the same PostgreSQL schema, as two processes behind a load balancer would be.

interface Node {
  name: string;
  server: TableServer;
  store: Store;
  url: string;
  wsUrl: string;
}

async function startNode(
  schema: string,
  name: string,
  extra: Partial<PostgresStoreOptions> = {},
  clusterCheckMs = 300,
  wrap: (store: Store) => Store = (store) => store,
  config: Partial<ServerConfig> = {},
): Promise<Node> {
  const store = await openPostgresStore({ connectionString: PG_URL, schema, maxConnections: 4, listenerName: `${schema}-${name}`, ...extra });
  const server = await createServer(
    {
      host: '127.0.0.1',
      port: 0,
      logLevel: 'silent',
      store: wrap(store),
      cluster: true,
      clusterCheckMs,
      rateLimit: { burst: 500, perSecond: 500 },
      ...config,
    },
    secretDecider,
  );
  const { url } = await server.listen();
  return { name, server, store, url, wsUrl: `${url.replace('http', 'ws')}/ws` };
}

const seqs = (c: TestClient) => c.events().map((e) => e.seq as number);
const contiguous = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/**
 * A TCP relay to PostgreSQL whose connections can be frozen: they stay open but nothing passes any
 * more, as with a peer that hangs or a network that drops packets without a reset.
 */
async function freezableRelay(): Promise<{ url: string; connections: () => number; freeze: () => void; close: () => Promise<void> }> {
  const target = new URL(PG_URL);
  const pairs: Array<[Socket, Socket]> = [];
  const relay: TcpServer = createTcpServer((inbound) => {
    const outbound = tcpConnect(Number(target.port || 5432), target.hostname);
    pairs.push([inbound, outbound]);
    inbound.pipe(outbound);
    outbound.pipe(inbound);
    for (const s of [inbound, outbound]) s.on('error', () => undefined);
    inbound.on('close', () => outbound.destroy());
    outbound.on('close', () => inbound.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const url = new URL(PG_URL);
  url.hostname = '127.0.0.1';
  url.port = String((relay.address() as { port: number }).port);
  return {
    url: url.toString(),
    connections: () => pairs.length,
    freeze() {
      for (const [inbound, outbound] of pairs) {
        inbound.unpipe(outbound);
        outbound.unpipe(inbound);
        inbound.pause();
        outbound.pause();
      }
    },
    async close() {
      for (const [inbound, outbound] of pairs) {
        inbound.destroy();
        outbound.destroy();
      }
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe('parseWake', () => {
  it('reads event and setup notices and refuses anything else', () => {
    expect(parseWake('e 12 t_abc')).toEqual({ kind: 'events', version: 12, tableId: 't_abc' });
    expect(parseWake('s 3 t_abc')).toEqual({ kind: 'setup', version: 3, tableId: 't_abc' });
    for (const bad of ['', 'e t_abc', 'x 1 t', 'e -1 t', 'e 1 ', 'e 1 a b', 'e 1234567890123456 t']) expect(parseWake(bad)).toBeNull();
  });
});

describe.skipIf(!runPg)('several nodes on one PostgreSQL database', () => {
  const schema = uniqueSchema();
  let a: Node;
  let b: Node;
  beforeAll(async () => {
    // Node a announces its appends with a notice per batch, node b with a notice per append (as a
    // server before the batch notices does): each reads the other's.
    a = await startNode(schema, 'a', { notices: 'batch' });
    b = await startNode(schema, 'b');
  });
  afterAll(async () => {
    for (const node of [a, b]) {
      await node?.server.close();
      await node?.store.close();
    }
    await dropSchema(schema);
  });

  it('a command sent to one node reaches the clients of the other, in the same order for everyone', async () => {
    const t = await createTable(a.url);
    const ann = await joinTable(b.url, t.tableId, t.invite.token, 'Ann');
    const gm = await connectAs(a.wsUrl, t.tableId, t.gm.token);
    const annOnB = await connectAs(b.wsUrl, t.tableId, ann.token);
    const observerOnB = await connectAs(b.wsUrl, t.tableId, t.observer.token);

    // Both nodes write to the same table at once: every command is applied, none answered `conflict`.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0 ? gm.client.command(`g${i}`, { type: 'roll', count: 2 }) : annOnB.client.command(`a${i}`, { type: 'roll', count: 2 }),
      ),
    );
    expect(answers.map((m) => m.type)).toEqual(Array(20).fill('ack'));
    const acked = answers.flatMap((m) => [m.firstSeq as number]).sort((x, y) => x - y);
    expect(acked).toEqual(contiguous(20));

    for (const c of [gm.client, annOnB.client, observerOnB.client]) await until(() => seqs(c).length >= 20, WAIT_MS, 'all 20 events');
    await sleep(100);
    for (const c of [gm.client, annOnB.client, observerOnB.client]) expect(seqs(c)).toEqual(contiguous(20));
    // Rolls are public: everyone holds the very same events in the same order.
    const gmEvents = gm.client.events().map((e) => e.event);
    expect(annOnB.client.events().map((e) => e.event)).toEqual(gmEvents);
    expect(observerOnB.client.events().map((e) => e.event)).toEqual(gmEvents);
    // And they are the database's log.
    const stored = await a.store.readEvents(t.tableId, 0);
    expect(stored.map((e) => e.event)).toEqual(gmEvents);

    for (const c of [gm.client, annOnB.client, observerOnB.client]) c.close();
  }, 60_000);

  it('a command naming a version that another node has moved past is refused with conflict', async () => {
    const t = await createTable(a.url);
    const gm = await connectAs(a.wsUrl, t.tableId, t.gm.token);
    const gmOnB = await connectAs(b.wsUrl, t.tableId, t.gm.token);
    expect((await gm.client.command('c1', { type: 'roll', count: 1 })).type).toBe('ack');
    await gmOnB.client.untilSeq(1);
    // Both decide against version 1; whichever is stored second is refused, the other applied.
    const [x, y] = await Promise.all([
      gm.client.command('c2', { type: 'roll', count: 1 }, { expectedVersion: 1 }),
      gmOnB.client.command('c3', { type: 'roll', count: 1 }, { expectedVersion: 1 }),
    ]);
    expect([x.type, y.type].sort()).toEqual(['ack', 'error']);
    expect([x, y].find((m) => m.type === 'error')).toMatchObject({ code: 'conflict' });
    expect((await a.store.getTable(t.tableId))!.version).toBe(2);
    gm.client.close();
    gmOnB.client.close();
  }, 60_000);

  it('a removed player and a replaced observer link are disconnected on every node', async () => {
    const t = await createTable(a.url);
    const ann = await joinTable(a.url, t.tableId, t.invite.token, 'Ann');
    const bob = await joinTable(a.url, t.tableId, t.invite.token, 'Bob');
    const annOnB = await connectAs(b.wsUrl, t.tableId, ann.token);
    const bobOnB = await connectAs(b.wsUrl, t.tableId, bob.token);
    const observerOnB = await connectAs(b.wsUrl, t.tableId, t.observer.token);
    // A player joining through node A is announced to node B's clients.
    const cid = await joinTable(a.url, t.tableId, t.invite.token, 'Cid');
    expect(await bobOnB.client.waitFor((m) => m.type === 'participant-joined')).toMatchObject({
      participant: { id: cid.participantId, role: 'player', displayName: 'Cid' },
    });

    const removed = await http(a.url, 'DELETE', `/api/tables/${t.tableId}/participants/${ann.participantId}`, { token: t.gm.token });
    expect(removed.status).toBe(200);
    expect((await annOnB.client.closed).code).toBe(4003);
    // Bob stays, and learns that Ann left.
    expect(await bobOnB.client.waitFor((m) => m.type === 'participant-left')).toMatchObject({ participantId: ann.participantId });
    expect(bobOnB.client.closeInfo).toBeNull();

    const rotated = await http(a.url, 'POST', `/api/tables/${t.tableId}/links/observer/rotate`, { token: t.gm.token });
    expect(rotated.status).toBe(200);
    expect((await observerOnB.client.closed).code).toBe(4003);
    expect(bobOnB.client.closeInfo).toBeNull();

    // The settings reach node B's clients too.
    const patched = await http(a.url, 'PATCH', `/api/tables/${t.tableId}/settings`, { token: t.gm.token, body: { physicalDice: true } });
    expect(patched.status).toBe(200);
    expect(await bobOnB.client.waitFor((m) => m.type === 'settings')).toMatchObject({ settings: { physicalDice: true } });
    bobOnB.client.close();
  }, 60_000);

  it('events sent while a listening connection was cut reach its clients once it is back', async () => {
    const t = await createTable(a.url);
    const gm = await connectAs(a.wsUrl, t.tableId, t.gm.token);
    const gmOnB = await connectAs(b.wsUrl, t.tableId, t.gm.token);
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      const cut = await admin.query('SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = $1', [
        `${schema}-b`,
      ]);
      expect(cut.rows).toEqual([{ done: true }]);
      for (let i = 0; i < 10; i++) expect((await gm.client.command(`k${i}`, { type: 'roll', count: 1 })).type).toBe('ack');
      await until(() => seqs(gmOnB.client).length >= 10, WAIT_MS, 'the events on node B');
      expect(seqs(gmOnB.client)).toEqual(contiguous(10));
      // A new listening connection takes the place of the one cut (the periodic check may have
      // brought the events before it is back).
      const listeners = async () => (await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [`${schema}-b`])).rows[0].n as number;
      const deadline = Date.now() + WAIT_MS;
      while ((await listeners()) === 0 && Date.now() < deadline) await sleep(50);
      expect(await listeners()).toBe(1);
    } finally {
      await admin.end();
    }
    gm.client.close();
    gmOnB.client.close();
  }, 60_000);

  it('a listening connection that stops answering is replaced by the keep-alive, and the node catches up', async () => {
    // Node C listens through a relay; its periodic check is far off, so only a new listening
    // connection (and the check it triggers) can bring it the events it was not told of.
    const relay = await freezableRelay();
    const c = await startNode(schema, 'c', { listenerConnectionString: relay.url, keepAliveMs: 200 }, 600_000);
    try {
      const t = await createTable(a.url);
      const gm = await connectAs(a.wsUrl, t.tableId, t.gm.token);
      const gmOnC = await connectAs(c.wsUrl, t.tableId, t.gm.token);
      expect((await gm.client.command('s0', { type: 'roll', count: 1 })).type).toBe('ack');
      await gmOnC.client.untilSeq(1);
      expect(relay.connections()).toBe(1);

      // The listening connection hangs: no error, no end, no notices.
      relay.freeze();
      const frozenAt = Date.now();
      for (let i = 1; i <= 5; i++) expect((await gm.client.command(`s${i}`, { type: 'roll', count: 1 })).type).toBe('ack');
      await until(() => seqs(gmOnC.client).length >= 6, WAIT_MS, 'the events on node C');
      expect(seqs(gmOnC.client)).toEqual(contiguous(6));
      // A new listening connection replaced the hung one, long before the periodic check would have
      // come (on a busy machine a slow keep-alive answer may have replaced a live one as well).
      expect(relay.connections()).toBeGreaterThanOrEqual(2);
      expect(Date.now() - frozenAt).toBeLessThan(60_000);

      // And it is live: the next event reaches node C by notice.
      expect((await gm.client.command('s6', { type: 'roll', count: 1 })).type).toBe('ack');
      await gmOnC.client.untilSeq(7);
      expect(seqs(gmOnC.client)).toEqual(contiguous(7));
      gm.client.close();
      gmOnC.client.close();
    } finally {
      await c.server.close();
      await c.store.close();
      await relay.close();
    }
  }, 60_000);

  it('a client that moves to another node resumes from where it was, with nothing missing or repeated', async () => {
    const t = await createTable(a.url);
    const gm = await connectAs(a.wsUrl, t.tableId, t.gm.token);
    const ann = await joinTable(a.url, t.tableId, t.invite.token, 'Ann');
    const annOnA = await connectAs(a.wsUrl, t.tableId, ann.token);
    // Node B has the table in memory already, at version 0.
    const observerOnB = await connectAs(b.wsUrl, t.tableId, t.observer.token);
    for (let i = 0; i < 5; i++) await gm.client.command(`m${i}`, { type: 'roll', count: 1 });
    await annOnA.client.untilSeq(5);
    annOnA.client.close();
    for (let i = 5; i < 8; i++) await gm.client.command(`m${i}`, { type: 'roll', count: 1 });
    const annOnB = await connectAs(b.wsUrl, t.tableId, ann.token, 5);
    expect(annOnB.welcome.resync).toBeUndefined();
    await annOnB.client.untilSeq(8);
    expect(seqs(annOnB.client)).toEqual([6, 7, 8]);
    await observerOnB.client.untilSeq(8);
    expect(seqs(observerOnB.client)).toEqual(contiguous(8));
    observerOnB.client.close();
    gm.client.close();
    annOnB.client.close();
  }, 60_000);
  it('a node reads no event it wrote itself, and reads what another node wrote once per notice at most', async () => {
    // Two nodes of their own whose reads of the event log are counted, and those that found nothing.
    const reads = { c: 0, d: 0 };
    const emptyReads = { c: 0, d: 0 };
    // A catch-up's first read goes with the other tables waiting at the same moment (`readAfter`):
    // each table in it counts as one read.
    const counting = (name: 'c' | 'd') => (store: Store): Store => ({
      ...store,
      readEvents: async (...args: Parameters<Store['readEvents']>) => {
        reads[name]++;
        const found = await store.readEvents(...args);
        if (found.length === 0) emptyReads[name]++;
        return found;
      },
      fanout: {
        ...store.fanout!,
        readAfter: async (...args: Parameters<NonNullable<Store['fanout']>['readAfter']>) => {
          const found = await store.fanout!.readAfter(...args);
          reads[name] += found.length;
          emptyReads[name] += found.filter((page) => page.length === 0).length;
          return found;
        },
      },
    });
    const c = await startNode(schema, 'c', {}, 300, counting('c'));
    const d = await startNode(schema, 'd', {}, 300, counting('d'));
    try {
      const t = await createTable(c.url);
      const gmOnC = await connectAs(c.wsUrl, t.tableId, t.gm.token);
      const ann = await joinTable(c.url, t.tableId, t.invite.token, 'Ann');
      const annOnC = await connectAs(c.wsUrl, t.tableId, ann.token);
      const observerOnD = await connectAs(d.wsUrl, t.tableId, t.observer.token);
      const before = { ...reads };
      const emptyBefore = { ...emptyReads };
      // The GM's one after another, and then a burst of Ann's sent at once.
      const oneByOne = 20;
      const atOnce = 8;
      const n = oneByOne + atOnce;
      for (let i = 0; i < oneByOne; i++) expect((await gmOnC.client.command(`r${i}`, { type: 'roll', count: 1 })).type).toBe('ack');
      const burst = await Promise.all(Array.from({ length: atOnce }, (_, i) => annOnC.client.command(`b${i}`, { type: 'roll', count: 1 })));
      expect(burst.map((m) => m.type)).toEqual(Array(atOnce).fill('ack'));
      await observerOnD.client.untilSeq(n);
      await sleep(700);
      expect(reads.c - before.c).toBe(0);
      // Node d reads each event once, and never for nothing: notices that come while a catch-up is
      // waiting or reading are folded into it, and the periodic check skips what a notice caught up.
      const readByD = reads.d - before.d;
      expect(readByD).toBeGreaterThan(0);
      expect(readByD).toBeLessThanOrEqual(n);
      expect(emptyReads.d - emptyBefore.d).toBe(0);
      expect(seqs(observerOnD.client)).toEqual(contiguous(n));
      for (const x of [gmOnC, annOnC, observerOnD]) x.client.close();
    } finally {
      for (const node of [c, d]) {
        await node.server.close();
        await node.store.close();
      }
    }
  }, 60_000);

  it('hellos for many tables not yet loaded, arriving together, load them all in one batch of queries, each client welcomed at its own table', async () => {
    // A node of its own whose reads of tables are counted: the batch loads and the one-table reads.
    const batches: string[][] = [];
    const single = { getTable: 0, listParticipants: 0, readEvents: 0 };
    const counting = (store: Store): Store => ({
      ...store,
      loadTables: async (ids, limit) => {
        batches.push([...ids]);
        return store.loadTables(ids, limit);
      },
      getTable: async (id) => (single.getTable++, store.getTable(id)),
      listParticipants: async (id) => (single.listParticipants++, store.listParticipants(id)),
      readEvents: async (...args) => (single.readEvents++, store.readEvents(...args)),
    });
    // Tables with logs of different lengths (the first none), written through node A.
    const n = 12;
    const tables: Array<{ tableId: string; token: string; name: string; events: number }> = [];
    for (let i = 0; i < n; i++) {
      const name = `Batch ${i}`;
      const t = await createTable(a.url, { name });
      const gm = await connectAs(a.wsUrl, t.tableId, t.gm.token);
      for (let k = 0; k < i; k++) expect((await gm.client.command(`r${k}`, { type: 'roll', count: 1 })).type).toBe('ack');
      gm.client.close();
      tables.push({ tableId: t.tableId, token: t.gm.token, name, events: i });
    }
    const e = await startNode(schema, 'e', {}, 60_000, counting);
    try {
      const clients = await Promise.all(tables.map(() => TestClient.connect(e.wsUrl)));
      const stranger = await TestClient.connect(e.wsUrl);
      // Every hello sent at once, one of them for a table that does not exist.
      const welcomes = tables.map((t, i) => clients[i]!.hello(t.tableId, t.token));
      const refused = stranger.hello('t_missing', tables[0]!.token);
      const answers = await Promise.all(welcomes);
      expect(batches).toHaveLength(1);
      expect([...batches[0]!].sort()).toEqual([...tables.map((t) => t.tableId), 't_missing'].sort());
      expect(single).toEqual({ getTable: 0, listParticipants: 0, readEvents: 0 });
      answers.forEach((welcome, i) => {
        expect(welcome).toMatchObject({ type: 'welcome', tableId: tables[i]!.tableId, table: { name: tables[i]!.name }, version: tables[i]!.events, you: { role: 'gm' } });
      });
      expect(await refused).toMatchObject({ type: 'error', code: 'table_not_found' });
      // The tables loaded from the batch go on as loaded one by one: a command is decided at the next seq.
      const last = tables[n - 1]!;
      expect(await clients[n - 1]!.command('after', { type: 'roll', count: 1 })).toMatchObject({ type: 'ack' });
      await clients[n - 1]!.untilSeq(last.events + 1);
      for (const c of [...clients, stranger]) c.close();
    } finally {
      await e.server.close();
      await e.store.close();
    }
  }, 60_000);

  it('an event another node appends while a table is being loaded reaches the clients without waiting for the periodic check', async () => {
    const t = await createTable(a.url);
    const gmOnA = await connectAs(a.wsUrl, t.tableId, t.gm.token);
    for (let k = 0; k < 2; k++) expect((await gmOnA.client.command(`r${k}`, { type: 'roll', count: 1 })).type).toBe('ack');
    // Node E's load of the table has read the store but not finished; meanwhile node A appends, and
    // its notice reaches E.
    let readDone!: () => void;
    const read = new Promise<void>((resolve) => (readDone = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const wakes: number[] = [];
    const holding = (store: Store): Store => ({
      ...store,
      loadTables: async (ids, limit) => {
        const loads = await store.loadTables(ids, limit);
        readDone();
        await released;
        return loads;
      },
      fanout: {
        ...store.fanout!,
        listen: (handlers) => store.fanout!.listen({ ...handlers, wake: (wake) => (wakes.push(wake.version), handlers.wake(wake)) }),
      },
    });
    // The periodic check is a minute away: only the notice can bring the event.
    const e = await startNode(schema, 'e2', {}, 60_000, holding);
    try {
      const gmOnE = await TestClient.connect(e.wsUrl);
      const welcome = gmOnE.hello(t.tableId, t.gm.token, 0);
      await read;
      expect((await gmOnA.client.command('during', { type: 'roll', count: 1 })).type).toBe('ack');
      await until(() => wakes.includes(3), WAIT_MS, 'the notice of event 3 at node E');
      release();
      // Welcomed at version 2 and sent event 3 after, or welcomed at 3 after catching up first.
      expect(await welcome).toMatchObject({ type: 'welcome', tableId: t.tableId });
      await gmOnE.untilSeq(3);
      expect(seqs(gmOnE)).toEqual(contiguous(3));
      gmOnE.close();
    } finally {
      release();
      await e.server.close();
      await e.store.close();
      gmOnA.client.close();
    }
  }, 60_000);

  it('the check for missed notices answers only for the tables that moved past the marks a node holds', async () => {
    const [moved, still, setupChanged] = [await createTable(a.url), await createTable(a.url), await createTable(a.url)];
    const ids = [moved.tableId, still.tableId, setupChanged.tableId];
    const fanout = a.store.fanout!;
    const held = await fanout.marks(ids);
    const gm = await connectAs(a.wsUrl, moved.tableId, moved.gm.token);
    expect((await gm.client.command('m1', { type: 'roll', count: 1 })).type).toBe('ack');
    gm.client.close();
    await joinTable(a.url, setupChanged.tableId, setupChanged.invite.token, 'Ann');
    const behind = await fanout.behind(new Map([...held, ['t_missing', { version: 0, setupVersion: 0 }]]));
    expect([...behind.keys()].sort()).toEqual([moved.tableId, setupChanged.tableId].sort());
    expect(behind.get(moved.tableId)).toEqual({ version: held.get(moved.tableId)!.version + 1, setupVersion: held.get(moved.tableId)!.setupVersion });
    expect(behind.get(setupChanged.tableId)!.setupVersion).toBeGreaterThan(held.get(setupChanged.tableId)!.setupVersion);
    // Marks already current: nothing comes back.
    expect((await fanout.behind(await fanout.marks(ids))).size).toBe(0);
  }, 60_000);

  it('reads the events after a seq of several tables in one query, each request on its own, cut at the limit', async () => {
    const [busy, quiet] = [await createTable(a.url), await createTable(a.url)];
    const gm = await connectAs(a.wsUrl, busy.tableId, busy.gm.token);
    for (let i = 0; i < 5; i++) expect((await gm.client.command(`ra${i}`, { type: 'roll', count: 1 })).type).toBe('ack');
    gm.client.close();
    const stored = await a.store.readEvents(busy.tableId, 0);
    const pages = await a.store.fanout!.readAfter(
      [
        { tableId: busy.tableId, afterSeq: 2 },
        { tableId: quiet.tableId, afterSeq: 0 },
        { tableId: 't_missing', afterSeq: 0 },
        { tableId: busy.tableId, afterSeq: 0 },
        { tableId: busy.tableId, afterSeq: 5 },
      ],
      3,
    );
    expect(pages.map((page) => page.map((e) => e.seq))).toEqual([[3, 4, 5], [], [], [1, 2, 3], []]);
    expect(pages[0]).toEqual(stored.slice(2, 5));
    expect(await a.store.fanout!.readAfter([], 3)).toEqual([]);
  }, 60_000);

  it('tables another node wrote to while a catch-up read was running are caught up in one read', async () => {
    // Node g's first catch-up read is held until the notices of five more tables have come in.
    const batches: number[] = [];
    let single = 0;
    let wakes = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const counting = (store: Store): Store => ({
      ...store,
      readEvents: async (...args: Parameters<Store['readEvents']>) => {
        single++;
        return store.readEvents(...args);
      },
      fanout: {
        ...store.fanout!,
        listen: (handlers) => store.fanout!.listen({ ...handlers, wake: (wake) => (wakes++, handlers.wake(wake)) }),
        readAfter: async (...args: Parameters<NonNullable<Store['fanout']>['readAfter']>) => {
          batches.push(args[0].length);
          if (batches.length === 1) await gate;
          return store.fanout!.readAfter(...args);
        },
      },
    });
    const g = await startNode(schema, 'g', {}, 60_000, counting);
    try {
      const tables = await Promise.all(Array.from({ length: 6 }, () => createTable(a.url)));
      const writers = await Promise.all(tables.map((t) => connectAs(a.wsUrl, t.tableId, t.gm.token)));
      const watchers = await Promise.all(tables.map((t) => connectAs(g.wsUrl, t.tableId, t.observer.token)));
      batches.length = 0;
      single = 0;
      wakes = 0;
      expect((await writers[0]!.client.command('first', { type: 'roll', count: 1 })).type).toBe('ack');
      await until(() => batches.length === 1, WAIT_MS, 'the first catch-up read');
      const acks = await Promise.all(writers.slice(1).map((w, i) => w.client.command(`next${i}`, { type: 'roll', count: 1 })));
      expect(acks.map((m) => m.type)).toEqual(Array(5).fill('ack'));
      await until(() => wakes >= 6, WAIT_MS, 'the notices of the six tables');
      release();
      await Promise.all(watchers.map((w) => w.client.untilSeq(1)));
      expect(batches).toEqual([1, 5]);
      expect(single).toBe(0);
      for (const w of watchers) expect(seqs(w.client)).toEqual([1]);
      for (const x of [...writers, ...watchers]) x.client.close();
    } finally {
      release();
      await g.server.close();
      await g.store.close();
    }
  }, 60_000);

  it('an append holding its table row is handed the events it missed, and other appends to the table lose at once instead of waiting', async () => {
    const t = await createTable(a.url);
    const gm = await connectAs(a.wsUrl, t.tableId, t.gm.token);
    for (let i = 0; i < 3; i++) expect((await gm.client.command(`h${i}`, { type: 'roll', count: 1 })).type).toBe('ack');
    gm.client.close();
    const stored = await a.store.readEvents(t.tableId, 0);
    const at = new Date().toISOString();
    const record = (seq: number, commandId: string) => ({ seq, at, participantId: 'p_x', commandId, event: { type: 'note', text: commandId } });
    const command = (commandId: string, version: number) => ({
      participantId: 'p_x',
      commandId,
      commandHash: commandId,
      firstSeq: version + 1,
      lastSeq: version + 1,
      versionAfter: version + 1,
      at,
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let missed: number[] = [];
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const locked = a.store.fanout!.appendLocked(t.tableId, 1, async (events) => {
      missed = events.map((e) => e.seq);
      holding();
      await gate;
      return { events: [record(4, 'held')], command: command('held', 3) };
    });
    await held;
    expect(missed).toEqual([2, 3]);
    // Node b appends to the table while a holds its row: refused as a lost race, without waiting
    // (a wait would last until the gate opens, after this answer).
    expect(await b.store.appendEvents(t.tableId, 3, [record(4, 'other')], command('other', 3))).toEqual({ ok: false, reason: 'conflict' });
    release();
    expect(await locked).toEqual({ ok: true });
    const after = await a.store.readEvents(t.tableId, 0);
    expect(after.slice(0, 3)).toEqual(stored);
    expect(after.map((e) => e.commandId)).toEqual(['h0', 'h1', 'h2', 'held']);
    // Deciding nothing stores nothing; a decision with the same command id again is a duplicate.
    expect(await a.store.fanout!.appendLocked(t.tableId, 4, async () => null)).toBeNull();
    expect(await a.store.fanout!.appendLocked(t.tableId, 4, async () => ({ events: [record(5, 'held')], command: command('held', 4) }))).toEqual({
      ok: false,
      reason: 'duplicate_command',
    });
    expect((await a.store.getTable(t.tableId))!.version).toBe(4);
    // A decision that throws undoes the transaction and releases the row.
    await expect(a.store.fanout!.appendLocked(t.tableId, 4, async () => Promise.reject(new Error('decide failed')))).rejects.toThrow('decide failed');
    expect(await b.store.appendEvents(t.tableId, 4, [record(5, 'after')], command('after', 4))).toEqual({ ok: true });
    // An append that lost (its version is past) does not hold the row while the rest of its batch
    // runs: another append at the right version is stored meanwhile.
    const open = new pg.Client({ connectionString: PG_URL });
    await open.connect();
    try {
      await open.query('BEGIN');
      const lost = await open.query<{ r: string[] }>(
        `SELECT "${schema}".append_batch($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) AS r`,
        [[t.tableId], [3], ['p_x'], ['stale'], ['stale'], [4], [4], [4], [at], [1], [4], [at], ['p_x'], ['stale'], ['{"type":"note","text":"stale"}'], 0],
      );
      expect(lost.rows[0]!.r).toEqual(['conflict']);
      expect(await b.store.appendEvents(t.tableId, 5, [record(6, 'beside')], command('beside', 5))).toEqual({ ok: true });
    } finally {
      await open.query('ROLLBACK').catch(() => undefined);
      await open.end();
    }
  }, 60_000);

  it('a command that lost the race is decided again holding the table row, with the events it missed, and stored at the first retry', async () => {
    // Node h's first append of each command loses, as if another node had just overtaken it.
    const calls = { appends: 0, locked: 0 };
    let lose = 0;
    const losing = (store: Store): Store => ({
      ...store,
      appendEvents: async (...args: Parameters<Store['appendEvents']>) => {
        calls.appends++;
        if (lose > 0) {
          lose--;
          return { ok: false, reason: 'conflict' };
        }
        return store.appendEvents(...args);
      },
      fanout: {
        ...store.fanout!,
        appendLocked: async (...args: Parameters<NonNullable<Store['fanout']>['appendLocked']>) => {
          calls.locked++;
          return store.fanout!.appendLocked(...args);
        },
      },
    });
    const h = await startNode(schema, 'h', {}, 60_000, losing);
    try {
      const t = await createTable(a.url);
      const ann = await joinTable(a.url, t.tableId, t.invite.token, 'Ann');
      const gmOnA = await connectAs(a.wsUrl, t.tableId, t.gm.token);
      const annOnH = await connectAs(h.wsUrl, t.tableId, ann.token);
      expect((await gmOnA.client.command('x1', { type: 'roll', count: 1 })).type).toBe('ack');
      await annOnH.client.untilSeq(1);
      // Node a stores a second event that h has not read when it decides Ann's roll.
      lose = 1;
      calls.appends = 0;
      calls.locked = 0;
      expect((await gmOnA.client.command('x2', { type: 'roll', count: 1 })).type).toBe('ack');
      const ack = await annOnH.client.command('x3', { type: 'roll', count: 1 });
      expect(ack).toMatchObject({ type: 'ack', firstSeq: 3, lastSeq: 3 });
      expect(calls).toEqual({ appends: 1, locked: 1 });
      await annOnH.client.untilSeq(3);
      await gmOnA.client.untilSeq(3);
      expect(seqs(annOnH.client)).toEqual([1, 2, 3]);
      expect(gmOnA.client.events().map((e) => e.event)).toEqual(annOnH.client.events().map((e) => e.event));
      // A command naming its version is still refused, without holding the row.
      lose = 1;
      calls.locked = 0;
      expect(await annOnH.client.command('x4', { type: 'roll', count: 1 }, { expectedVersion: 3 })).toMatchObject({ type: 'error', code: 'conflict' });
      expect(calls.locked).toBe(0);
      for (const x of [gmOnA, annOnH]) x.client.close();
    } finally {
      await h.server.close();
      await h.store.close();
    }
  }, 60_000);

  it('two nodes writing to one table as fast as they can store every command once, none answered conflict', async () => {
    const t = await createTable(a.url);
    const ann = await joinTable(a.url, t.tableId, t.invite.token, 'Ann');
    const gmOnA = await connectAs(a.wsUrl, t.tableId, t.gm.token);
    const annOnB = await connectAs(b.wsUrl, t.tableId, ann.token);
    // 15 each: a connection has at most 16 commands waiting.
    const n = 30;
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) => (i % 2 === 0 ? gmOnA : annOnB).client.command(`f${i}`, { type: 'roll', count: 1 })),
    );
    expect(answers.filter((m) => m.type !== 'ack')).toEqual([]);
    expect(answers.map((m) => m.firstSeq as number).sort((x, y) => x - y)).toEqual(contiguous(n));
    for (const c of [gmOnA.client, annOnB.client]) await c.untilSeq(n);
    const stored = await a.store.readEvents(t.tableId, 0);
    for (const c of [gmOnA.client, annOnB.client]) {
      expect(seqs(c)).toEqual(contiguous(n));
      expect(c.events().map((e) => e.event)).toEqual(stored.map((e) => e.event));
    }
    for (const x of [gmOnA, annOnB]) x.client.close();
  }, 60_000);

  it('a hello that came in time is answered even when loading its table takes longer than the time given to say hello', async () => {
    const t = await createTable(a.url);
    const slow = (store: Store): Store => ({
      ...store,
      loadTables: async (ids, limit) => {
        await sleep(3000);
        return store.loadTables(ids, limit);
      },
    });
    // The hello is sent as soon as the socket opens; a second gives a busy machine time to send it.
    const f = await startNode(schema, 'f', {}, 60_000, slow, { helloTimeoutMs: 1000 });
    try {
      const gm = await TestClient.connect(f.wsUrl);
      expect(await gm.hello(t.tableId, t.gm.token)).toMatchObject({ type: 'welcome', tableId: t.tableId });
      expect(await gm.command('after', { type: 'roll', count: 1 })).toMatchObject({ type: 'ack', firstSeq: 1 });
      gm.close();
      // A connection that says nothing is still closed.
      const silent = await TestClient.connect(f.wsUrl);
      expect((await silent.closed).code).toBe(4008);
    } finally {
      await f.server.close();
      await f.store.close();
    }
  }, 60_000);

  it('a command whose first node went away before answering is answered by the other from the stored record, once', async () => {
    const t = await createTable(a.url);
    // Node B holds the table in memory already, at version 0.
    const gmOnB = await connectAs(b.wsUrl, t.tableId, t.gm.token);
    const gmId = gmOnB.welcome.you.participantId as string;
    const ids: string[] = [];
    // The connection to node A goes away at different moments: before A reads the command, while A
    // stores it, after A stored it. Whichever node stores it, the ack names the stored events.
    for (let i = 0; i < 8; i++) {
      const commandId = `gone${i}`;
      ids.push(commandId);
      const gmOnA = await connectAs(a.wsUrl, t.tableId, t.gm.token);
      gmOnA.client.send({ type: 'command', commandId, command: { type: 'roll', count: 2 } });
      if (i % 2 === 0) gmOnA.client.ws.terminate();
      else gmOnA.client.close();
      await sleep(i * 4);
      const answer = await gmOnB.client.command(commandId, { type: 'roll', count: 2 });
      expect(answer, commandId).toMatchObject({ type: 'ack' });
      const stored = await b.store.getCommand(t.tableId, gmId, commandId);
      expect(stored, commandId).not.toBeNull();
      expect(answer.firstSeq, commandId).toBe(stored!.firstSeq);
      expect(answer.lastSeq, commandId).toBe(stored!.lastSeq);
    }
    // Each command is in the log once, in the order sent.
    const log = await a.store.readEvents(t.tableId, 0);
    expect(log.map((e) => e.commandId)).toEqual(ids);
    await gmOnB.client.untilSeq(ids.length);
    await sleep(100);
    expect(seqs(gmOnB.client)).toEqual(contiguous(ids.length));
    expect(gmOnB.client.events().map((e) => e.event)).toEqual(log.map((e) => e.event));
    gmOnB.client.close();
  }, 60_000);
});
