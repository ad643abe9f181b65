import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import {
  assertSequence,
  type AppendResult,
  type CommandRecord,
  type Credential,
  type EventRecord,
  type NewTable,
  type ParticipantRecord,
  type Portrait,
  type Store,
  type TableRecord,
} from './types';
import { TimeSlice } from '../yield';
import { toCommand, toEvent, toParticipant, toTable, toTableLoads, type CommandRow, type EventRow, type ParticipantRow, type TableRow } from './rows';
import { CommitSpacing, DEFAULT_COMMIT_SPACING_MS } from './spacing';

// The events and commands are rowid tables, their keys unique indexes: rows go in the order they are
// appended, so a commit writes the last page or two of each table and small index entries. Keyed by
// (table, seq) without a rowid, each table's rows sat apart, so every append of a group commit wrote
// pages of its own, and a 1.3 KB event spilled to an overflow page besides (schema 3; stores made
// before are rebuilt when opened, see sqlite-writer.mjs).
// A table's version is the seq of its last event, read from the events' (table, seq) index (schema 4).
// Until then it was a column of the tables row, so every append also rewrote that row's page, besides
// the index leaf that already says it.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  settings TEXT NOT NULL,
  invite_hash TEXT NOT NULL UNIQUE,
  observer_hash TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS participants (
  table_id TEXT NOT NULL REFERENCES tables(id),
  id TEXT NOT NULL,
  role TEXT NOT NULL,
  display_name TEXT NOT NULL,
  token_hash TEXT UNIQUE,
  joined_at TEXT NOT NULL,
  removed_at TEXT,
  position INTEGER NOT NULL,
  PRIMARY KEY (table_id, id)
);
CREATE TABLE IF NOT EXISTS events (
  table_id TEXT NOT NULL REFERENCES tables(id),
  seq INTEGER NOT NULL,
  at TEXT NOT NULL,
  participant_id TEXT,
  command_id TEXT,
  payload TEXT NOT NULL,
  PRIMARY KEY (table_id, seq)
);
CREATE TABLE IF NOT EXISTS commands (
  table_id TEXT NOT NULL REFERENCES tables(id),
  participant_id TEXT NOT NULL,
  command_id TEXT NOT NULL,
  command_hash TEXT NOT NULL,
  first_seq INTEGER,
  last_seq INTEGER,
  version_after INTEGER NOT NULL,
  at TEXT NOT NULL,
  PRIMARY KEY (table_id, participant_id, command_id)
);
CREATE TABLE IF NOT EXISTS portraits (
  table_id TEXT NOT NULL REFERENCES tables(id),
  character_id TEXT NOT NULL,
  content_type TEXT NOT NULL,
  digest TEXT NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (table_id, character_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sealed_invites (
  table_id TEXT PRIMARY KEY REFERENCES tables(id),
  sealed TEXT NOT NULL
) WITHOUT ROWID;
INSERT OR IGNORE INTO store_meta (key, value) VALUES ('schema_version', '1');
`;

/** A table's version, as a column of a query on `tables`: its last event's seq, 0 with none. */
const VERSION = '(SELECT coalesce(max(seq), 0) FROM events WHERE events.table_id = tables.id) AS version';

export interface SqliteStoreOptions {
  /** Database file (created with its directory if missing). */
  file: string;
  /**
   * 'full' (default) syncs the write-ahead log on every commit, so an acknowledged command survives
   * a power loss; 'normal' survives a process crash only.
   */
  synchronous?: 'full' | 'normal';
  /**
   * Least time between the starts of two group commits, in milliseconds (default
   * DEFAULT_COMMIT_SPACING_MS; 0 commits as soon as the previous commit is done). Writes made in the
   * meantime wait and go in the next commit: fewer, larger commits cost less CPU per write (each commit
   * is one transaction, one sync and one message each way to the writer thread), at the price of up to
   * this long added to a write's wait when the store is not busy.
   */
  commitSpacingMs?: number;
}

type WriteOp =
  | 'stageEvents'
  | 'dropStaged'
  | 'createTable'
  | 'joinWithInvite'
  | 'removeParticipant'
  | 'rotateLink'
  | 'setParticipantToken'
  | 'setSettings'
  | 'setPortrait'
  | 'setSealedInvite'
  | 'appendEvents'
  | 'close';

/** Requests that commit nothing: parts of a long log for the writer to hold, and closing it. */
const NO_COMMIT_OPS: ReadonlySet<WriteOp> = new Set<WriteOp>(['stageEvents', 'dropStaged', 'close']);

interface WriteResult {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: { message: string; code?: string };
}

/**
 * Talks to the writer worker (sqlite-writer.mjs): one request, one promise. One message to the
 * worker is on its way at a time: requests made while the worker commits the previous batch wait
 * here and go together, as the next batch, when its results come back. The worker would commit them
 * together anyway (its group commit); sent together they cost one message each way instead of one
 * per request.
 */
class Writer {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private failure: Error | null = null;
  private outbox: Array<{ id: number; op: WriteOp; args: unknown[] }> = [];
  /** A batch was sent and its results have not come back yet. */
  private inFlight = false;
  /** The outbox is sent at the end of this turn of the event loop. */
  private sendScheduled = false;

  constructor(
    private readonly worker: Worker,
    private readonly spacing: CommitSpacing,
  ) {
    worker.on('message', (message: { results?: WriteResult[] }) => {
      for (const r of message.results ?? []) {
        const waiter = this.pending.get(r.id);
        if (!waiter) continue;
        this.pending.delete(r.id);
        if (r.ok) waiter.resolve(r.value);
        else waiter.reject(Object.assign(new Error(r.error?.message ?? 'store write failed'), { code: r.error?.code }));
      }
      this.inFlight = false;
      this.send();
    });
    const fail = (error: Error) => {
      this.failure = error;
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
      this.outbox = [];
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the SQLite writer stopped (exit code ${code})`)));
  }

  /** Why the writer stopped, if it did (the store can then no longer change anything). */
  get broken(): Error | null {
    return this.failure;
  }

  call<T>(op: WriteOp, ...args: unknown[]): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.outbox.push({ id, op, args });
      // Requests made in this turn of the event loop (the commands of every message read in it)
      // are sent together once it is done, unless a batch is still on its way.
      if (!this.inFlight && !this.sendScheduled) {
        this.sendScheduled = true;
        setImmediate(() => {
          this.sendScheduled = false;
          this.send();
        });
      }
    });
  }

  private send(): void {
    if (this.inFlight || this.outbox.length === 0 || this.failure || this.spacing.waiting) return;
    // Requests that commit nothing do not wait for the spacing: an import's parts go one after the
    // other, and a close at once.
    if (this.outbox.some((r) => !NO_COMMIT_OPS.has(r.op)) && this.spacing.holds(() => this.send())) return;
    const requests = this.outbox;
    this.outbox = [];
    try {
      this.worker.postMessage({ requests });
      this.inFlight = true;
    } catch (error) {
      // A request the worker cannot be sent (not cloneable) fails alone with its batch.
      for (const { id } of requests) {
        this.pending.get(id)?.reject(error as Error);
        this.pending.delete(id);
      }
    }
  }
}

function startWriter(file: string, synchronous: 'full' | 'normal'): Promise<Worker> {
  const worker = new Worker(new URL('./sqlite-writer.mjs', import.meta.url), {
    workerData: { file, synchronous, schema: SCHEMA },
  });
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    const onExit = (code: number) => reject(new Error(`the SQLite writer exited with code ${code} while opening ${file}`));
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.once('message', (message: { ready?: boolean }) => {
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (message.ready) resolve(worker);
      else reject(new Error('the SQLite writer did not start'));
    });
  });
}

const serializeEvents = (events: EventRecord[]) =>
  events.map((e) => ({ seq: e.seq, at: e.at, participantId: e.participantId, commandId: e.commandId, payload: e.json ?? JSON.stringify(e.event) }));

/** Events of a log longer than this go to the writer in parts of this many (see stageEvents). */
const STAGE_EVENTS = 200;
let stagedKeys = 0;

/**
 * Serializes a long log (an import) and hands it to the writer part by part, each part taken before
 * the next is made, so other requests run in between: copying tens of megabytes to the worker in
 * one message would hold the event loop for as long. Resolves with the key `createTable` names.
 */
async function stageEvents(writer: Writer, events: EventRecord[]): Promise<string> {
  const key = `import-${++stagedKeys}`;
  const slice = new TimeSlice(5);
  try {
    for (let from = 0; from < events.length; from += STAGE_EVENTS) {
      await writer.call('stageEvents', key, serializeEvents(events.slice(from, from + STAGE_EVENTS)));
      await slice.check();
    }
  } catch (error) {
    await writer.call('dropStaged', key).catch(() => undefined);
    throw error;
  }
  return key;
}

/**
 * The embedded store: one SQLite file in write-ahead-log mode. Reads run on the calling thread;
 * writes go to a worker thread that commits them in groups (see sqlite-writer.mjs), so waiting for
 * the disk never stalls the server.
 */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<Store> {
  const file = resolve(options.file);
  mkdirSync(dirname(file), { recursive: true });
  const worker = await startWriter(file, options.synchronous ?? 'full');
  const writer = new Writer(worker, new CommitSpacing(options.commitSpacingMs ?? DEFAULT_COMMIT_SPACING_MS));
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');

  const q = {
    getTable: db.prepare<[string], TableRow>(`SELECT id, name, created_at, ruleset, settings, ${VERSION} FROM tables WHERE id = ?`),
    listParticipants: db.prepare<[string], ParticipantRow>(
      'SELECT id, role, display_name, joined_at, removed_at FROM participants WHERE table_id = ? ORDER BY position',
    ),
    participantByToken: db.prepare<[string, string], ParticipantRow>(
      'SELECT id, role, display_name, joined_at, removed_at FROM participants WHERE table_id = ? AND token_hash = ? AND removed_at IS NULL',
    ),
    observerByHash: db.prepare<[string, string], { id: string }>('SELECT id FROM tables WHERE id = ? AND observer_hash = ?'),
    allTables: db.prepare<[], { id: string; version: number }>(`SELECT id, ${VERSION} FROM tables ORDER BY created_at, id`),
    nameByInvite: db.prepare<[string, string], { name: string }>('SELECT name FROM tables WHERE id = ? AND invite_hash = ?'),
    getCommand: db.prepare<[string, string, string], CommandRow>(
      `SELECT participant_id, command_id, command_hash, first_seq, last_seq, version_after, at
       FROM commands WHERE table_id = ? AND participant_id = ? AND command_id = ?`,
    ),
    getPortrait: db.prepare<[string, string], { content_type: string; digest: string; data: Buffer }>('SELECT content_type, digest, data FROM portraits WHERE table_id = ? AND character_id = ?'),
    sealedInvite: db.prepare<[string], { sealed: string }>('SELECT sealed FROM sealed_invites WHERE table_id = ?'),
    listPortraits: db.prepare<[string], { character_id: string; digest: string }>('SELECT character_id, digest FROM portraits WHERE table_id = ?'),
    // The ids of a batch come as one JSON array.
    loadTables: db.prepare<[string], TableRow>(
      `SELECT id, name, created_at, ruleset, settings, ${VERSION} FROM tables WHERE id IN (SELECT value FROM json_each(?))`,
    ),
    loadParticipants: db.prepare<[string], ParticipantRow & { table_id: string }>(
      `SELECT table_id, id, role, display_name, joined_at, removed_at FROM participants
       WHERE table_id IN (SELECT value FROM json_each(?)) ORDER BY table_id, position`,
    ),
    loadEvents: db.prepare<[string, number], EventRow & { table_id: string }>(
      `SELECT table_id, seq, at, participant_id, command_id, payload FROM events
       WHERE table_id IN (SELECT value FROM json_each(?)) AND seq <= ? ORDER BY table_id, seq`,
    ),
    readEvents: db.prepare<[string, number, number], EventRow>(
      'SELECT seq, at, participant_id, command_id, payload FROM events WHERE table_id = ? AND seq > ? ORDER BY seq LIMIT ?',
    ),
  };

  let closed = false;
  const open = () => {
    if (closed) throw new Error('store is closed');
  };

  return {
    kind: 'sqlite',
    async ping() {
      open();
      if (writer.broken) throw writer.broken;
      db.prepare('SELECT 1').get();
    },
    async createTable(input: NewTable) {
      assertSequence(0, input.events);
      if (input.table.version !== input.events.length) throw new Error('table version must equal the number of events');
      const portraits = (input.portraits ?? []).map(({ characterId, portrait: p }) => ({ characterId, portrait: { contentType: p.contentType, digest: p.digest, data: p.data } }));
      if (input.events.length <= STAGE_EVENTS) {
        await writer.call('createTable', { ...input, events: serializeEvents(input.events), portraits });
        return;
      }
      const stagedKey = await stageEvents(writer, input.events);
      try {
        await writer.call('createTable', { ...input, events: [], stagedKey, portraits });
      } catch (error) {
        await writer.call('dropStaged', stagedKey).catch(() => undefined);
        throw error;
      }
    },
    async getTable(tableId) {
      const row = q.getTable.get(tableId);
      return row ? toTable(row) : null;
    },
    async listParticipants(tableId) {
      return q.listParticipants.all(tableId).map(toParticipant);
    },
    async loadTables(tableIds, eventLimit) {
      const ids = JSON.stringify(tableIds);
      // One read transaction: the three reads see the same state of the file. Seqs run 1, 2, 3...
      // without gaps, so a log's first `eventLimit` events are those with seq up to it.
      return db.transaction(() => toTableLoads(q.loadTables.all(ids), q.loadParticipants.all(ids), q.loadEvents.all(ids, eventLimit)))();
    },
    async authenticate(tableId, tokenHash): Promise<Credential | null> {
      const p = q.participantByToken.get(tableId, tokenHash);
      if (p) return { kind: 'participant', participant: toParticipant(p) };
      if (q.observerByHash.get(tableId, tokenHash)) return { kind: 'observer' };
      return null;
    },
    async authenticateMany(tableId, tokenHashes) {
      // Each lookup is an indexed read in this process: no round trip to save.
      const found = new Map<string, Credential>();
      for (const hash of tokenHashes) {
        const p = q.participantByToken.get(tableId, hash);
        if (p) found.set(hash, { kind: 'participant', participant: toParticipant(p) });
        else if (q.observerByHash.get(tableId, hash)) found.set(hash, { kind: 'observer' });
      }
      return found;
    },
    async listTables() {
      return q.allTables.all().map((r) => ({ id: r.id, version: Number(r.version) }));
    },
    async inviteTableName(tableId, inviteHash) {
      return q.nameByInvite.get(tableId, inviteHash)?.name ?? null;
    },
    joinWithInvite(tableId, inviteHash, participant: ParticipantRecord, tokenHash) {
      return writer.call<boolean>('joinWithInvite', tableId, inviteHash, participant, tokenHash);
    },
    removeParticipant(tableId, participantId, at) {
      return writer.call<boolean>('removeParticipant', tableId, participantId, at);
    },
    async rotateLink(tableId, kind, hash) {
      await writer.call('rotateLink', tableId, kind, hash);
    },
    async setParticipantToken(tableId, participantId, hash) {
      await writer.call('setParticipantToken', tableId, participantId, hash);
    },
    setSettings(tableId, settings) {
      return writer.call<boolean>('setSettings', tableId, JSON.stringify(settings));
    },
    setPortrait(tableId, characterId, portrait: Portrait | null) {
      return writer.call<boolean>('setPortrait', tableId, characterId, portrait && { contentType: portrait.contentType, digest: portrait.digest, data: portrait.data });
    },
    async getPortrait(tableId, characterId) {
      const row = q.getPortrait.get(tableId, characterId);
      return row ? { contentType: row.content_type, digest: row.digest, data: Buffer.from(row.data) } : null;
    },
    async listPortraits(tableId) {
      return Object.fromEntries(q.listPortraits.all(tableId).map((r) => [r.character_id, r.digest]));
    },
    async setSealedInvite(tableId, sealed) {
      await writer.call('setSealedInvite', tableId, sealed);
    },
    async getSealedInvite(tableId) {
      return q.sealedInvite.get(tableId)?.sealed ?? null;
    },
    async appendEvents(tableId, expectedVersion, events, command: CommandRecord) {
      open();
      assertSequence(expectedVersion, events);
      return writer.call<AppendResult>('appendEvents', tableId, expectedVersion, serializeEvents(events), command);
    },
    async readEvents(tableId, afterSeq, limit = 1000) {
      return q.readEvents.all(tableId, afterSeq, limit).map(toEvent);
    },
    async getCommand(tableId, participantId, commandId) {
      const row = q.getCommand.get(tableId, participantId, commandId);
      return row ? toCommand(row) : null;
    },
    async close() {
      if (closed) return;
      closed = true;
      await writer.call('close').catch(() => undefined);
      db.close();
      await worker.terminate();
    },
  };
}
