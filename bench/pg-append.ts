/**
 * The PostgreSQL store's cost per append, alone, as a node serving tables runs it: appends of one
 * roll event (a real `rolled` event's JSON, about 1.3 KB) and its command record, to tables taken at
 * random, offered at a steady rate, each table waiting for its previous append (as a table's queue
 * does), with the node's listening connection open (every append's notice comes back to it).
 *
 *   node --import tsx bench/pg-append.ts [--tables 200] [--rate 1200] [--seconds 6] [--warmup 1]
 *        [--module packages/server/src/store/postgres.ts] [--cpu-prof FILE] [--spacing MS] [--tick MS]
 *        [--notices append|batch] [--listeners N]
 *
 * `--notices`: the store's notices option, a notice per append or one per batch (default: the store's own).
 * `--listeners`: connections listening on the schema's channel, the store's own included (default 1),
 * as the listeners of the other nodes of a cluster; their database processes are counted too.
 * `--spacing`: the store's least time between two group commits (default: the store's own).
 * `--tick`: appends are offered every `tick` ms (default 10), as many at once as the rate asks for (1:
 * about one at a time at 1,200 a second, as a server's commands arrive; 10: in bursts of 12).
 * `--cpu-prof` writes a V8 CPU profile of this process's main thread over the measured seconds only
 * (not the tables' creation or the warm-up).
 * `--module` loads the store from another file (a copy of older code beside postgres.ts, so that
 * its imports resolve) to compare two versions in alternating runs. DATABASE_URL as the tests use
 * it (default postgres://postgres@127.0.0.1:5432/test); the run's schema is dropped at the end.
 *
 * Prints, for the appends acknowledged after the warm-up: appends per second; CPU time per append
 * of this process (all its threads: the store's main-thread work and the garbage collector's
 * helpers; and the part of it spent in the kernel, writing to and reading from sockets) and of the database server processes serving this run's connections (the pool and the
 * listener, read from /proc by their pids); queries sent and notices received per append; and the
 * latency of an append, p50/p99/max.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import type { Store } from '../packages/server/src/store/types';
import { ROLL_EVENT_JSON } from './roll-event';

const opts: { tables: number; rate: number; seconds: number; warmup: number; module: string; cpuProf?: string; spacing?: number; tick: number; notices?: 'append' | 'batch'; listeners: number } = {
  listeners: 1,
  tick: 10,
  tables: 200,
  rate: 1200,
  seconds: 6,
  warmup: 1,
  module: 'packages/server/src/store/postgres.ts',
};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) {
  const key = argv[i]?.replace(/^--/, '');
  const value = argv[i + 1];
  if (value === undefined) throw new Error(`--${key} needs a value`);
  if (key === 'module') opts.module = value;
  else if (key === 'cpu-prof') opts.cpuProf = value;
  else if (key === 'notices') {
    if (value !== 'append' && value !== 'batch') throw new Error('--notices is append or batch');
    opts.notices = value;
  }
  else if (key === 'listeners' || key === 'tables' || key === 'rate' || key === 'seconds' || key === 'warmup' || key === 'spacing' || key === 'tick') {
    const n = Number(value);
    if (!(n >= 0) || (key !== 'warmup' && key !== 'spacing' && n === 0)) throw new Error(`--${key} must be a positive number`);
    opts[key] = n;
  } else throw new Error(`unknown option --${key}`);
}
if (opts.listeners > 20 || opts.tables > 5000 || opts.rate > 20000 || opts.seconds > 120 || opts.tick > 1000) throw new Error('bounded: at most 20 listeners, 5000 tables, 20000 appends/s, 120 s');

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `bench_append_${process.pid}`;
const appName = `pg-append-${process.pid}`;
const withAppName = `${url}${url.includes('?') ? '&' : '?'}application_name=${appName}`;

// Every query any connection of this process sends, and every notice it receives.
let queries = 0;
let notices = 0;
const counted = new WeakSet<pg.Client>();
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  queries++;
  if (!counted.has(this)) {
    counted.add(this);
    this.on('notification', () => notices++);
  }
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

const { openPostgresStore } = (await import(pathToFileURL(resolve(opts.module)).href)) as {
  openPostgresStore: (o: { connectionString: string; schema: string; listenerName: string; commitSpacingMs?: number; notices?: 'append' | 'batch' }) => Promise<Store>;
};
const store = await openPostgresStore({
  connectionString: withAppName,
  schema,
  listenerName: `${appName}-listen`,
  ...(opts.spacing === undefined ? {} : { commitSpacingMs: opts.spacing }),
  ...(opts.notices === undefined ? {} : { notices: opts.notices }),
});
const stopListening = await store.fanout!.listen({ wake: () => undefined, reconnected: () => undefined });
const others: pg.Client[] = [];
for (let i = 1; i < opts.listeners; i++) {
  const other = new pg.Client({ connectionString: withAppName });
  await other.connect();
  await other.query(`LISTEN "personae_${schema}"`);
  others.push(other);
}

const payload = ROLL_EVENT_JSON;

const versions: number[] = [];
for (let i = 0; i < opts.tables; i++) {
  await store.createTable({
    table: { id: 't' + i, name: 'T', createdAt: new Date().toISOString(), ruleset: 'personae', settings: { physicalDice: false }, version: 0 },
    inviteHash: 'i' + i,
    observerHash: 'o' + i,
    participants: [{ participant: { id: 'p', role: 'gm', displayName: 'G', joinedAt: 'x', removedAt: null }, tokenHash: 'h' + i }],
    events: [],
  });
  versions.push(0);
}

const admin = new pg.Client({ connectionString: url });
await admin.connect();
/** CPU seconds of the database processes serving this run's connections, by pid. */
const backendCpu = async (): Promise<Map<number, number>> => {
  const r = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name LIKE $1', [`${appName}%`]);
  const ticks = new Map<number, number>();
  for (const { pid } of r.rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
      ticks.set(pid, (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // The database runs elsewhere (or the connection just ended): its CPU is not counted.
    }
  }
  return ticks;
};

const busy = new Array<boolean>(opts.tables).fill(false);
let n = 0;
let measuring = false;
let acked = 0;
const latencies: number[] = [];
let owed = 0;
let lastTick = performance.now();
const timer = setInterval(() => {
  // Appends owed since the last tick (a tick may come late, and at 1 ms a tick owes 1.2 of them).
  const now = performance.now();
  owed += ((now - lastTick) * opts.rate) / 1000;
  lastTick = now;
  for (; owed >= 1; owed--) {
    const i = Math.floor(Math.random() * opts.tables);
    if (busy[i]) continue;
    busy[i] = true;
    const v = versions[i]!;
    const at = new Date().toISOString();
    const started = performance.now();
    const counts = measuring;
    const commandId = 'c' + ++n;
    void store
      .appendEvents('t' + i, v, [{ seq: v + 1, at, participantId: 'p', commandId, event: null, json: payload }], {
        participantId: 'p',
        commandId,
        commandHash: 'h'.repeat(64),
        firstSeq: v + 1,
        lastSeq: v + 1,
        versionAfter: v + 1,
        at,
      })
      .then((r) => {
        if (!r.ok) throw new Error(`append to t${i} refused: ${r.reason}`);
        versions[i] = v + 1;
        busy[i] = false;
        if (counts && measuring) {
          acked++;
          latencies.push(performance.now() - started);
        }
      });
  }
}, opts.tick);

await new Promise((r) => setTimeout(r, opts.warmup * 1000));
const backendsBefore = await backendCpu();
const profiler = opts.cpuProf ? new Session() : null;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
const cpuBefore = process.cpuUsage();
const queriesBefore = queries;
const noticesBefore = notices;
measuring = true;
await new Promise((r) => setTimeout(r, opts.seconds * 1000));
measuring = false;
const cpu = process.cpuUsage(cpuBefore);
const queriesDuring = queries - queriesBefore;
const noticesDuring = notices - noticesBefore;
if (profiler) {
  const { profile } = await profiler.post('Profiler.stop');
  writeFileSync(opts.cpuProf!, JSON.stringify(profile));
  profiler.disconnect();
}
const backendsAfter = await backendCpu();
clearInterval(timer);
await new Promise((r) => setTimeout(r, 500));
let backendSeconds = 0;
for (const [pid, after] of backendsAfter) backendSeconds += after - (backendsBefore.get(pid) ?? 0);

latencies.sort((a, b) => a - b);
const pct = (p: number) => Number((latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0).toFixed(1));
console.log(
  JSON.stringify({
    module: opts.module,
    notices: opts.notices ?? 'default',
    listeners: opts.listeners,
    tables: opts.tables,
    offeredPerSecond: opts.rate,
    appends: acked,
    perSecond: Math.round(acked / opts.seconds),
    cpuUsPerAppend: Math.round((cpu.user + cpu.system) / acked),
    systemUsPerAppend: Math.round(cpu.system / acked),
    databaseCpuUsPerAppend: Math.round((backendSeconds * 1e6) / acked),
    backends: backendsAfter.size,
    queriesPerAppend: Number((queriesDuring / acked).toFixed(3)),
    noticesPerAppend: Number((noticesDuring / acked).toFixed(3)),
    latencyMs: { p50: pct(0.5), p99: pct(0.99), max: pct(1) },
    loadAverage: Number(loadavg()[0]!.toFixed(2)),
  }),
);
await stopListening();
for (const other of others) await other.end();
await store.close();
await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
await admin.end();
