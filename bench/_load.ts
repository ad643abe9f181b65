import { readFileSync, mkdtempSync } from 'node:fs';
import { personaeTable } from '@personae/rules';
import { createServer } from '@personae/server';
const dataDir = process.argv[3] ?? mkdtempSync('/tmp/trust/data-');
if (process.argv[2] === 'import') {
  const s = await createServer({ host: '127.0.0.1', port: 0, dataDir, logLevel: 'silent', maxImportBytes: 256 * 1024 * 1024 }, personaeTable);
  const { url } = await s.listen();
  const t0 = performance.now();
  const res = await fetch(`${url}/api/tables/import`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: readFileSync('/tmp/trust/50k.json', 'utf8') });
  const body = await res.json() as any;
  console.log(res.status, performance.now() - t0, dataDir, body.tableId, body.gm?.token);
  await s.close();
} else {
  const [, , , , tableId, token] = process.argv;
  const s = await createServer({ host: '127.0.0.1', port: 0, dataDir, logLevel: 'silent' }, personaeTable);
  const { url } = await s.listen();
  const t0 = performance.now();
  const r1 = await fetch(`${url}/api/tables/${tableId}`, { headers: { authorization: `Bearer ${token}` } });
  await r1.arrayBuffer();
  const t1 = performance.now();
  const r2 = await fetch(`${url}/api/tables/${tableId}/state`, { headers: { authorization: `Bearer ${token}` } });
  const b = await r2.arrayBuffer();
  const t2 = performance.now();
  console.log({ loadMs: t1 - t0, stateMs: t2 - t1, stateBytes: b.byteLength, heap: process.memoryUsage().heapUsed });
  await s.close();
}
