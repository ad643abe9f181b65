import pg from 'pg';
import {
  assertSequence,
  type AppendResult,
  type CommandRecord,
  type Credential,
  type EventRecord,
  type NewTable,
  type ParticipantRecord,
  type Store,
  type TableRecord,
} from './types';
import { toCommand, toEvent, toParticipant, toTable, type CommandRow, type EventRow, type ParticipantRow, type TableRow } from './rows';

export interface PostgresStoreOptions {
  connectionString: string;
  /** Schema that holds the tables (created if missing); default "public". */
  schema?: string;
  /** Pool size; default 10. */
  maxConnections?: number;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

function schemaSql(s: string): string {
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
CREATE OR REPLACE FUNCTION ${s}.append_batch(
  a_tables TEXT[], a_expected INTEGER[], a_participants TEXT[], a_commands TEXT[], a_hashes TEXT[],
  a_firsts INTEGER[], a_lasts INTEGER[], a_after INTEGER[], a_ats TEXT[], a_counts INTEGER[],
  e_seqs INTEGER[], e_ats TEXT[], e_pids TEXT[], e_cids TEXT[], e_payloads TEXT[]
) RETURNS TEXT[] LANGUAGE plpgsql AS $fn$
DECLARE
  results TEXT[] := '{}';
  off INTEGER := 0;
  n INTEGER;
  violated TEXT;
BEGIN
  FOR i IN 1 .. coalesce(array_length(a_tables, 1), 0) LOOP
    n := a_counts[i];
    BEGIN
      PERFORM 1 FROM ${s}.commands
        WHERE table_id = a_tables[i] AND participant_id = a_participants[i] AND command_id = a_commands[i];
      IF FOUND THEN
        results := results || 'duplicate_command'::text;
      ELSE
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
          END IF;
          results := results || 'ok'::text;
        END IF;
      END IF;
    EXCEPTION WHEN unique_violation THEN
      GET STACKED DIAGNOSTICS violated = CONSTRAINT_NAME;
      results := results || (CASE WHEN violated LIKE 'commands%' THEN 'duplicate_command' ELSE 'conflict' END);
    END;
    off := off + n;
  END LOOP;
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
          chunk.map((e) => e.seq),
          chunk.map((e) => e.at),
          chunk.map((e) => e.participantId),
          chunk.map((e) => e.commandId),
          chunk.map((e) => JSON.stringify(e.event)),
        ],
      );
    }
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
    await client.query(schemaSql(s));
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
  let queue: PendingAppend[] = [];
  let scheduled = false;
  let inFlight = 0;
  let idle: (() => void) | null = null;

  const runBatch = async (batch: PendingAppend[]) => {
    const events = batch.flatMap((a) => a.events);
    try {
      const r = await pool.query<{ results: string[] }>(
        `SELECT ${s}.append_batch($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) AS results`,
        [
          batch.map((a) => a.tableId),
          batch.map((a) => a.expectedVersion),
          batch.map((a) => a.command.participantId),
          batch.map((a) => a.command.commandId),
          batch.map((a) => a.command.commandHash),
          batch.map((a) => a.command.firstSeq),
          batch.map((a) => a.command.lastSeq),
          batch.map((a) => a.command.versionAfter),
          batch.map((a) => a.command.at),
          batch.map((a) => a.events.length),
          events.map((e) => e.seq),
          events.map((e) => e.at),
          events.map((e) => e.participantId),
          events.map((e) => e.commandId),
          events.map((e) => JSON.stringify(e.event)),
        ],
      );
      const results = r.rows[0]?.results ?? [];
      batch.forEach((a, i) => {
        const result = results[i];
        if (result === 'ok') a.resolve({ ok: true });
        else if (result === 'duplicate_command' || result === 'conflict') a.resolve({ ok: false, reason: result });
        else a.reject(new Error(`append_batch answered ${String(result)}`));
      });
    } catch (error) {
      for (const a of batch) a.reject(error);
    }
  };

  const pump = () => {
    while (queue.length > 0 && inFlight < MAX_IN_FLIGHT) {
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

  let closed = false;

  return {
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
          `INSERT INTO ${s}.tables (id, name, created_at, settings, version, invite_hash, observer_hash)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [t.id, t.name, t.createdAt, JSON.stringify(t.settings), t.version, input.inviteHash, input.observerHash],
        );
        for (const { participant, tokenHash } of input.participants) {
          await insertParticipant(client, t.id, participant, tokenHash);
        }
        await insertEvents(client, t.id, input.events);
      });
    },
    async getTable(tableId) {
      const r = await pool.query<TableRow>(
        `SELECT id, name, created_at, settings, version FROM ${s}.tables WHERE id = $1`,
        [tableId],
      );
      return r.rows[0] ? toTable(r.rows[0]) : null;
    },
    async listParticipants(tableId) {
      const r = await pool.query<ParticipantRow>(
        `SELECT id, role, display_name, joined_at, removed_at FROM ${s}.participants WHERE table_id = $1 ORDER BY position`,
        [tableId],
      );
      return r.rows.map(toParticipant);
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
    async joinWithInvite(tableId, inviteHash, participant, tokenHash) {
      return transaction(async (client) => {
        const r = await client.query(`SELECT 1 FROM ${s}.tables WHERE id = $1 AND invite_hash = $2 FOR UPDATE`, [
          tableId,
          inviteHash,
        ]);
        if (r.rowCount !== 1) return false;
        await insertParticipant(client, tableId, participant, tokenHash);
        return true;
      });
    },
    async removeParticipant(tableId, participantId, at) {
      const r = await pool.query(
        `UPDATE ${s}.participants SET removed_at = $1, token_hash = NULL
         WHERE table_id = $2 AND id = $3 AND removed_at IS NULL`,
        [at, tableId, participantId],
      );
      return r.rowCount === 1;
    },
    async rotateLink(tableId, kind, hash) {
      const column = kind === 'invite' ? 'invite_hash' : 'observer_hash';
      await pool.query(`UPDATE ${s}.tables SET ${column} = $1 WHERE id = $2`, [hash, tableId]);
    },
    async setParticipantToken(tableId, participantId, hash) {
      await pool.query(
        `UPDATE ${s}.participants SET token_hash = $1 WHERE table_id = $2 AND id = $3 AND removed_at IS NULL`,
        [hash, tableId, participantId],
      );
    },
    async setSettings(tableId, settings) {
      const r = await pool.query(`UPDATE ${s}.tables SET settings = $1 WHERE id = $2`, [JSON.stringify(settings), tableId]);
      return r.rowCount === 1;
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
    async readEvents(tableId, afterSeq, limit = 1000) {
      const r = await pool.query<EventRow>(
        `SELECT seq, at, participant_id, command_id, payload FROM ${s}.events
         WHERE table_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
        [tableId, afterSeq, limit],
      );
      return r.rows.map(toEvent);
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
