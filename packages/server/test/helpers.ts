import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import WebSocket from 'ws';
import { loadSheet } from '@personae/rules';
import type { Decider } from '../src/domain';
import { createServer, type ServerConfig, type TableServer } from '../src/server';
import { openPostgresStore, openSqliteStore, type CommandRecord, type EventRecord, type NewTable, type Store } from '../src/store';

export const PG_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function pgReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Whether to run the PostgreSQL tests: when PostgreSQL answers, and always under CI (where an
 * unreachable database must fail the run instead of skipping tests).
 */
export const runPg = (await pgReachable()) || Boolean(process.env.CI);

export function uniqueSchema(): string {
  return `srvtest_${process.pid}_${randomBytes(4).toString('hex')}`;
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  try {
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export type StoreKind = 'sqlite' | 'postgres';

export interface TestStore {
  store: Store;
  /** The SQLite data directory or the PostgreSQL schema. */
  location: string;
  cleanup(): Promise<void>;
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'personae-server-'));
}

export async function openTestStore(kind: StoreKind): Promise<TestStore> {
  if (kind === 'sqlite') {
    const dir = tempDir();
    const result: TestStore = {
      store: await openSqliteStore({ file: join(dir, 'personae.sqlite') }),
      location: dir,
      async cleanup() {
        await result.store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
    return result;
  }
  const schema = uniqueSchema();
  const result: TestStore = {
    store: await openPostgresStore({ connectionString: PG_URL, schema, maxConnections: 4 }),
    location: schema,
    async cleanup() {
      await result.store.close();
      await dropSchema(schema);
    },
  };
  return result;
}

/** Opens the store at a location `openTestStore` made again (after the first one was closed). */
export function reopenTestStore(kind: StoreKind, location: string): Promise<Store> {
  return kind === 'sqlite'
    ? openSqliteStore({ file: join(location, 'personae.sqlite') })
    : openPostgresStore({ connectionString: PG_URL, schema: location, maxConnections: 4 });
}

/**
 * Limits raised far above what a test's bursts need, for tests about ordering, durability and
 * throughput rather than about the limits themselves.
 */
export function relaxedLimits(perSecond = 10_000): ServerConfig {
  return {
    rateLimit: { burst: perSecond, perSecond },
    commandRate: { burst: perSecond, perSecond },
    tableCommandRate: { burst: perSecond, perSecond },
    maxQueuedMessages: perSecond,
    createRate: { max: perSecond, windowMs: 60_000 },
    importRate: { max: perSecond, windowMs: 60_000 },
    joinRate: { max: perSecond, windowMs: 60_000 },
    portraitRate: { max: perSecond, windowMs: 60_000 },
  };
}

/** The same as environment variables, for a server started as a process. */
export function relaxedLimitsEnv(perSecond = 10_000): Record<string, string> {
  const n = String(perSecond);
  return {
    RATE_LIMIT_BURST: n,
    RATE_LIMIT_PER_SECOND: n,
    COMMAND_RATE_BURST: n,
    COMMAND_RATE_PER_SECOND: n,
    TABLE_COMMAND_RATE_BURST: n,
    TABLE_COMMAND_RATE_PER_SECOND: n,
    MAX_QUEUED_MESSAGES: n,
    CREATE_RATE_PER_MINUTE: n,
    IMPORT_RATE_PER_MINUTE: n,
    JOIN_RATE_PER_MINUTE: n,
    PORTRAIT_RATE_PER_MINUTE: n,
  };
}

export interface Running {
  server: TableServer;
  url: string;
  wsUrl: string;
  store: Store;
  close(): Promise<void>;
}

/** A server on a fresh store: hosting `decider` alone, or every registered ruleset when it is left out. */
export async function startServer<S, C, E>(
  decider?: Decider<S, C, E>,
  options: { kind?: StoreKind; config?: ServerConfig } = {},
): Promise<Running> {
  const testStore = await openTestStore(options.kind ?? 'sqlite');
  const server = await createServer(
    { host: '127.0.0.1', port: 0, logLevel: 'silent', ...options.config, store: testStore.store },
    decider,
  );
  const { url } = await server.listen();
  return {
    server,
    url,
    wsUrl: `${url.replace('http', 'ws')}/ws`,
    store: testStore.store,
    async close() {
      await server.close();
      await testStore.cleanup();
    },
  };
}

export interface HttpResult {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

export async function http(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; rawBody?: string } = {},
): Promise<HttpResult> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) {
    body = options.rawBody;
    headers['content-type'] = 'application/json';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

export interface CreatedTable {
  tableId: string;
  gm: { participantId: string; token: string; link: string };
  invite: { token: string; link: string };
  observer: { token: string; link: string };
}

export async function createTable(base: string, body: unknown = { name: 'Test table' }): Promise<CreatedTable> {
  const res = await http(base, 'POST', '/api/tables', { body });
  if (res.status !== 201) throw new Error(`create table: ${res.status} ${res.text}`);
  return res.body as CreatedTable;
}

export async function joinTable(
  base: string,
  tableId: string,
  invite: string,
  displayName: string,
): Promise<{ participantId: string; token: string }> {
  const res = await http(base, 'POST', `/api/tables/${tableId}/join`, { body: { invite, displayName } });
  if (res.status !== 201) throw new Error(`join: ${res.status} ${res.text}`);
  return res.body as { participantId: string; token: string };
}

type Message = Record<string, any>;

/** How long a test waits for something the server is expected to send. */
export const WAIT_MS = 15_000;

/** A WebSocket client that records every frame and lets a test wait for messages. */
export class TestClient {
  readonly frames: string[] = [];
  readonly messages: Message[] = [];
  private readonly taken = new Set<number>();
  private waiters: Array<() => void> = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  closeInfo: { code: number; reason: string } | null = null;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = data.toString();
      this.frames.push(text);
      this.messages.push(JSON.parse(text) as Message);
      this.wake();
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.closeInfo = { code, reason: reason.toString() };
        resolve(this.closeInfo);
        this.wake();
      });
    });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  static connect(wsUrl: string): Promise<TestClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(wsUrl);
      const client = new TestClient(ws);
      ws.once('open', () => resolve(client));
      ws.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /**
   * The first message not yet taken that matches, waiting up to `timeoutMs` (long enough for a busy
   * 2-core machine running other suites; a message that comes returns at once).
   */
  async waitFor(pred: (m: Message) => boolean, timeoutMs = WAIT_MS): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (let i = 0; i < this.messages.length; i++) {
        if (!this.taken.has(i) && pred(this.messages[i]!)) {
          this.taken.add(i);
          return this.messages[i]!;
        }
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`timed out waiting for a message; received: ${this.frames.slice(-5).join('\n')}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async hello(tableId: string, token: string, since?: number): Promise<Message> {
    this.send({ type: 'hello', tableId, token, ...(since === undefined ? {} : { since }) });
    return this.waitFor((m) => m.type === 'welcome' || m.type === 'error');
  }

  /** Sends a command and waits for its ack or error. */
  async command(commandId: string, command: unknown, extra: Record<string, unknown> = {}): Promise<Message> {
    this.send({ type: 'command', commandId, command, ...extra });
    return this.waitFor((m) => (m.type === 'ack' || m.type === 'error') && m.commandId === commandId);
  }

  events(): Message[] {
    return this.messages.filter((m) => m.type === 'event');
  }

  /** Waits until an event with this seq arrived. */
  async untilSeq(seq: number, timeoutMs = WAIT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.events().some((e) => e.seq >= seq)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for seq ${seq}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  close(): void {
    this.ws.close();
  }
}

export async function connectAs(wsUrl: string, tableId: string, token: string, since?: number) {
  const client = await TestClient.connect(wsUrl);
  const welcome = await client.hello(tableId, token, since);
  if (welcome.type !== 'welcome') throw new Error(`hello refused: ${JSON.stringify(welcome)}`);
  return { client, welcome };
}

/** A new table with one player, and the GM, that player and an observer connected over WebSocket. */
export async function seatedTable(srv: Running, body?: unknown, playerName = 'Ann') {
  const table = await createTable(srv.url, body);
  const player = await joinTable(srv.url, table.tableId, table.invite.token, playerName);
  const clients = {
    gm: (await connectAs(srv.wsUrl, table.tableId, table.gm.token)).client,
    player: (await connectAs(srv.wsUrl, table.tableId, player.token)).client,
    observer: (await connectAs(srv.wsUrl, table.tableId, table.observer.token)).client,
  };
  return { table, player, clients };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A character sheet from examples/characters, as plain JSON (what a client sends). */
export function exampleSheet(file: string): Record<string, unknown> {
  const loaded = loadSheet(readFileSync(new URL(`../../../examples/characters/${file}`, import.meta.url), 'utf8'), file);
  if (!loaded.ok) throw new Error(loaded.error.message);
  return JSON.parse(JSON.stringify(loaded.sheet));
}

// One-table fixtures for a store's append path: a table with its GM (`gm` unless named), and
// one-event appends by `gm` whose command id is `c<seq>`.
const FIXTURE_AT = '2026-01-01T00:00:00.000Z';
export const fixtureTable = (id: string, gm = 'gm'): NewTable => ({
  table: { id, name: id, createdAt: FIXTURE_AT, ruleset: 'personae', settings: { physicalDice: false }, version: 0 },
  inviteHash: `invite-${id}`,
  observerHash: `observer-${id}`,
  participants: [{ participant: { id: gm, role: 'gm', displayName: 'GM', joinedAt: FIXTURE_AT, removedAt: null }, tokenHash: `token-${id}` }],
  events: [],
});
export const fixtureEvent = (seq: number, commandId: string): EventRecord => ({ seq, at: FIXTURE_AT, participantId: 'gm', commandId, event: { type: 'noted', seq } });
const fixtureCommand = (seq: number, commandId: string): CommandRecord => ({
  participantId: 'gm',
  commandId,
  commandHash: `hash-${commandId}`,
  firstSeq: seq,
  lastSeq: seq,
  versionAfter: seq,
  at: FIXTURE_AT,
});
/** Appends the event of `seq` (after version seq - 1) with its command `c<seq>`. */
export const appendFixture = (store: Store, tableId: string, seq: number) =>
  store.appendEvents(tableId, seq - 1, [fixtureEvent(seq, `c${seq}`)], fixtureCommand(seq, `c${seq}`));
