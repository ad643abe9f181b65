import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configFromEnv } from '../src/config';
import { openSqliteStore, type Store } from '../src/store';
import { tempDir, appendFixture as append, fixtureEvent as event, fixtureTable as table } from './helpers';


/** The appends in each message the store sent its writer thread. */
function countAppendMessages(): { batches: number[]; restore: () => void } {
  const batches: number[] = [];
  const original = Worker.prototype.postMessage;
  const spy = vi.spyOn(Worker.prototype, 'postMessage');
  spy.mockImplementation(function (this: Worker, message: unknown, transfer?: unknown) {
    const requests = (message as { requests?: Array<{ op: string }> }).requests ?? [];
    const appends = requests.filter((r) => r.op === 'appendEvents').length;
    if (appends > 0) batches.push(appends);
    return original.call(this, message, transfer as never);
  });
  return { batches, restore: () => spy.mockRestore() };
}

describe('SQLite group commits spaced in time (SQLITE_COMMIT_SPACING_MS)', () => {
  let store: Store | null = null;
  afterEach(async () => {
    vi.restoreAllMocks();
    await store?.close();
    store = null;
  });

  it('holds the writes made within the spacing for the next commit, stores every one in order, and close waits for them', async () => {
    const dir = tempDir();
    const file = join(dir, 'personae.sqlite');
    const counter = countAppendMessages();
    store = await openSqliteStore({ file, commitSpacingMs: 400 });
    const ids = Array.from({ length: 10 }, (_, i) => `t${i}`);
    await Promise.all(ids.map((id) => store!.createTable(table(id))));
    expect(await append(store, 't0', 1)).toEqual({ ok: true });
    const first = counter.batches.length;
    // Ten appends, each made in a turn of its own while the spacing holds the next commit back.
    const started = performance.now();
    const waiting: Array<Promise<unknown>> = [];
    for (const id of ids) {
      waiting.push(append(store, id, id === 't0' ? 2 : 1));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const madeWithin = performance.now() - started < 350;
    expect(await Promise.all(waiting)).toEqual(ids.map(() => ({ ok: true })));
    // A machine stalled for most of the spacing may have let the spacing pass while the appends were made.
    if (madeWithin) expect(counter.batches.slice(first)).toEqual([10]);
    // An append still waiting for its commit when the store closes is committed first.
    const last = append(store, 't0', 3);
    await store.close();
    store = null;
    expect(await last).toEqual({ ok: true });
    counter.restore();
    store = await openSqliteStore({ file, commitSpacingMs: 0 });
    expect((await store.readEvents('t0', 0)).map((e) => e.seq)).toEqual([1, 2, 3]);
    for (const id of ids.slice(1)) expect((await store.getTable(id))!.version).toBe(1);
  });

  it('sends the parts of an imported log without waiting for the spacing, which only commits wait for', async () => {
    // A minute's spacing: the import's five parts and its commit, then the close, each waiting for it, would take minutes.
    store = await openSqliteStore({ file: join(tempDir(), 'personae.sqlite'), commitSpacingMs: 60_000 });
    const log = Array.from({ length: 1000 }, (_, i) => event(i + 1, `imp${i}`));
    await store.createTable({ ...table('imported'), table: { ...table('imported').table, version: log.length }, events: log });
    expect((await store.readEvents('imported', 0, 2000)).map((e) => e.seq)).toEqual(log.map((e) => e.seq));
  }, 30_000);

  it('commits at once when the last commit is older than the spacing, and with spacing 0', async () => {
    store = await openSqliteStore({ file: join(tempDir(), 'personae.sqlite'), commitSpacingMs: 0 });
    await store.createTable(table('a'));
    for (let seq = 1; seq <= 20; seq++) expect(await append(store, 'a', seq)).toEqual({ ok: true });
    expect((await store.getTable('a'))!.version).toBe(20);
  });

  it('reads the spacing from SQLITE_COMMIT_SPACING_MS and refuses what is not a whole number of 0 to 1000 milliseconds', () => {
    expect(configFromEnv({ SQLITE_COMMIT_SPACING_MS: '0' }).sqliteCommitSpacingMs).toBe(0);
    expect(configFromEnv({ SQLITE_COMMIT_SPACING_MS: '12' }).sqliteCommitSpacingMs).toBe(12);
    expect(configFromEnv({}).sqliteCommitSpacingMs).toBeUndefined();
    for (const bad of ['-1', '2.5', '1001', 'soon']) expect(() => configFromEnv({ SQLITE_COMMIT_SPACING_MS: bad })).toThrow(/SQLITE_COMMIT_SPACING_MS/);
  });
});
