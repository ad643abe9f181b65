import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import {
  assertSequence,
  type AppendResult,
  type CommandRecord,
  type Credential,
  type EventRecord,
  type LinkKind,
  type NewTable,
  type ParticipantRecord,
  type Store,
  type TableRecord,
} from './types';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  settings TEXT NOT NULL,
  version INTEGER NOT NULL,
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
) WITHOUT ROWID;
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
) WITHOUT ROWID;
INSERT OR IGNORE INTO store_meta (key, value) VALUES ('schema_version', '1');
`;

export interface SqliteStoreOptions {
  /** Database file; ':memory:' for a throwaway store. */
  file: string;
  /**
   * 'full' (default) syncs the write-ahead log on every commit, so an acknowledged command survives
   * a power loss; 'normal' survives a process crash only.
   */
  synchronous?: 'full' | 'normal';
}

interface TableRow {
  id: string;
  name: string;
  created_at: string;
  settings: string;
  version: number;
}
interface ParticipantRow {
  id: string;
  role: 'gm' | 'player';
  display_name: string;
  joined_at: string;
  removed_at: string | null;
}
interface EventRow {
  seq: number;
  at: string;
  participant_id: string | null;
  command_id: string | null;
  payload: string;
}
interface CommandRow {
  participant_id: string;
  command_id: string;
  command_hash: string;
  first_seq: number | null;
  last_seq: number | null;
  version_after: number;
  at: string;
}

const toTable = (r: TableRow): TableRecord => ({
  id: r.id,
  name: r.name,
  createdAt: r.created_at,
  settings: JSON.parse(r.settings) as TableRecord['settings'],
  version: r.version,
});
const toParticipant = (r: ParticipantRow): ParticipantRecord => ({
  id: r.id,
  role: r.role,
  displayName: r.display_name,
  joinedAt: r.joined_at,
  removedAt: r.removed_at,
});
const toEvent = (r: EventRow): EventRecord => ({
  seq: r.seq,
  at: r.at,
  participantId: r.participant_id,
  commandId: r.command_id,
  event: JSON.parse(r.payload) as unknown,
});
const toCommand = (r: CommandRow): CommandRecord => ({
  participantId: r.participant_id,
  commandId: r.command_id,
  commandHash: r.command_hash,
  firstSeq: r.first_seq,
  lastSeq: r.last_seq,
  versionAfter: r.version_after,
  at: r.at,
});

/** The embedded store: one SQLite file in write-ahead-log mode. */
export function openSqliteStore(options: SqliteStoreOptions): Store {
  if (options.file !== ':memory:') mkdirSync(dirname(options.file), { recursive: true });
  const db = new Database(options.file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);

  const q = {
    insertTable: db.prepare(
      'INSERT INTO tables (id, name, created_at, settings, version, invite_hash, observer_hash) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    getTable: db.prepare<[string], TableRow>('SELECT id, name, created_at, settings, version FROM tables WHERE id = ?'),
    insertParticipant: db.prepare(
      `INSERT INTO participants (table_id, id, role, display_name, token_hash, joined_at, removed_at, position)
       VALUES (?, ?, ?, ?, ?, ?, ?, (SELECT COUNT(*) FROM participants WHERE table_id = ?))`,
    ),
    listParticipants: db.prepare<[string], ParticipantRow>(
      'SELECT id, role, display_name, joined_at, removed_at FROM participants WHERE table_id = ? ORDER BY position',
    ),
    participantByToken: db.prepare<[string, string], ParticipantRow>(
      'SELECT id, role, display_name, joined_at, removed_at FROM participants WHERE table_id = ? AND token_hash = ? AND removed_at IS NULL',
    ),
    observerByHash: db.prepare<[string, string], { id: string }>('SELECT id FROM tables WHERE id = ? AND observer_hash = ?'),
    inviteByHash: db.prepare<[string, string], { id: string }>('SELECT id FROM tables WHERE id = ? AND invite_hash = ?'),
    removeParticipant: db.prepare(
      'UPDATE participants SET removed_at = ?, token_hash = NULL WHERE table_id = ? AND id = ? AND removed_at IS NULL',
    ),
    rotateInvite: db.prepare('UPDATE tables SET invite_hash = ? WHERE id = ?'),
    rotateObserver: db.prepare('UPDATE tables SET observer_hash = ? WHERE id = ?'),
    setToken: db.prepare('UPDATE participants SET token_hash = ? WHERE table_id = ? AND id = ? AND removed_at IS NULL'),
    bumpVersion: db.prepare('UPDATE tables SET version = ? WHERE id = ? AND version = ?'),
    insertEvent: db.prepare(
      'INSERT INTO events (table_id, seq, at, participant_id, command_id, payload) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    insertCommand: db.prepare(
      `INSERT INTO commands (table_id, participant_id, command_id, command_hash, first_seq, last_seq, version_after, at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    getCommand: db.prepare<[string, string, string], CommandRow>(
      `SELECT participant_id, command_id, command_hash, first_seq, last_seq, version_after, at
       FROM commands WHERE table_id = ? AND participant_id = ? AND command_id = ?`,
    ),
    readEvents: db.prepare<[string, number, number], EventRow>(
      'SELECT seq, at, participant_id, command_id, payload FROM events WHERE table_id = ? AND seq > ? ORDER BY seq LIMIT ?',
    ),
  };

  const insertEvents = (tableId: string, events: EventRecord[]): void => {
    for (const e of events) {
      q.insertEvent.run(tableId, e.seq, e.at, e.participantId, e.commandId, JSON.stringify(e.event));
    }
  };

  const createTableTx = db.transaction((input: NewTable) => {
    const t = input.table;
    q.insertTable.run(t.id, t.name, t.createdAt, JSON.stringify(t.settings), t.version, input.inviteHash, input.observerHash);
    for (const { participant: p, tokenHash } of input.participants) {
      q.insertParticipant.run(t.id, p.id, p.role, p.displayName, tokenHash, p.joinedAt, p.removedAt, t.id);
    }
    insertEvents(t.id, input.events);
  });

  const joinTx = db.transaction(
    (tableId: string, inviteHash: string, p: ParticipantRecord, tokenHash: string): boolean => {
      if (!q.inviteByHash.get(tableId, inviteHash)) return false;
      q.insertParticipant.run(tableId, p.id, p.role, p.displayName, tokenHash, p.joinedAt, p.removedAt, tableId);
      return true;
    },
  );

  const appendTx = db.transaction(
    (tableId: string, expectedVersion: number, events: EventRecord[], command: CommandRecord): AppendResult => {
      if (q.getCommand.get(tableId, command.participantId, command.commandId)) {
        return { ok: false, reason: 'duplicate_command' };
      }
      const bumped = q.bumpVersion.run(expectedVersion + events.length, tableId, expectedVersion);
      if (bumped.changes !== 1) return { ok: false, reason: 'conflict' };
      insertEvents(tableId, events);
      q.insertCommand.run(
        tableId,
        command.participantId,
        command.commandId,
        command.commandHash,
        command.firstSeq,
        command.lastSeq,
        command.versionAfter,
        command.at,
      );
      return { ok: true };
    },
  );

  let closed = false;

  return {
    kind: 'sqlite',
    async ping() {
      if (closed) throw new Error('store is closed');
      db.prepare('SELECT 1').get();
    },
    async createTable(input) {
      assertSequence(0, input.events);
      if (input.table.version !== input.events.length) throw new Error('table version must equal the number of events');
      createTableTx(input);
    },
    async getTable(tableId) {
      const row = q.getTable.get(tableId);
      return row ? toTable(row) : null;
    },
    async listParticipants(tableId) {
      return q.listParticipants.all(tableId).map(toParticipant);
    },
    async authenticate(tableId, tokenHash): Promise<Credential | null> {
      const p = q.participantByToken.get(tableId, tokenHash);
      if (p) return { kind: 'participant', participant: toParticipant(p) };
      if (q.observerByHash.get(tableId, tokenHash)) return { kind: 'observer' };
      return null;
    },
    async joinWithInvite(tableId, inviteHash, participant, tokenHash) {
      return joinTx(tableId, inviteHash, participant, tokenHash);
    },
    async removeParticipant(tableId, participantId, at) {
      return q.removeParticipant.run(at, tableId, participantId).changes === 1;
    },
    async rotateLink(tableId, kind: LinkKind, hash) {
      (kind === 'invite' ? q.rotateInvite : q.rotateObserver).run(hash, tableId);
    },
    async setParticipantToken(tableId, participantId, hash) {
      q.setToken.run(hash, tableId, participantId);
    },
    async appendEvents(tableId, expectedVersion, events, command) {
      assertSequence(expectedVersion, events);
      return appendTx(tableId, expectedVersion, events, command);
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
      db.close();
    },
  };
}
