import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config';
import { channelFor, NOTICE_BYTES, openPostgresStore, parseWake, parseWakes, type Store, type TableWake } from '../src/store';
import { dropSchema, PG_URL, runPg, sleep, uniqueSchema, WAIT_MS, appendFixture as append, fixtureTable as table } from './helpers';

// The notices that announce appends to the other nodes (docs/server.md, "Several nodes"): one per
// append, as every version of the server sends and reads, or one per batch, split under PostgreSQL's
// 8000-byte payload limit.


/** The notice every server before the batch notices reads (its parseWake); anything else it drops. */
const OLD_NOTICE = /^([es]) (\d{1,15}) (\S+)$/;

describe('parseWakes', () => {
  it('reads a notice per append, a setup notice and a batch notice, and refuses anything else', () => {
    expect(parseWakes('e 12 t_abc')).toEqual([{ kind: 'events', version: 12, tableId: 't_abc' }]);
    expect(parseWakes('s 3 t_abc')).toEqual([{ kind: 'setup', version: 3, tableId: 't_abc' }]);
    expect(parseWakes('e 12 t_abc 4 t_def 7 t_abc')).toEqual([
      { kind: 'events', version: 12, tableId: 't_abc' },
      { kind: 'events', version: 4, tableId: 't_def' },
      { kind: 'events', version: 7, tableId: 't_abc' },
    ]);
    expect(parseWake('e 12 t_abc')).toEqual({ kind: 'events', version: 12, tableId: 't_abc' });
    expect(parseWake('e 12 t_abc 4 t_def')).toBeNull();
    for (const bad of ['', 'e', 'e t_abc', 'x 1 t', 'e -1 t', 'e 1 ', 'e 1 a b', 'e 1234567890123456 t', 'e 1 a 2', 'e 1 a x b', 'e 1 a  2 b', 's 1 a 2 b', 'e 1 a\tb', 'e 1 a\n']) {
      expect(parseWakes(bad)).toEqual([]);
    }
  });
});

describe('DATABASE_NOTICES', () => {
  it('is append or batch', () => {
    expect(configFromEnv({}).databaseNotices).toBeUndefined();
    expect(configFromEnv({ DATABASE_NOTICES: 'batch' }).databaseNotices).toBe('batch');
    expect(configFromEnv({ DATABASE_NOTICES: 'Append' }).databaseNotices).toBe('append');
    expect(() => configFromEnv({ DATABASE_NOTICES: 'table' })).toThrow(/DATABASE_NOTICES/);
  });
});

describe.skipIf(!runPg)('notices of appends on PostgreSQL', () => {
  const schemas: string[] = [];
  const stores: Store[] = [];
  const clients: pg.Client[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
    for (const client of clients) await client.end().catch(() => undefined);
    for (const schema of schemas) await dropSchema(schema);
  });

  /** A store on a new schema, a listening store beside it (what another node hears) and a plain client listening on the channel (the raw payloads). */
  const setUp = async (notices: 'append' | 'batch', commitSpacingMs = 0) => {
    const schema = uniqueSchema();
    schemas.push(schema);
    const writer = await openPostgresStore({ connectionString: PG_URL, schema, maxConnections: 4, notices, commitSpacingMs });
    stores.push(writer);
    const reader = await openPostgresStore({ connectionString: PG_URL, schema, maxConnections: 2 });
    stores.push(reader);
    const wakes: TableWake[] = [];
    await reader.fanout!.listen({ wake: (w) => wakes.push(w), reconnected: () => undefined });
    const raw = new pg.Client({ connectionString: PG_URL });
    clients.push(raw);
    await raw.connect();
    const payloads: string[] = [];
    raw.on('notification', (m) => {
      if (m.payload !== undefined) payloads.push(m.payload);
    });
    await raw.query(`LISTEN "${channelFor(schema)}"`);
    return { schema, writer, reader, wakes, payloads, raw };
  };

  const until = async (check: () => boolean, what: string) => {
    const deadline = Date.now() + WAIT_MS;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(10);
    }
  };

  it('a notice in the format every server reads is still understood', async () => {
    const { schema, wakes, raw } = await setUp('batch');
    await raw.query('SELECT pg_notify($1, $2)', [channelFor(schema), 'e 5 t_old']);
    await raw.query('SELECT pg_notify($1, $2)', [channelFor(schema), 's 2 t_old']);
    await until(() => wakes.length >= 2, 'the two wakes');
    expect(wakes).toEqual([
      { kind: 'events', version: 5, tableId: 't_old' },
      { kind: 'setup', version: 2, tableId: 't_old' },
    ]);
  }, 30_000);

  it('by default each append sends the notice every server reads', async () => {
    const { writer, wakes, payloads } = await setUp('append');
    const ids = Array.from({ length: 5 }, (_, i) => `t_default_${i}`);
    for (const id of ids) await writer.createTable(table(id));
    await Promise.all(ids.map((id) => append(writer, id, 1)));
    await until(() => wakes.length >= ids.length && payloads.length >= ids.length, 'a wake and a notice per append');
    expect(payloads).toHaveLength(ids.length);
    for (const p of payloads) expect(p).toMatch(OLD_NOTICE);
    expect(wakes.map((w) => w.tableId).sort()).toEqual(ids);
  }, 30_000);

  it('a batch sends one notice naming its tables, and a big batch splits its notice under the payload limit', async () => {
    // A long spacing holds every append offered in one tick for one batch.
    const { schema, writer, wakes, payloads, raw } = await setUp('batch', 2000);
    // 60-character ids: about 63 bytes a table, so 250 tables need 3 notices of at most NOTICE_BYTES.
    const ids = Array.from({ length: 250 }, (_, i) => `t_${String(i).padStart(3, '0')}_${'x'.repeat(54)}`);
    for (const id of ids) await writer.createTable(table(id));
    await Promise.all(ids.map((id) => append(writer, id, 1)));
    await until(() => wakes.length >= ids.length && payloads.join(' ').split(' ').length >= 2 * ids.length, 'a wake per table, on both connections');
    const bytes = ids.reduce((sum, id) => sum + `1 ${id}`.length + 1, 0);
    expect(payloads.length).toBe(Math.ceil(bytes / NOTICE_BYTES));
    expect(payloads.length).toBeGreaterThan(1);
    // Each notice is cut only when the next table would not fit: all but the last are nearly full.
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(NOTICE_BYTES + 'e '.length);
    for (const p of payloads.slice(0, -1)) expect(Buffer.byteLength(p)).toBeGreaterThan(NOTICE_BYTES - 64);
    expect(wakes.map((w) => w.tableId).sort()).toEqual(ids);
    expect(wakes.every((w) => w.kind === 'events' && w.version === 1)).toBe(true);

    // An append refused in the batch is not announced; the one beside it is.
    wakes.length = 0;
    payloads.length = 0;
    const [stale, fresh] = await Promise.all([append(writer, ids[0]!, 1), append(writer, ids[1]!, 2)]);
    expect(stale).toEqual({ ok: false, reason: 'duplicate_command' });
    expect(fresh).toEqual({ ok: true });
    // Notices arrive in the order of their commits: once a marker sent now is back, nothing of the batch is still on its way.
    await raw.query('SELECT pg_notify($1, $2)', [channelFor(schema), 'marker']);
    await until(() => payloads.includes('marker') && wakes.length >= 1, 'the marker and the wake of the stored append');
    expect(payloads).toEqual([`e 2 ${ids[1]}`, 'marker']);
    expect(wakes).toEqual([{ kind: 'events', version: 2, tableId: ids[1] }]);
  }, 60_000);

  it('a node sending a notice per batch and one sending a notice per append share a schema, each heard by the other', async () => {
    const { writer, reader, wakes } = await setUp('batch');
    const heard: TableWake[] = [];
    await writer.fanout!.listen({ wake: (w) => heard.push(w), reconnected: () => undefined });
    await writer.createTable(table('t_side'));
    expect(await append(writer, 't_side', 1)).toEqual({ ok: true });
    await until(() => wakes.some((w) => w.tableId === 't_side' && w.version === 1), 'the batch notice');
    expect(await append(reader, 't_side', 2)).toEqual({ ok: true });
    await until(() => heard.some((w) => w.tableId === 't_side' && w.version === 2), 'the per-append notice');
  }, 30_000);
});
