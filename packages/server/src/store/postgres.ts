import pg from 'pg';
import {
  assertSequence,
  type AppendResult,
  type CommandRecord,
  type Credential,
  type EventRecord,
  type Fanout,
  type FanoutHandlers,
  type NewTable,
  type ParticipantRecord,
  type Store,
  type TableMarks,
  type TableRecord,
  type TableWake,
} from './types';
import { TimeSlice } from '../yield';
import { intArray, textArray } from './pg-binary';
import { CommitSpacing, DEFAULT_COMMIT_SPACING_MS } from './spacing';
import { toCommand, toEvent, toParticipant, toTable, toTableLoads, type CommandRow, type EventRow, type ParticipantRow, type TableRow } from './rows';

export interface PostgresStoreOptions {
  connectionString: string;
  /** Schema that holds the tables (created if missing); default "public". */
  schema?: string;
  /** Pool size; default 10. */
  maxConnections?: number;
  /** application_name of the connection that listens for other nodes' changes; default "personae-listener". */
  listenerName?: string;
  /**
   * Where the listening connection connects, when not to `connectionString`: LISTEN needs a session
   * of its own, so with the pool behind a transaction-mode pooler it goes to the database directly.
   */
  listenerConnectionString?: string;
  /** How often the listening connection is probed with a query (a dead one is replaced); default 2000 ms. */
  keepAliveMs?: number;
  /** Bytes of payloads per table that a load reads as one value; default LOAD_AGGREGATE_BYTES (32 MiB). */
  loadAggregateBytes?: number;
  /**
   * Least time between the starts of two group commits, in milliseconds (default
   * DEFAULT_COMMIT_SPACING_MS; 0 sends a batch as soon as one of the two that may be on their way
   * is back). Appends made in the meantime wait and go in the next batch: fewer, larger batches cost
   * less CPU per append here and in the database (each batch is a round trip and a commit), at the
   * price of up to this long added to an append's wait when the store is not busy.
   */
  commitSpacingMs?: number;
  /**
   * How a batch's appends are announced to the other nodes (docs/server.md, "Several nodes"):
   * 'append' (the default), a notice per append as every version of the server reads it; 'batch',
   * one notice per batch naming every table it changed (split at NOTICE_BYTES), which only servers
   * of this version or later read: set it once no older node listens on the database.
   */
  notices?: 'append' | 'batch';
}

/**
 * The one notification channel of a schema. Every table shares it (a channel per table would need a
 * LISTEN per table on every node); the payload names the table.
 */
export function channelFor(schema: string): string {
  return `personae_${schema}`.slice(0, 63);
}

/**
 * Bytes of a batch's notice (the pairs after "e "), well under PostgreSQL's 8000-byte payload
 * limit: a batch whose tables need more sends several.
 */
export const NOTICE_BYTES = 6000;

/**
 * Reads a notice sent by append_batch or a setup change: "e <version> <tableId>" or
 * "s <setupVersion> <tableId>", or a batch's "e <version> <tableId> <version> <tableId> ...". Anything
 * else gives no wakes.
 */
export function parseWakes(payload: string): TableWake[] {
  const parts = payload.split(' ');
  const kind = parts[0] === 'e' ? 'events' : parts[0] === 's' ? 'setup' : null;
  if (!kind || parts.length < 3 || parts.length % 2 === 0 || (kind === 'setup' && parts.length !== 3)) return [];
  const wakes: TableWake[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const version = parts[i]!;
    const tableId = parts[i + 1]!;
    if (!/^\d{1,15}$/.test(version) || tableId === '' || /\s/.test(tableId)) return [];
    wakes.push({ kind, version: Number(version), tableId });
  }
  return wakes;
}

/** The one wake of a single-table notice (the format every version sends and reads), or null. */
export function parseWake(payload: string): TableWake | null {
  const wakes = parseWakes(payload);
  return wakes.length === 1 ? wakes[0]! : null;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** How long an append that lost a race waits for its table's row before retrying the usual way. */
const LOCKED_WAIT_MS = 5000;
/** Events a node may read while holding a table's row; one further behind catches up first. */
const LOCKED_CATCH_UP = 1000;
/**
 * Bytes of event payloads one table's row may carry in the loads' aggregated read (see
 * `firstEvents`); the events past them are read row by row. PostgreSQL caps a value at 1 GB and
 * Node a string at about 512 MB.
 */
export const LOAD_AGGREGATE_BYTES = 32 * 1024 * 1024;

/**
 * The loads' read of the events of tables $1 with seq up to $2: a row per table, its payloads as
 * one JSON array text and its other columns as another, of the events whose payloads add up to at
 * most $3 bytes (`n` of the `total` there are). `s`: the quoted schema.
 */
export function firstEventsSql(s: string): string {
  return `SELECT table_id, (count(*) FILTER (WHERE upto <= $3))::int AS n, count(*)::int AS total,
      '[' || string_agg(payload, ',' ORDER BY seq) FILTER (WHERE upto <= $3) || ']' AS payloads,
      '[' || string_agg(json_build_array(seq, at, participant_id, command_id)::text, ',' ORDER BY seq) FILTER (WHERE upto <= $3) || ']' AS details
    FROM (SELECT table_id, seq, at, participant_id, command_id, payload,
            sum(octet_length(payload)) OVER (PARTITION BY table_id ORDER BY seq) AS upto
          FROM ${s}.events WHERE table_id = ANY($1::text[]) AND seq <= $2) e
    GROUP BY table_id`;
}

function schemaSql(s: string, channel: string): string {
  return `
CREATE SCHEMA IF NOT EXISTS ${s};
CREATE TABLE IF NOT EXISTS ${s}.store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS ${s}.tables (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  settings TEXT NOT NULL,
  version INTEGER NOT NULL,
  invite_hash TEXT NOT NULL UNIQUE,
  observer_hash TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS ${s}.participants (
  table_id TEXT NOT NULL REFERENCES ${s}.tables(id),
  id TEXT NOT NULL,
  role TEXT NOT NULL,
  display_name TEXT NOT NULL,
  token_hash TEXT UNIQUE,
  joined_at TEXT NOT NULL,
  removed_at TEXT,
  position INTEGER NOT NULL,
  PRIMARY KEY (table_id, id)
);
CREATE TABLE IF NOT EXISTS ${s}.events (
  table_id TEXT NOT NULL REFERENCES ${s}.tables(id),
  seq INTEGER NOT NULL,
  at TEXT NOT NULL,
  participant_id TEXT,
  command_id TEXT,
  payload TEXT NOT NULL,
  PRIMARY KEY (table_id, seq)
);
CREATE TABLE IF NOT EXISTS ${s}.commands (
  table_id TEXT NOT NULL REFERENCES ${s}.tables(id),
  participant_id TEXT NOT NULL,
  command_id TEXT NOT NULL,
  command_hash TEXT NOT NULL,
  first_seq INTEGER,
  last_seq INTEGER,
  version_after INTEGER NOT NULL,
  at TEXT NOT NULL,
  PRIMARY KEY (table_id, participant_id, command_id)
);
INSERT INTO ${s}.store_meta (key, value) VALUES ('schema_version', '1') ON CONFLICT (key) DO NOTHING;
ALTER TABLE ${s}.tables ADD COLUMN IF NOT EXISTS setup_version INTEGER NOT NULL DEFAULT 0;
-- Schema 2: every table names its ruleset; tables made before rulesets existed are Personae tables.
ALTER TABLE ${s}.tables ADD COLUMN IF NOT EXISTS ruleset TEXT NOT NULL DEFAULT 'personae';
UPDATE ${s}.store_meta SET value = '2' WHERE key = 'schema_version' AND value = '1';
CREATE TABLE IF NOT EXISTS ${s}.sealed_invites (
  table_id TEXT PRIMARY KEY REFERENCES ${s}.tables(id),
  sealed TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS ${s}.portraits (
  table_id TEXT NOT NULL REFERENCES ${s}.tables(id),
  character_id TEXT NOT NULL,
  content_type TEXT NOT NULL,
  digest TEXT NOT NULL,
  data BYTEA NOT NULL,
  PRIMARY KEY (table_id, character_id)
);
-- a_notice_bytes: 0 sends a notice per append ("e <version> <table>", the only notice servers before
-- the batch notices read, and the 15-argument append_batch they define sends); more sends one notice
-- per batch, "e <version> <table> <version> <table> ...", split where it would pass that many bytes.
CREATE OR REPLACE FUNCTION ${s}.append_batch(
  a_tables TEXT[], a_expected INTEGER[], a_participants TEXT[], a_commands TEXT[], a_hashes TEXT[],
  a_firsts INTEGER[], a_lasts INTEGER[], a_after INTEGER[], a_ats TEXT[], a_counts INTEGER[],
  e_seqs INTEGER[], e_ats TEXT[], e_pids TEXT[], e_cids TEXT[], e_payloads TEXT[], a_notice_bytes INTEGER
) RETURNS TEXT[] LANGUAGE plpgsql AS $fn$
DECLARE
  results TEXT[] := '{}';
  off INTEGER := 0;
  n INTEGER;
  violated TEXT;
  notice TEXT := '';
  item TEXT;
BEGIN
  FOR i IN 1 .. coalesce(array_length(a_tables, 1), 0) LOOP
    n := a_counts[i];
    BEGIN
      PERFORM 1 FROM ${s}.commands
        WHERE table_id = a_tables[i] AND participant_id = a_participants[i] AND command_id = a_commands[i];
      IF FOUND THEN
        results := results || 'duplicate_command'::text;
      ELSE
        -- A row held by another node's append is a race lost at once, not a wait: a node deciding
        -- while holding it would otherwise stall every append of this batch. Only a row still at
        -- the expected version is taken, so an append that lost does not hold it to the batch's end.
        PERFORM 1 FROM ${s}.tables WHERE id = a_tables[i] AND version = a_expected[i] FOR UPDATE NOWAIT;
        UPDATE ${s}.tables SET version = a_after[i] WHERE id = a_tables[i] AND version = a_expected[i];
        IF NOT FOUND THEN
          results := results || 'conflict'::text;
        ELSE
          INSERT INTO ${s}.commands (table_id, participant_id, command_id, command_hash, first_seq, last_seq, version_after, at)
            VALUES (a_tables[i], a_participants[i], a_commands[i], a_hashes[i], a_firsts[i], a_lasts[i], a_after[i], a_ats[i]);
          IF n > 0 THEN
            INSERT INTO ${s}.events (table_id, seq, at, participant_id, command_id, payload)
              SELECT a_tables[i], * FROM unnest(e_seqs[off + 1 : off + n], e_ats[off + 1 : off + n],
                e_pids[off + 1 : off + n], e_cids[off + 1 : off + n], e_payloads[off + 1 : off + n]);
            -- Delivered to every listening node when the transaction commits (and dropped with it
            -- when this append is undone).
            IF a_notice_bytes <= 0 THEN
              PERFORM pg_notify('${channel}', 'e ' || a_after[i] || ' ' || a_tables[i]);
            END IF;
          END IF;
          results := results || 'ok'::text;
        END IF;
      END IF;
    EXCEPTION
      WHEN unique_violation THEN
        GET STACKED DIAGNOSTICS violated = CONSTRAINT_NAME;
        results := results || (CASE WHEN violated LIKE 'commands%' THEN 'duplicate_command' ELSE 'conflict' END);
      WHEN lock_not_available THEN
        results := results || 'conflict'::text;
    END;
    -- Outside the append's own block, so nothing undoes it: only appends that stayed are named.
    IF a_notice_bytes > 0 AND n > 0 AND results[i] = 'ok' THEN
      item := a_after[i] || ' ' || a_tables[i];
      IF notice <> '' AND octet_length(notice) + 1 + octet_length(item) > a_notice_bytes THEN
        PERFORM pg_notify('${channel}', 'e ' || notice);
        notice := '';
      END IF;
      notice := CASE WHEN notice = '' THEN item ELSE notice || ' ' || item END;
    END IF;
    off := off + n;
  END LOOP;
  IF notice <> '' THEN
    PERFORM pg_notify('${channel}', 'e ' || notice);
  END IF;
  RETURN results;
END
$fn$;
`;
}

/** The server store on PostgreSQL; every table lives in one schema. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const schema = options.schema ?? 'public';
  if (!IDENTIFIER.test(schema)) throw new Error(`schema name must match ${IDENTIFIER}, got "${schema}"`);
  const s = `"${schema}"`;
  const channel = channelFor(schema);
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 10 });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on the next query.
  });

  const transaction = async <T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };

  const insertEvents = async (client: pg.PoolClient, tableId: string, events: EventRecord[]): Promise<void> => {
    for (let start = 0; start < events.length; start += 1000) {
      const chunk = events.slice(start, start + 1000);
      await client.query(
        `INSERT INTO ${s}.events (table_id, seq, at, participant_id, command_id, payload)
         SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[])`,
        [
          tableId,
          intArray(chunk.map((e) => e.seq)),
          textArray(chunk.map((e) => e.at)),
          textArray(chunk.map((e) => e.participantId)),
          textArray(chunk.map((e) => e.commandId)),
          textArray(chunk.map((e) => e.json ?? JSON.stringify(e.event))),
        ],
      );
    }
  };

  /** A table's events with seq > afterSeq, oldest first, at most `limit`: from the pool, or inside a transaction's client. */
  const eventsAfter = async (client: pg.PoolClient | pg.Pool, tableId: string, afterSeq: number, limit: number): Promise<EventRecord[]> => {
    const r = await client.query<EventRow>(
      `SELECT seq, at, participant_id, command_id, payload FROM ${s}.events
       WHERE table_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [tableId, afterSeq, limit],
    );
    return r.rows.map(toEvent);
  };

  /**
   * The first events of several tables (seq up to `limit`), by table. A node taking on a lost node's
   * tables loads hundreds at once; read a row per event and parsed in one go, a batch held the event
   * loop for up to a second (docs/benchmarks.md, "Where a take-over spends its CPU"). Each table's
   * payloads come as one JSON array text instead (its other columns as another), parsed a table at a
   * time within the event loop's shared turn budget (../yield.ts), which costs the node less work per
   * event than the driver's rows did; the events past LOAD_AGGREGATE_BYTES are read row by row.
   */
  const firstEvents = async (tableIds: string[], limit: number): Promise<Map<string, EventRecord[]>> => {
    const r = await pool.query<{ table_id: string; n: number; total: number; payloads: string | null; details: string | null }>(
      firstEventsSql(s),
      [tableIds, limit, options.loadAggregateBytes ?? LOAD_AGGREGATE_BYTES],
    );
    const found = new Map<string, EventRecord[]>();
    const cut: Array<{ events: EventRecord[]; tableId: string; more: number }> = [];
    const slice = new TimeSlice();
    for (const row of r.rows) {
      const events: EventRecord[] = [];
      if (row.n > 0) {
        const payloads = JSON.parse(row.payloads!) as unknown[];
        const details = JSON.parse(row.details!) as Array<[number, string, string | null, string | null]>;
        // Each stored payload is one JSON value; one that is not would show here as a count that differs.
        if (payloads.length !== row.n || details.length !== row.n) throw new Error(`table ${row.table_id}: ${row.n} events read as ${payloads.length}`);
        for (let i = 0; i < row.n; i++) {
          const [seq, at, participantId, commandId] = details[i]!;
          events.push({ seq, at, participantId, commandId, event: payloads[i] });
        }
      }
      found.set(row.table_id, events);
      if (row.n < row.total) cut.push({ events, tableId: row.table_id, more: row.total - row.n });
      await slice.check();
    }
    // Seqs run 1, 2, 3... so the rows past the bound are the next `more` after the last one read.
    await Promise.all(
      cut.map(async ({ events, tableId, more }) => {
        events.push(...(await eventsAfter(pool, tableId, events[events.length - 1]?.seq ?? 0, more)));
      }),
    );
    return found;
  };

  const insertParticipant = (client: pg.PoolClient | pg.Pool, tableId: string, p: ParticipantRecord, tokenHash: string | null) =>
    client.query(
      `INSERT INTO ${s}.participants (table_id, id, role, display_name, token_hash, joined_at, removed_at, position)
       VALUES ($1, $2, $3, $4, $5, $6, $7, (SELECT COUNT(*) FROM ${s}.participants WHERE table_id = $1))`,
      [tableId, p.id, p.role, p.displayName, tokenHash, p.joinedAt, p.removedAt],
    );

  // Several processes may start at once on an empty database: an advisory lock keeps the
  // CREATE ... IF NOT EXISTS statements from racing each other.
  await transaction(async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`personae-store:${schema}`]);
    await client.query(schemaSql(s, channel));
  });

  // Group commit: appends wait in a queue and go to the database in batches, one statement (so one
  // round trip and one transaction) per batch. append_batch handles each append on its own (a
  // failing one is undone alone) and answers for each. At most MAX_IN_FLIGHT batches are running;
  // appends that arrive meanwhile form the next batch.
  interface PendingAppend {
    tableId: string;
    expectedVersion: number;
    events: EventRecord[];
    command: CommandRecord;
    resolve: (r: AppendResult) => void;
    reject: (e: unknown) => void;
  }
  const MAX_IN_FLIGHT = 2;
  const MAX_BATCH = 500;
  const spacing = new CommitSpacing(options.commitSpacingMs ?? DEFAULT_COMMIT_SPACING_MS);
  let queue: PendingAppend[] = [];
  let scheduled = false;
  let inFlight = 0;
  let idle: (() => void) | null = null;

  /** Transaction failures PostgreSQL undoes whole, so the batch may simply be sent again. */
  const RETRYABLE = new Set(['40P01' /* deadlock_detected */, '40001' /* serialization_failure */]);
  const MAX_BATCH_TRIES = 3;

  const runBatch = async (unordered: PendingAppend[]) => {
    // Every node locks the rows of the tables it appends to in the same order (by table id), so
    // two nodes' batches that touch the same tables wait for each other instead of deadlocking.
    const batch = [...unordered].sort((x, y) => (x.tableId < y.tableId ? -1 : x.tableId > y.tableId ? 1 : 0));
    for (let attempt = 1; ; attempt++) {
      try {
        const results = await appendBatch(pool, batch);
        batch.forEach((a, i) => {
          const result = results[i];
          if (result === 'ok') a.resolve({ ok: true });
          else if (result === 'duplicate_command' || result === 'conflict') a.resolve({ ok: false, reason: result });
          else a.reject(new Error(`append_batch answered ${String(result)}`));
        });
        return;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (attempt < MAX_BATCH_TRIES && typeof code === 'string' && RETRYABLE.has(code)) continue;
        for (const a of batch) a.reject(error);
        return;
      }
    }
  };

  /** One command's append as append_batch takes it (a batch of one when a table's row is held). */
  type Append = Pick<PendingAppend, 'tableId' | 'expectedVersion' | 'events' | 'command'>;
  const appendBatchSql = `SELECT ${s}.append_batch($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) AS results`;
  const noticeBytes = options.notices === 'batch' ? NOTICE_BYTES : 0;
  /** Sends a batch to append_batch, its arrays in binary (pg-binary.ts: nothing escaped, nothing parsed); its answers in order. */
  const appendBatch = async (client: pg.PoolClient | pg.Pool, batch: readonly Append[]): Promise<string[]> => {
    const events = batch.flatMap((a) => a.events);
    const r = await client.query<{ results: string[] }>(appendBatchSql, [
      textArray(batch.map((a) => a.tableId)),
      intArray(batch.map((a) => a.expectedVersion)),
      textArray(batch.map((a) => a.command.participantId)),
      textArray(batch.map((a) => a.command.commandId)),
      textArray(batch.map((a) => a.command.commandHash)),
      intArray(batch.map((a) => a.command.firstSeq)),
      intArray(batch.map((a) => a.command.lastSeq)),
      intArray(batch.map((a) => a.command.versionAfter)),
      textArray(batch.map((a) => a.command.at)),
      intArray(batch.map((a) => a.events.length)),
      intArray(events.map((e) => e.seq)),
      textArray(events.map((e) => e.at)),
      textArray(events.map((e) => e.participantId)),
      textArray(events.map((e) => e.commandId)),
      textArray(events.map((e) => e.json ?? JSON.stringify(e.event))),
      noticeBytes,
    ]);
    return r.rows[0]?.results ?? [];
  };

  const pump = () => {
    while (queue.length > 0 && inFlight < MAX_IN_FLIGHT) {
      if (spacing.holds(pump)) return;
      const batch = queue.slice(0, MAX_BATCH);
      queue = queue.slice(MAX_BATCH);
      inFlight++;
      void runBatch(batch).finally(() => {
        inFlight--;
        pump();
        if (inFlight === 0 && queue.length === 0 && idle) idle();
      });
    }
  };

  /** Counts a change of a table's participants, links or settings and announces it, in `client`'s transaction. */
  const setupChanged = (client: pg.PoolClient, tableId: string) =>
    client.query(
      `WITH b AS (UPDATE ${s}.tables SET setup_version = setup_version + 1 WHERE id = $1::text RETURNING setup_version)
       SELECT pg_notify($2, 's ' || setup_version || ' ' || $1::text) FROM b`,
      [tableId, channel],
    );

  let closed = false;
  const listeners = new Set<() => Promise<void>>();

  const fanout: Fanout = {
    async listen(handlers) {
      if (closed) throw new Error('store is closed');
      const listener = startListener({
        connectionString: options.listenerConnectionString ?? options.connectionString,
        channel,
        applicationName: options.listenerName ?? 'personae-listener',
        keepAliveMs: options.keepAliveMs ?? 2000,
        handlers,
      });
      const stop = async () => {
        listeners.delete(stop);
        await listener.stop();
      };
      listeners.add(stop);
      try {
        await listener.ready;
      } catch (error) {
        await stop();
        throw error;
      }
      return stop;
    },
    async marks(tableIds) {
      const marks = new Map<string, TableMarks>();
      for (let start = 0; start < tableIds.length; start += 5000) {
        const r = await pool.query<{ id: string; version: number; setup_version: number }>(
          `SELECT id, version, setup_version FROM ${s}.tables WHERE id = ANY($1::text[])`,
          [tableIds.slice(start, start + 5000)],
        );
        for (const row of r.rows) marks.set(row.id, { version: row.version, setupVersion: row.setup_version });
      }
      return marks;
    },
    async behind(known) {
      const marks = new Map<string, TableMarks>();
      const entries = [...known];
      for (let start = 0; start < entries.length; start += 5000) {
        const part = entries.slice(start, start + 5000);
        const r = await pool.query<{ id: string; version: number; setup_version: number }>(
          `SELECT t.id, t.version, t.setup_version
             FROM unnest($1::text[], $2::int[], $3::int[]) AS k(id, version, setup_version)
             JOIN ${s}.tables t ON t.id = k.id
            WHERE t.version > k.version OR t.setup_version > k.setup_version`,
          [part.map(([id]) => id), part.map(([, m]) => m.version), part.map(([, m]) => m.setupVersion)],
        );
        for (const row of r.rows) marks.set(row.id, { version: row.version, setupVersion: row.setup_version });
      }
      return marks;
    },
    async readAfter(requests, limit) {
      const found: EventRecord[][] = requests.map(() => []);
      for (let start = 0; start < requests.length; start += 1000) {
        const part = requests.slice(start, start + 1000);
        // One range of the (table_id, seq) key per request, cut at `limit` rows each.
        const r = await pool.query<EventRow & { n: string }>(
          `SELECT k.n, e.seq, e.at, e.participant_id, e.command_id, e.payload
             FROM unnest($1::text[], $2::int[]) WITH ORDINALITY AS k(id, after, n)
             CROSS JOIN LATERAL (
               SELECT seq, at, participant_id, command_id, payload FROM ${s}.events
                WHERE table_id = k.id AND seq > k.after ORDER BY seq LIMIT $3
             ) e
            ORDER BY k.n, e.seq`,
          [part.map((q) => q.tableId), part.map((q) => q.afterSeq), limit],
        );
        for (const row of r.rows) found[start + Number(row.n) - 1]!.push(toEvent(row));
      }
      return found;
    },
    async appendLocked(tableId, knownVersion, decide) {
      const client = await pool.connect();
      let open = false;
      try {
        await client.query('BEGIN');
        open = true;
        // Bounded, so that a row held by a node that stopped answering sends this back to retrying.
        await client.query(`SET LOCAL lock_timeout = '${LOCKED_WAIT_MS}ms'`);
        let version: number;
        try {
          const r = await client.query<{ version: number }>(`SELECT version FROM ${s}.tables WHERE id = $1 FOR UPDATE`, [tableId]);
          if (!r.rows[0]) throw new Error(`no table "${tableId}"`);
          version = r.rows[0].version;
        } catch (error) {
          if ((error as { code?: unknown }).code === '55P03' /* lock_not_available */) return { ok: false, reason: 'conflict' };
          throw error;
        }
        if (version - knownVersion > LOCKED_CATCH_UP) return { ok: false, reason: 'conflict' };
        const missed = version > knownVersion ? await eventsAfter(client, tableId, knownVersion, LOCKED_CATCH_UP) : [];
        const decided = await decide(missed);
        if (!decided) return null;
        assertSequence(version, decided.events);
        const append: Append = { tableId, expectedVersion: version, events: decided.events, command: decided.command };
        const result = (await appendBatch(client, [append]))[0];
        if (result !== 'ok' && result !== 'duplicate_command' && result !== 'conflict') throw new Error(`append_batch answered ${String(result)}`);
        await client.query('COMMIT');
        open = false;
        return result === 'ok' ? { ok: true } : { ok: false, reason: result };
      } finally {
        if (open) await client.query('ROLLBACK').catch(() => undefined);
        client.release();
      }
    },
    async queueUsage() {
      const r = await pool.query<{ usage: number }>('SELECT pg_notification_queue_usage() AS usage');
      return Number(r.rows[0]?.usage ?? 0);
    },
  };

  return {
    fanout,
    kind: 'postgres',
    async ping() {
      await pool.query('SELECT 1');
    },
    async createTable(input: NewTable) {
      assertSequence(0, input.events);
      if (input.table.version !== input.events.length) throw new Error('table version must equal the number of events');
      const t = input.table;
      await transaction(async (client) => {
        await client.query(
          `INSERT INTO ${s}.tables (id, name, created_at, ruleset, settings, version, invite_hash, observer_hash)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [t.id, t.name, t.createdAt, t.ruleset, JSON.stringify(t.settings), t.version, input.inviteHash, input.observerHash],
        );
        for (const { participant, tokenHash } of input.participants) {
          await insertParticipant(client, t.id, participant, tokenHash);
        }
        await insertEvents(client, t.id, input.events);
        for (const { characterId, portrait } of input.portraits ?? []) {
          await client.query(`INSERT INTO ${s}.portraits (table_id, character_id, content_type, digest, data) VALUES ($1, $2, $3, $4, $5)`, [
            t.id,
            characterId,
            portrait.contentType,
            portrait.digest,
            portrait.data,
          ]);
        }
      });
    },
    async getTable(tableId) {
      const r = await pool.query<TableRow>(
        `SELECT id, name, created_at, ruleset, settings, version FROM ${s}.tables WHERE id = $1`,
        [tableId],
      );
      return r.rows[0] ? toTable(r.rows[0]) : null;
    },
    async listTables() {
      const r = await pool.query<{ id: string; version: string | number }>(`SELECT id, version FROM ${s}.tables ORDER BY created_at, id`);
      return r.rows.map((row) => ({ id: row.id, version: Number(row.version) }));
    },
    async inviteTableName(tableId, inviteHash) {
      const r = await pool.query<{ name: string }>(`SELECT name FROM ${s}.tables WHERE id = $1 AND invite_hash = $2`, [tableId, inviteHash]);
      return r.rows[0]?.name ?? null;
    },
    async listParticipants(tableId) {
      const r = await pool.query<ParticipantRow>(
        `SELECT id, role, display_name, joined_at, removed_at FROM ${s}.participants WHERE table_id = $1 ORDER BY position`,
        [tableId],
      );
      return r.rows.map(toParticipant);
    },
    async loadTables(tableIds, eventLimit) {
      if (tableIds.length === 0) return new Map();
      const ids = [...tableIds];
      // Three queries at once on the pool. Seqs run 1, 2, 3... without gaps, so a log's first
      // `eventLimit` events are those with seq up to it.
      const [tables, participants, events] = await Promise.all([
        pool.query<TableRow>(`SELECT id, name, created_at, ruleset, settings, version FROM ${s}.tables WHERE id = ANY($1::text[])`, [ids]),
        pool.query<ParticipantRow & { table_id: string }>(
          `SELECT table_id, id, role, display_name, joined_at, removed_at FROM ${s}.participants
           WHERE table_id = ANY($1::text[]) ORDER BY table_id, position`,
          [ids],
        ),
        firstEvents(ids, eventLimit),
      ]);
      const loads = toTableLoads(tables.rows, participants.rows, []);
      for (const [id, load] of loads) load.events = events.get(id) ?? [];
      return loads;
    },
    async authenticate(tableId, tokenHash): Promise<Credential | null> {
      const p = await pool.query<ParticipantRow>(
        `SELECT id, role, display_name, joined_at, removed_at FROM ${s}.participants
         WHERE table_id = $1 AND token_hash = $2 AND removed_at IS NULL`,
        [tableId, tokenHash],
      );
      if (p.rows[0]) return { kind: 'participant', participant: toParticipant(p.rows[0]) };
      const o = await pool.query(`SELECT 1 FROM ${s}.tables WHERE id = $1 AND observer_hash = $2`, [tableId, tokenHash]);
      return o.rowCount === 1 ? { kind: 'observer' } : null;
    },
    async authenticateMany(tableId, tokenHashes) {
      const found = new Map<string, Credential>();
      if (tokenHashes.length === 0) return found;
      // Participants and the observer link in one round trip (role 'observer' marks the link's row).
      const r = await pool.query<ParticipantRow & { hash: string }>(
        `SELECT token_hash AS hash, id, role, display_name, joined_at, removed_at FROM ${s}.participants
         WHERE table_id = $1 AND token_hash = ANY($2::text[]) AND removed_at IS NULL
         UNION ALL
         SELECT observer_hash, '', 'observer', '', '', NULL FROM ${s}.tables WHERE id = $1 AND observer_hash = ANY($2::text[])`,
        [tableId, [...tokenHashes]],
      );
      // A participant's token first, as `authenticate` checks it.
      for (const row of r.rows) if ((row.role as string) !== 'observer') found.set(row.hash, { kind: 'participant', participant: toParticipant(row) });
      for (const row of r.rows) if ((row.role as string) === 'observer' && !found.has(row.hash)) found.set(row.hash, { kind: 'observer' });
      return found;
    },
    async joinWithInvite(tableId, inviteHash, participant, tokenHash) {
      return transaction(async (client) => {
        const r = await client.query(`SELECT 1 FROM ${s}.tables WHERE id = $1 AND invite_hash = $2 FOR UPDATE`, [
          tableId,
          inviteHash,
        ]);
        if (r.rowCount !== 1) return false;
        await insertParticipant(client, tableId, participant, tokenHash);
        await setupChanged(client, tableId);
        return true;
      });
    },
    async removeParticipant(tableId, participantId, at) {
      return transaction(async (client) => {
        const r = await client.query(
          `UPDATE ${s}.participants SET removed_at = $1, token_hash = NULL
           WHERE table_id = $2 AND id = $3 AND removed_at IS NULL`,
          [at, tableId, participantId],
        );
        if (r.rowCount !== 1) return false;
        await setupChanged(client, tableId);
        return true;
      });
    },
    async rotateLink(tableId, kind, hash) {
      const column = kind === 'invite' ? 'invite_hash' : 'observer_hash';
      await transaction(async (client) => {
        await client.query(`UPDATE ${s}.tables SET ${column} = $1 WHERE id = $2`, [hash, tableId]);
        await setupChanged(client, tableId);
      });
    },
    async setParticipantToken(tableId, participantId, hash) {
      await transaction(async (client) => {
        await client.query(
          `UPDATE ${s}.participants SET token_hash = $1 WHERE table_id = $2 AND id = $3 AND removed_at IS NULL`,
          [hash, tableId, participantId],
        );
        await setupChanged(client, tableId);
      });
    },
    async setPortrait(tableId, characterId, portrait) {
      return transaction(async (client) => {
        const t = await client.query(`SELECT 1 FROM ${s}.tables WHERE id = $1`, [tableId]);
        if (t.rowCount !== 1) return false;
        if (portrait) {
          await client.query(
            `INSERT INTO ${s}.portraits (table_id, character_id, content_type, digest, data) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (table_id, character_id) DO UPDATE SET content_type = EXCLUDED.content_type, digest = EXCLUDED.digest, data = EXCLUDED.data`,
            [tableId, characterId, portrait.contentType, portrait.digest, portrait.data],
          );
        } else await client.query(`DELETE FROM ${s}.portraits WHERE table_id = $1 AND character_id = $2`, [tableId, characterId]);
        return true;
      });
    },
    async setSealedInvite(tableId, sealed) {
      await pool.query(`INSERT INTO ${s}.sealed_invites (table_id, sealed) VALUES ($1, $2) ON CONFLICT (table_id) DO UPDATE SET sealed = EXCLUDED.sealed`, [tableId, sealed]);
    },
    async getSealedInvite(tableId) {
      const r = await pool.query<{ sealed: string }>(`SELECT sealed FROM ${s}.sealed_invites WHERE table_id = $1`, [tableId]);
      return r.rows[0]?.sealed ?? null;
    },
    async getPortrait(tableId, characterId) {
      const r = await pool.query<{ content_type: string; digest: string; data: Buffer }>(`SELECT content_type, digest, data FROM ${s}.portraits WHERE table_id = $1 AND character_id = $2`, [tableId, characterId]);
      const row = r.rows[0];
      return row ? { contentType: row.content_type, digest: row.digest, data: row.data } : null;
    },
    async listPortraits(tableId) {
      const r = await pool.query<{ character_id: string; digest: string }>(`SELECT character_id, digest FROM ${s}.portraits WHERE table_id = $1`, [tableId]);
      return Object.fromEntries(r.rows.map((row) => [row.character_id, row.digest]));
    },
    async setSettings(tableId, settings) {
      return transaction(async (client) => {
        const r = await client.query(`UPDATE ${s}.tables SET settings = $1 WHERE id = $2`, [JSON.stringify(settings), tableId]);
        if (r.rowCount !== 1) return false;
        await setupChanged(client, tableId);
        return true;
      });
    },
    appendEvents(tableId, expectedVersion, events, command): Promise<AppendResult> {
      return new Promise<AppendResult>((resolve, reject) => {
        if (closed) throw new Error('store is closed');
        assertSequence(expectedVersion, events);
        queue.push({ tableId, expectedVersion, events, command, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(() => {
            scheduled = false;
            pump();
          });
        }
      });
    },
    readEvents(tableId, afterSeq, limit = 1000) {
      return eventsAfter(pool, tableId, afterSeq, limit);
    },
    async getCommand(tableId, participantId, commandId) {
      const r = await pool.query<CommandRow>(
        `SELECT participant_id, command_id, command_hash, first_seq, last_seq, version_after, at
         FROM ${s}.commands WHERE table_id = $1 AND participant_id = $2 AND command_id = $3`,
        [tableId, participantId, commandId],
      );
      return r.rows[0] ? toCommand(r.rows[0]) : null;
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...listeners].map((stop) => stop()));
      if (inFlight > 0 || queue.length > 0) {
        await new Promise<void>((resolve) => {
          idle = resolve;
          pump();
        });
      }
      await pool.end();
    },
  };
}

interface ListenerOptions {
  connectionString: string;
  channel: string;
  applicationName: string;
  keepAliveMs: number;
  handlers: FanoutHandlers;
}

/**
 * One dedicated connection (never a pooled one: LISTEN belongs to a session) that listens on the
 * channel. A connection that errors, ends or does not answer the keep-alive query in time is
 * replaced, with growing pauses while the database is unreachable; every new connection reports
 * `reconnected` so the node checks for notices it missed.
 */
function startListener(options: ListenerOptions): { ready: Promise<void>; stop: () => Promise<void> } {
  let current: pg.Client | null = null;
  let stopped = false;
  let connecting = false;
  let retryMs = 50;
  let retryTimer: NodeJS.Timeout | null = null;
  let first = true;
  let resolveReady!: () => void;
  let rejectReady!: (error: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });

  const drop = (client: pg.Client) => {
    client.removeAllListeners('notification');
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    if (current !== client) return;
    current = null;
    schedule();
  };

  const schedule = () => {
    if (stopped || retryTimer || connecting) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect();
    }, retryMs);
    retryMs = Math.min(retryMs * 2, 2000);
  };

  const connect = async () => {
    if (stopped || current || connecting) return;
    connecting = true;
    const client = new pg.Client({
      connectionString: options.connectionString,
      application_name: options.applicationName,
      connectionTimeoutMillis: 5000,
      keepAlive: true,
    });
    client.on('notification', (message) => {
      if (message.channel !== options.channel || message.payload === undefined) return;
      for (const wake of parseWakes(message.payload)) options.handlers.wake(wake);
    });
    client.on('error', () => drop(client));
    client.on('end', () => drop(client));
    try {
      await client.connect();
      await client.query(`LISTEN "${options.channel}"`);
    } catch (error) {
      connecting = false;
      client.removeAllListeners('end');
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
      if (first) {
        // The node does not start without its listening connection.
        stopped = true;
        clearInterval(keepAlive);
        rejectReady(error);
        return;
      }
      schedule();
      return;
    }
    first = false;
    connecting = false;
    if (stopped) {
      void client.end().catch(() => undefined);
      return;
    }
    current = client;
    retryMs = 50;
    resolveReady();
    options.handlers.reconnected();
  };

  // One keep-alive query at a time: on a slow machine the answer may come after the next tick, and a
  // second query sent on a connection still busy with the first would only queue behind it.
  let pinging = false;
  const keepAlive = setInterval(() => {
    const client = current;
    if (!client || pinging) return;
    pinging = true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('keep-alive timed out')), options.keepAliveMs);
    });
    Promise.race([client.query('SELECT 1'), timeout])
      .then(
        () => clearTimeout(timer),
        () => {
          clearTimeout(timer);
          drop(client);
        },
      )
      .finally(() => {
        pinging = false;
      });
  }, options.keepAliveMs);
  keepAlive.unref();

  void connect();
  return {
    ready,
    async stop() {
      stopped = true;
      clearInterval(keepAlive);
      if (retryTimer) clearTimeout(retryTimer);
      resolveReady();
      const client = current;
      current = null;
      if (client) {
        client.removeAllListeners('end');
        client.on('error', () => undefined);
        // A connection that hangs never confirms its end: stopping waits one keep-alive period at most.
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([client.end().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, options.keepAliveMs)))]);
        clearTimeout(timer);
      }
    },
  };
}
