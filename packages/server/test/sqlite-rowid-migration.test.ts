import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../src/store';
import { tempDir } from './helpers';

// A schema-2 store: events and commands clustered on their keys (WITHOUT ROWID), as stores were
// written before schema 3.
const SCHEMA_2 = `
CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO store_meta VALUES ('schema_version', '2');
CREATE TABLE tables (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at TEXT NOT NULL, settings TEXT NOT NULL,
  version INTEGER NOT NULL, invite_hash TEXT NOT NULL UNIQUE, observer_hash TEXT NOT NULL UNIQUE,
  ruleset TEXT NOT NULL DEFAULT 'personae');
CREATE TABLE participants (table_id TEXT NOT NULL REFERENCES tables(id), id TEXT NOT NULL, role TEXT NOT NULL,
  display_name TEXT NOT NULL, token_hash TEXT UNIQUE, joined_at TEXT NOT NULL, removed_at TEXT,
  position INTEGER NOT NULL, PRIMARY KEY (table_id, id));
CREATE TABLE events (table_id TEXT NOT NULL REFERENCES tables(id), seq INTEGER NOT NULL, at TEXT NOT NULL,
  participant_id TEXT, command_id TEXT, payload TEXT NOT NULL, PRIMARY KEY (table_id, seq)) WITHOUT ROWID;
CREATE TABLE commands (table_id TEXT NOT NULL REFERENCES tables(id), participant_id TEXT NOT NULL,
  command_id TEXT NOT NULL, command_hash TEXT NOT NULL, first_seq INTEGER, last_seq INTEGER,
  version_after INTEGER NOT NULL, at TEXT NOT NULL, PRIMARY KEY (table_id, participant_id, command_id)) WITHOUT ROWID;
`;

const AT = '2026-01-01T00:00:00.000Z';

function writeSchema2Store(file: string) {
  const db = new Database(file);
  db.exec(SCHEMA_2);
  for (const t of ['t_b', 't_a']) {
    db.prepare('INSERT INTO tables VALUES (?, ?, ?, ?, 3, ?, ?, ?)').run(t, 'Saved ' + t, AT, '{"physicalDice":false}', 'inv-' + t, 'obs-' + t, 'personae');
    db.prepare('INSERT INTO participants VALUES (?, ?, ?, ?, ?, ?, NULL, 0)').run(t, 'gm', 'gm', 'GM', 'tok-' + t, AT);
    // Inserted out of order: the copy must not depend on the order rows were written in.
    for (const seq of [3, 1, 2]) {
      db.prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)').run(t, seq, AT, 'gm', 'c' + seq, JSON.stringify({ type: 'noted', n: seq, table: t }));
    }
    db.prepare('INSERT INTO commands VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(t, 'gm', 'c1', 'h1', 1, 3, 3, AT);
  }
  db.close();
}

const storedSql = (file: string, name: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return {
      sql: db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?").pluck().get(name) as string,
      version: db.prepare("SELECT value FROM store_meta WHERE key = 'schema_version'").pluck().get(),
      leftovers: db.prepare("SELECT name FROM sqlite_schema WHERE name LIKE '%schema2%'").pluck().all(),
    };
  } finally {
    db.close();
  }
};

describe('the SQLite schema-3 migration (events and commands as rowid tables)', () => {
  it('keeps every saved event and command, and the keys still hold', async () => {
    const file = join(tempDir(), 'schema2.sqlite');
    writeSchema2Store(file);
    const store = await openSqliteStore({ file });
    try {
      for (const t of ['t_a', 't_b']) {
        const events = await store.readEvents(t, 0);
        expect(events.map((e) => [e.seq, e.commandId, (e.event as unknown as { n: number; table: string }).n])).toEqual([
          [1, 'c1', 1],
          [2, 'c2', 2],
          [3, 'c3', 3],
        ]);
        expect(await store.getCommand(t, 'gm', 'c1')).toMatchObject({ commandHash: 'h1', firstSeq: 1, lastSeq: 3, versionAfter: 3 });
      }
      const loaded = await store.loadTables(['t_a', 't_b'], 2);
      expect(loaded.get('t_a')?.events.map((e) => e.seq)).toEqual([1, 2]);
      expect(loaded.get('t_b')?.participants.map((p) => p.id)).toEqual(['gm']);
      const event = { seq: 4, at: AT, participantId: 'gm', commandId: 'c4', event: null, json: '{"type":"noted"}' };
      const command = { participantId: 'gm', commandId: 'c4', commandHash: 'h4', firstSeq: 4, lastSeq: 4, versionAfter: 4, at: AT };
      // The command ids and the version check carry over.
      expect(await store.appendEvents('t_a', 3, [event], { ...command, commandId: 'c1' })).toEqual({ ok: false, reason: 'duplicate_command' });
      expect(await store.appendEvents('t_a', 2, [{ ...event, seq: 3 }], command)).toEqual({ ok: false, reason: 'conflict' });
      expect(await store.appendEvents('t_a', 3, [event], command)).toEqual({ ok: true });
      expect((await store.readEvents('t_a', 3)).map((e) => e.seq)).toEqual([4]);
      expect((await store.readEvents('t_b', 0)).map((e) => e.seq)).toEqual([1, 2, 3]);
    } finally {
      await store.close();
    }
    for (const name of ['events', 'commands']) {
      const after = storedSql(file, name);
      expect(after.sql).not.toMatch(/WITHOUT\s+ROWID/i);
      expect(after.version).toBe('4');
      expect(after.leftovers).toEqual([]);
    }
    // The (table, seq) key is enforced by the new table itself, not only by the store's version check.
    const raw = new Database(file);
    expect(() => raw.prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)').run('t_a', 2, AT, 'gm', 'x', '{}')).toThrow(/UNIQUE/);
    expect(() => raw.prepare('INSERT INTO commands VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run('t_a', 'gm', 'c1', 'h', 1, 1, 1, AT)).toThrow(/UNIQUE/);
    raw.close();
    // Schema 4: the version column is gone; a table's version is its last event's seq.
    expect(storedSql(file, 'tables').sql).not.toMatch(/\bversion\b/);
    // Opening the migrated store again changes nothing.
    const again = await openSqliteStore({ file });
    try {
      expect((await again.readEvents('t_a', 0)).map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      expect(await again.listTables()).toEqual(expect.arrayContaining([{ id: 't_a', version: 4 }, { id: 't_b', version: 3 }]));
      expect((await again.getTable('t_a'))?.version).toBe(4);
      expect((await again.loadTables(['t_a', 't_b'], 1)).get('t_b')?.table.version).toBe(3);
    } finally {
      await again.close();
    }
  });

  it('a new store is made as schema 4 directly', async () => {
    const file = join(tempDir(), 'new.sqlite');
    const store = await openSqliteStore({ file });
    await store.close();
    const after = storedSql(file, 'events');
    expect(after.sql).toMatch(/PRIMARY KEY \(table_id, seq\)/);
    expect(after.sql).not.toMatch(/WITHOUT\s+ROWID/i);
    expect(after.version).toBe('4');
    expect(storedSql(file, 'tables').sql).not.toMatch(/\bversion\b/);
  });
});
