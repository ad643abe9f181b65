/**
 * How long a table with a long log takes to load after a restart, and the heap it keeps per event.
 *
 *   node --import tsx bench/table-load.ts [events] [--store sqlite|postgres] [--rounds 3] [--cpu-prof DIR]
 *
 * Writes a table of `events` events (bench/long-log.ts: free rolls, one in five hidden) straight
 * into a store, then, `rounds` times, starts a fresh Node process (`--expose-gc`) that opens a
 * server on that store and times its first `GET /api/tables/:id/state` (the table is loaded from
 * the store then), and the heap the loaded table keeps (after a full collection) per event.
 * PostgreSQL: `DATABASE_URL` or postgres://postgres@127.0.0.1:5432/test, in a schema of its own,
 * dropped afterwards.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { createServer, openPostgresStore, openSqliteStore, type Store } from '@personae/server';
import { LOG_AT, longRollLog } from './long-log';

const TABLE = 't_load';
const TOKEN = 'gm_bench-load-token';
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

interface Where {
  dataDir?: string;
  databaseUrl?: string;
  databaseSchema?: string;
}

async function measure(where: Where): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run the measuring process with --expose-gc');
  const server = await createServer({ host: '127.0.0.1', port: 0, logLevel: 'silent', ...where });
  const { url } = await server.listen();
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const res = await fetch(`${url}/api/tables/${TABLE}/state`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const body = (await res.json()) as { version: number };
  const loadMs = performance.now() - t0;
  if (res.status !== 200) throw new Error(`state answered ${res.status}: ${JSON.stringify(body)}`);
  gc();
  const heapAfter = process.memoryUsage().heapUsed;
  await server.close();
  console.log(JSON.stringify({ version: body.version, loadMs: Math.round(loadMs), heapBytesPerEvent: Math.round((heapAfter - heapBefore) / body.version) }));
}

if (process.argv[2] === '--measure') {
  await measure(JSON.parse(process.argv[3]!) as Where);
  process.exit(0);
}

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : fallback;
};
const total = Number(args[0] && !args[0].startsWith('--') ? args[0] : 50_000);
const storeKind = flag('store', 'sqlite');
const rounds = Number(flag('rounds', '3'));
const profile = args.includes('--cpu-prof') ? flag('cpu-prof', '') : '';

const dataDir = mkdtempSync(join(tmpdir(), 'personae-load-bench-'));
const where: Where =
  storeKind === 'postgres'
    ? { databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test', databaseSchema: `bench_load_${process.pid}` }
    : { dataDir };
let store: Store | null = null;
try {
  const g0 = performance.now();
  const events = longRollLog(total);
  const generateMs = performance.now() - g0;
  store =
    storeKind === 'postgres'
      ? await openPostgresStore({ connectionString: where.databaseUrl!, schema: where.databaseSchema! })
      : await openSqliteStore({ file: join(dataDir, 'personae.sqlite'), synchronous: 'normal' });
  await store.createTable({
    table: { id: TABLE, name: 'Load bench', createdAt: LOG_AT, ruleset: 'personae', settings: { physicalDice: false }, version: total },
    inviteHash: sha256('invite'),
    observerHash: sha256('observer'),
    participants: [{ participant: { id: 'p_gm', role: 'gm', displayName: 'GM', joinedAt: LOG_AT, removedAt: null }, tokenHash: sha256(TOKEN) }],
    events: events.map((event, i) => ({ seq: i + 1, at: LOG_AT, participantId: 'p_gm', commandId: `c${i}`, event })),
  });
  if (storeKind !== 'postgres') {
    await store.close();
    store = null;
  }
  const script = fileURLToPath(import.meta.url);
  const runs: Array<{ loadMs: number; heapBytesPerEvent: number }> = [];
  for (let r = 0; r < rounds; r++) {
    const out = execFileSync(process.execPath, ['--expose-gc', ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []), '--import', 'tsx', script, '--measure', JSON.stringify(where)], { encoding: 'utf8' });
    runs.push(JSON.parse(out.trim().split('\n').pop()!) as { loadMs: number; heapBytesPerEvent: number });
  }
  console.log(
    JSON.stringify({
      events: total,
      store: storeKind,
      generateMs: Math.round(generateMs),
      loadMs: runs.map((r) => r.loadMs),
      heapBytesPerEvent: runs.map((r) => r.heapBytesPerEvent),
      loadavg: loadavg().map((n) => +n.toFixed(2)),
    }),
  );
} finally {
  if (store && storeKind === 'postgres') {
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: where.databaseUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${where.databaseSchema} CASCADE`);
    await client.end();
  }
  await store?.close();
  rmSync(dataDir, { recursive: true, force: true });
}
