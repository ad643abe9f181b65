/**
 * Imports a long Personae table log (default 20,000 events: free rolls, one in five hidden) into a
 * server in this process, sent by a client in a child process, while this process asks
 * `GET /api/health` every 5 ms; reports how long the import took and the slowest health answers
 * meanwhile, then loads the imported table's state the way a first visitor after a restart would.
 * The server checks the import in its worker thread; with --in-thread it is given the Personae
 * table itself and checks it on the serving thread, in slices.
 * Run: node --import tsx bench/import-stall.ts [events] [--in-thread]
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '@personae/server';
import { personaeTable } from '@personae/rules';
import { exportOf, longRollLog } from './long-log';

const total = Number(process.argv[2] ?? 20_000);
// --in-thread: the server is given the Personae table itself, and checks imports on its serving thread.
const domain = process.argv.includes('--in-thread') ? personaeTable : undefined;
const file = JSON.stringify(exportOf(longRollLog(total), { id: 't_bench', name: 'Bench' }));

const dataDir = mkdtempSync(join(tmpdir(), 'personae-import-bench-'));
const fileAt = join(dataDir, 'import.json');
writeFileSync(fileAt, file);

/** POSTs the file from a child process; resolves with the answer's status and body. */
function postFromChild(target: string, path: string): Promise<{ status: number; body: { tableId: string; gm: { token: string } } }> {
  const script = `const body = require('node:fs').readFileSync(process.argv[1]);
fetch(process.argv[2], { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  .then(async (res) => console.log(JSON.stringify({ status: res.status, body: await res.json() })));`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', script, path, target], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      if (error) reject(error);
      else resolve(JSON.parse(stdout) as { status: number; body: { tableId: string; gm: { token: string } } });
    });
  });
}
// A busy machine may need more than the default 30 s to receive the whole file.
const server = await createServer({ host: '127.0.0.1', port: 0, dataDir, logLevel: 'silent', maxImportBytes: 256 * 1024 * 1024, requestTimeoutMs: 300_000 }, domain);
const { url } = await server.listen();
try {
  let importing = true;
  const started = performance.now();
  // The importing client runs in a process of its own: encoding and sending 25 MB is its work, not
  // the server's, and must not hold this process's event loop.
  const imported = postFromChild(`${url}/api/tables/import`, fileAt).finally(() => {
    importing = false;
  });
  const health: number[] = [];
  while (importing) {
    const t0 = performance.now();
    await fetch(`${url}/api/health`).then((r) => r.arrayBuffer());
    health.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 5));
  }
  const res = await imported;
  const importMs = performance.now() - started;
  if (res.status !== 201) throw new Error(`import answered ${res.status}`);
  // A fresh server on the same data: the first state request loads the table from its log.
  await server.close();
  const again = await createServer({ host: '127.0.0.1', port: 0, dataDir, logLevel: 'silent' }, domain);
  const second = await again.listen();
  const l0 = performance.now();
  const loaded = await fetch(`${second.url}/api/tables/${res.body.tableId}/state`, { headers: { authorization: `Bearer ${res.body.gm.token}` } });
  await loaded.arrayBuffer();
  const loadMs = performance.now() - l0;
  await again.close();
  health.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      events: total,
      check: domain ? 'in-thread' : 'worker',
      fileBytes: file.length,
      importMs: Math.round(importMs),
      healthRequests: health.length,
      healthP50Ms: +health[Math.floor(health.length / 2)]!.toFixed(1),
      healthP99Ms: +health[Math.floor(health.length * 0.99)]!.toFixed(1),
      healthMaxMs: +health[health.length - 1]!.toFixed(1),
      loadAfterRestartMs: Math.round(loadMs),
      loadavg: loadavg().map((n) => +n.toFixed(2)),
    }),
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
