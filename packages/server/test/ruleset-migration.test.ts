import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgresStore, openSqliteStore } from '../src/store';
import { dropSchema, PG_URL, runPg, tempDir, uniqueSchema } from './helpers';

// A store made before tables had a ruleset: its tables row has no ruleset column.
const OLD_TABLES = `CREATE TABLE tables (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at TEXT NOT NULL, settings TEXT NOT NULL,
  version INTEGER NOT NULL, invite_hash TEXT NOT NULL UNIQUE, observer_hash TEXT NOT NULL UNIQUE)`;
const OLD_ROW = `INSERT INTO tables VALUES ('t_old', 'Before rulesets', '2025-01-01T00:00:00.000Z', '{"physicalDice":true}', 0, 'i', 'o')`;

describe('the ruleset migration', () => {
  it('SQLite: adds the column and reads old tables as Personae tables', async () => {
    const file = join(tempDir(), 'personae.sqlite');
    const db = new Database(file);
    db.exec(`CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO store_meta VALUES ('schema_version', '1'); ${OLD_TABLES}; ${OLD_ROW}`);
    db.close();
    const store = await openSqliteStore({ file });
    try {
      expect(await store.getTable('t_old')).toMatchObject({ ruleset: 'personae', settings: { physicalDice: true } });
    } finally {
      await store.close();
    }
    const after = new Database(file, { readonly: true });
    expect(after.prepare("SELECT value FROM store_meta WHERE key = 'schema_version'").get()).toEqual({ value: '4' });
    after.close();
    // Opening again leaves the migrated store as it is.
    const again = await openSqliteStore({ file });
    expect((await again.getTable('t_old'))?.ruleset).toBe('personae');
    await again.close();
  });

  it.runIf(runPg)('PostgreSQL: adds the column and reads old tables as Personae tables', async () => {
    const schema = uniqueSchema();
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}; ${OLD_TABLES}; ${OLD_ROW}`);
    } finally {
      await client.end();
    }
    const store = await openPostgresStore({ connectionString: PG_URL, schema, maxConnections: 2 });
    try {
      expect(await store.getTable('t_old')).toMatchObject({ ruleset: 'personae', settings: { physicalDice: true } });
    } finally {
      await store.close();
      await dropSchema(schema);
    }
  });
});
