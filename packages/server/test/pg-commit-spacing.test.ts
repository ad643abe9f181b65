import pg from 'pg';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { configFromEnv } from '../src/config';
import { openPostgresStore, type Store } from '../src/store';
import { dropSchema, PG_URL, runPg, uniqueSchema, appendFixture as append, fixtureTable as table } from './helpers';


/** The appends in each append_batch call sent to the database. */
function countBatches(): { batches: number[]; restore: () => void } {
  const batches: number[] = [];
  const original = pg.Client.prototype.query;
  const spy = vi.spyOn(pg.Client.prototype, 'query');
  spy.mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    const [text, values] = args as [unknown, unknown[] | undefined];
    // The first parameter is the batch's table ids, a binary text[]: its length sits at bytes 12-15.
    if (typeof text === 'string' && text.includes('.append_batch(') && Buffer.isBuffer(values?.[0])) batches.push(values[0].length > 12 ? values[0].readInt32BE(12) : 0);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original);
  return { batches, restore: () => spy.mockRestore() };
}

describe('PostgreSQL group commits spaced in time (DATABASE_COMMIT_SPACING_MS)', () => {
  it('reads the spacing from DATABASE_COMMIT_SPACING_MS and refuses what is not a whole number of 0 to 1000 milliseconds', () => {
    expect(configFromEnv({ DATABASE_COMMIT_SPACING_MS: '0' }).databaseCommitSpacingMs).toBe(0);
    expect(configFromEnv({ DATABASE_COMMIT_SPACING_MS: '12' }).databaseCommitSpacingMs).toBe(12);
    expect(configFromEnv({}).databaseCommitSpacingMs).toBeUndefined();
    for (const bad of ['-1', '2.5', '1001', 'soon']) expect(() => configFromEnv({ DATABASE_COMMIT_SPACING_MS: bad })).toThrow(/DATABASE_COMMIT_SPACING_MS/);
  });
});

describe.skipIf(!runPg)('PostgreSQL group commits spaced in time', () => {
  const schemas: string[] = [];
  let store: Store | null = null;
  const open = (commitSpacingMs: number, schema = uniqueSchema()) => {
    if (!schemas.includes(schema)) schemas.push(schema);
    return openPostgresStore({ connectionString: PG_URL, schema, maxConnections: 4, commitSpacingMs });
  };
  afterEach(async () => {
    vi.restoreAllMocks();
    await store?.close();
    store = null;
  });
  afterAll(async () => {
    for (const schema of schemas) await dropSchema(schema);
  });

  it('holds the appends made within the spacing for the next batch, stores every one in order, and close waits for them', async () => {
    const schema = uniqueSchema();
    store = await open(400, schema);
    const ids = Array.from({ length: 10 }, (_, i) => `t${i}`);
    for (const id of ids) await store.createTable(table(id));
    const counter = countBatches();
    // The first batch is sent after this moment, and the next not before 400 ms after it.
    const started = performance.now();
    expect(await append(store, 't0', 1)).toEqual({ ok: true });
    // Ten appends, each made in a turn of its own while the spacing holds the next batch back.
    const waiting: Array<Promise<unknown>> = [];
    for (const id of ids) {
      waiting.push(append(store, id, id === 't0' ? 2 : 1));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const madeWithin = performance.now() - started < 350;
    expect(await Promise.all(waiting)).toEqual(ids.map(() => ({ ok: true })));
    // A machine stalled for most of the spacing may have let the spacing pass while the appends were made.
    if (madeWithin) expect(counter.batches).toEqual([1, 10]);
    // An append still waiting for its batch when the store closes is stored first.
    const last = append(store, 't0', 3);
    await store.close();
    store = null;
    expect(await last).toEqual({ ok: true });
    counter.restore();
    store = await open(0, schema);
    expect((await store.readEvents('t0', 0)).map((e) => e.seq)).toEqual([1, 2, 3]);
    for (const id of ids.slice(1)) expect((await store.getTable(id))!.version).toBe(1);
  });

  it('sends at once when the last batch is older than the spacing, and with spacing 0', async () => {
    store = await open(0);
    await store.createTable(table('a'));
    for (let seq = 1; seq <= 20; seq++) expect(await append(store, 'a', seq)).toEqual({ ok: true });
    expect((await store.getTable('a'))!.version).toBe(20);
  });
});
