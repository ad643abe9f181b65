import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAs, createTable, http, tempDir } from './helpers';
import { REPO_ROOT, rollCommand, spawnServer, type ServerProcess } from './process';

// The server built by scripts/build-server.mjs (what docs/server.md runs for several nodes) serves
// the same protocol as the sources, and finds the worker files it starts beside it.
describe('the built server', () => {
  // Built inside the repository (under the ignored dist/), where the server's packages resolve.
  const distRoot = join(REPO_ROOT, 'packages/server/dist');
  mkdirSync(distRoot, { recursive: true });
  const out = mkdtempSync(join(distRoot, 'test-'));
  const data = tempDir();
  let srv: ServerProcess;
  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build-server.mjs', out], { cwd: REPO_ROOT, stdio: 'pipe' });
    srv = await spawnServer({ DATA_DIR: data }, 60_000, join(out, 'main.mjs'));
  }, 120_000);
  afterAll(async () => {
    srv?.child.kill('SIGTERM');
    if (srv) expect((await srv.exited).code).toBe(0);
    rmSync(out, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  });

  it('stores a command (SQLite writer thread) and imports an exported table (import worker)', async () => {
    const t = await createTable(srv.url);
    const { client } = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    expect(await client.command('c1', rollCommand(3))).toMatchObject({ type: 'ack', firstSeq: 1 });
    client.close();
    const file = await http(srv.url, 'GET', `/api/tables/${t.tableId}/export`, { token: t.gm.token });
    expect(file.status).toBe(200);
    const imported = await http(srv.url, 'POST', '/api/tables/import', { body: file.body });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const state = await http(srv.url, 'GET', `/api/tables/${imported.body.tableId}/state`, { token: imported.body.gm.token });
    expect(state.body.version).toBe(1);
    expect(state.body.state.log[0].result.actor.dice).toHaveLength(3);
  }, 60_000);
});
