import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackups } from '../src/backups';
import { configFromEnv } from '../src/config';
import { secretDecider } from './fixtures/secret-decider';
import { connectAs, createTable, http, relaxedLimits, startServer, tempDir, type Running } from './helpers';

describe("the server's own backups", () => {
  let srv: Running;
  let dir: string;
  beforeAll(async () => {
    dir = tempDir();
    // The timer is off here: each run is started by the test, as the timer would start it.
    srv = await startServer(secretDecider, { config: { ...relaxedLimits(1000), backupDir: dir, backupEveryMinutes: 0, backupKeep: 2 } });
  });
  afterAll(async () => {
    await srv.close();
  });

  const files = (tableId: string) => (existsSync(join(dir, tableId)) ? readdirSync(join(dir, tableId)).sort() : []);

  it('writes each changed table as the GM backup file, skips unchanged ones, keeps the newest few, and the file restores', async () => {
    const t = await createTable(srv.url, { name: 'Kept Safe' });
    const quiet = await createTable(srv.url, { name: 'Quiet' });
    const first = await srv.server.backups.run();
    expect(first.written).toEqual(expect.arrayContaining([t.tableId, quiet.tableId]));
    expect(files(t.tableId)).toHaveLength(1);

    // Nothing changed: nothing is written.
    expect((await srv.server.backups.run()).written).toEqual([]);

    const gm = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    for (let i = 0; i < 3; i++) {
      await gm.client.command(`n${i}`, { type: 'gm-note', text: `note ${i}` });
      await new Promise((r) => setTimeout(r, 5));
      const run = await srv.server.backups.run();
      expect(run.written).toEqual([t.tableId]);
    }
    gm.client.close();
    // Four backups of the table were written; the two newest are kept, the newest at version 3.
    const kept = files(t.tableId);
    expect(kept).toHaveLength(2);
    expect(kept.every((f) => /^\d{8}T\d{9}Z-v\d+\.json$/.test(f))).toBe(true);
    expect(kept[1]).toMatch(/-v3\.json$/);
    expect(files(quiet.tableId)).toHaveLength(1);

    // The newest file is the full GM export: it continues as a new table through the import.
    const file = JSON.parse(readFileSync(join(dir, t.tableId, kept[1]!), 'utf8'));
    expect(file).toMatchObject({ formatVersion: 1, kind: 'personae-table', redactedFor: null, table: { id: t.tableId, name: 'Kept Safe', version: 3 } });
    expect(file.events).toHaveLength(3);
    const text = readFileSync(join(dir, t.tableId, kept[1]!), 'utf8');
    for (const secret of [t.gm.token, t.invite.token, t.observer.token]) expect(text).not.toContain(secret);
    const restored = await http(srv.url, 'POST', '/api/tables/import', { body: file });
    expect(restored.status).toBe(201);
  });

  it('a server started again picks up where the files on disk stand and does not write the same version twice', async () => {
    const t = await createTable(srv.url, { name: 'Again' });
    await srv.server.backups.run();
    const before = files(t.tableId);
    // A stray file in the folder is neither counted nor removed.
    writeFileSync(join(dir, t.tableId, 'notes.txt'), 'mine');
    // A server started again (a new backup keeper on the same store) reads the versions already written.
    const quiet = { info: () => undefined, error: () => undefined };
    const again = startBackups(srv.store, { dir, everyMs: 0, keep: 2 }, quiet);
    expect((await again.run()).written).toEqual([]);
    // Once the table changes, it is written again.
    const gm = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    await gm.client.command('n1', { type: 'gm-note', text: 'later' });
    gm.client.close();
    expect((await again.run()).written).toEqual([t.tableId]);
    await again.stop();
    expect(files(t.tableId)).toHaveLength(before.length + 2);
    expect(files(t.tableId)).toContain('notes.txt');
  });

  it('runs by itself on its timer, and stops with the server', async () => {
    const own = tempDir();
    const quiet = { info: () => undefined, error: () => undefined };
    const timed = startBackups(srv.store, { dir: own, everyMs: 50, keep: 1 }, quiet);
    await expect.poll(() => readdirSync(own).length, { timeout: 10_000 }).toBeGreaterThan(0);
    await timed.stop();
  });

  it('reads its settings from the environment and refuses bad values by name', () => {
    expect(configFromEnv({ BACKUP_EVERY_MINUTES: '15', BACKUP_KEEP: '48', BACKUP_DIR: '/var/backups/personae' })).toMatchObject({ backupEveryMinutes: 15, backupKeep: 48, backupDir: '/var/backups/personae' });
    expect(configFromEnv({ BACKUP_EVERY_MINUTES: '0' })).toMatchObject({ backupEveryMinutes: 0 });
    expect(() => configFromEnv({ BACKUP_EVERY_MINUTES: 'hourly' })).toThrow(/BACKUP_EVERY_MINUTES must be a whole number >= 0, got "hourly"/);
    expect(() => configFromEnv({ BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP must be a whole number >= 1/);
  });
});
