import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type TableServer } from '../src/server';
import { openSqliteStore, type Store } from '../src/store';
import { secretDecider } from './fixtures/secret-decider';
import { connectAs, createTable, http, tempDir } from './helpers';

// A store that answers `conflict` to the first appends it is given, as when another node keeps
// winning the race for a table (while working off a backlog of commands for it, it can win many in
// a row). A command that names no expected version is decided again until it is stored.
describe('appends that keep losing the race', () => {
  const dir = tempDir();
  let store: Store;
  let server: TableServer;
  let url: string;
  let losses = 0;
  let lose = 0;
  beforeAll(async () => {
    const real = await openSqliteStore({ file: join(dir, 'personae.sqlite') });
    store = Object.assign(Object.create(real) as Store, {
      appendEvents: (...args: Parameters<Store['appendEvents']>) => {
        if (lose > 0) {
          lose--;
          losses++;
          return Promise.resolve({ ok: false as const, reason: 'conflict' as const });
        }
        return real.appendEvents(...args);
      },
    });
    server = await createServer({ host: '127.0.0.1', port: 0, logLevel: 'silent', store }, secretDecider);
    url = (await server.listen()).url;
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores a command after more than a dozen lost races, once, and refuses one that named its version', async () => {
    const t = await createTable(url);
    const { client } = await connectAs(`${url.replace('http', 'ws')}/ws`, t.tableId, t.gm.token);
    lose = 20;
    const ack = await client.command('c1', { type: 'roll', count: 2 });
    expect(ack).toMatchObject({ type: 'ack', firstSeq: 1, lastSeq: 1 });
    expect(losses).toBe(20);
    lose = 1;
    expect(await client.command('c2', { type: 'roll', count: 2 }, { expectedVersion: 1 })).toMatchObject({ type: 'error', code: 'conflict' });
    const state = await http(url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token });
    expect(state.body.version).toBe(1);
    client.close();
  }, 60_000);
});
