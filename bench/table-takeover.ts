/**
 * What a node taking on a lost node's tables spends per table: reading the events from PostgreSQL,
 * parsing their JSON, folding them and building the views of the welcomes.
 *
 *   node --expose-gc --import tsx bench/table-takeover.ts [--tables 200] [--events 360] [--rounds 3] [--parts]
 *
 * Writes `tables` tables of `events` events each (bench/long-log.ts: free rolls, one in five hidden)
 * into a PostgreSQL schema of its own (`DATABASE_URL` or postgres://postgres@127.0.0.1:5432/test,
 * dropped afterwards), then, `rounds` times, reads and folds them as the server does (batches of 100
 * tables) and times each step apart, in CPU time of this process (`process.cpuUsage`), CPU time of
 * the PostgreSQL backend of its own connection (from /proc, 10 ms ticks) and wall time:
 * - `rowRead`: the events read a row each, every payload parsed apart (the store's read before the
 *   aggregated one), and `aggregatedRead`: the same events as the store reads them now (a value per
 *   table, parsed once); both on one connection of their own, so its backend's CPU is theirs;
 * - `storeLoad`: the store's `loadTables` (tables, participants and events, on its pool);
 * - `fold`: the ruleset's `evolve` over every event;
 * - `hubLoad`: the tables loaded by a node's own `TableHub` (a GM's state request for each, all at
 *   once, as the hellos of a take-over ask for them), and `hubRetainedBytesPerTable`: the heap the
 *   loaded tables keep, after a full collection, over the heap before the load, per table (with
 *   `--parts`, also what each part of a loaded table holds: its welcome views, its recent events with
 *   their states, its checkpoints and its state, each measured by dropping it in turn);
 * - `twoViews`: one GM view and one player view of each table (a welcome builds one per audience;
 *   a resumed client that missed nothing gets no view sent, so no text), and `serializeViews` their
 *   JSON text (what a welcome with the whole view adds).
 * Prints JSON: the JSON size of a table's events and of its folded state (what a stored snapshot would
 * hold), and per step the best round's CPU and wall milliseconds and microseconds of CPU per event,
 * the longest the event loop was held in any round (`maxBlockMs`, meaningful for the reads), with the
 * load average.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { openPostgresStore, type Store } from '@personae/server';
import { firstEventsSql, LOAD_AGGREGATE_BYTES } from '../packages/server/src/store/postgres';
import { personaeTable, type TableEvent, type TableState } from '@personae/rules';
import { LOG_AT, longRollLog } from './long-log';
import { TableHub } from '../packages/server/src/tables';
import { registryDomains } from '../packages/server/src/rulesets';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const tables = flag('tables', 200);
const eventsPerTable = flag('events', 360);
const rounds = flag('rounds', 3);
const parts = args.includes('--parts');
const BATCH = 100;
const PAGE = 1000;
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `bench_takeover_${process.pid}`;
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

interface Step {
  cpuMs: number;
  wallMs: number;
  adminBackendCpuMs: number;
  /** The longest the event loop was held during the step (reads only: the other steps run in one go here). */
  maxBlockMs: number;
}
/** CPU milliseconds of the PostgreSQL backend serving `admin` (the queries timed alone run on it). */
let backendPid = 0;
function backendCpuMs(): number {
  const fields = readFileSync(`/proc/${backendPid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
async function timed<T>(fn: () => Promise<T> | T): Promise<{ value: T; step: Step }> {
  // The garbage of the step before is collected here, not in this step's time.
  gc!();
  const c0 = process.cpuUsage();
  const b0 = backendCpuMs();
  const w0 = performance.now();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const value = await fn();
  delay.disable();
  const c = process.cpuUsage(c0);
  return { value, step: { cpuMs: (c.user + c.system) / 1000, wallMs: performance.now() - w0, adminBackendCpuMs: backendCpuMs() - b0, maxBlockMs: delay.max / 1e6 } };
}

const ids = Array.from({ length: tables }, (_, i) => `t_takeover_${i}`);
const batches: string[][] = [];
for (let i = 0; i < ids.length; i += BATCH) batches.push(ids.slice(i, i + BATCH));

let store: Store | null = null;
const admin = new pg.Client({ connectionString: databaseUrl });
await admin.connect();
backendPid = Number((await admin.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
try {
  const log = longRollLog(eventsPerTable);
  store = await openPostgresStore({ connectionString: databaseUrl, schema });
  for (const id of ids) {
    await store.createTable({
      table: { id, name: 'Take-over bench', createdAt: LOG_AT, ruleset: 'personae', settings: { physicalDice: false }, version: log.length },
      inviteHash: sha256(`invite ${id}`),
      observerHash: sha256(`observer ${id}`),
      participants: [
        { participant: { id: 'p_gm', role: 'gm', displayName: 'GM', joinedAt: LOG_AT, removedAt: null }, tokenHash: sha256(`gm ${id}`) },
        { participant: { id: 'p_ann', role: 'player', displayName: 'Ann', joinedAt: LOG_AT, removedAt: null }, tokenHash: sha256(`ann ${id}`) },
      ],
      events: log.map((event, i) => ({ seq: i + 1, at: LOG_AT, participantId: 'p_gm', commandId: `c${i}`, event })),
    });
  }
  await admin.query(`VACUUM ANALYZE "${schema}".events`);

  const results: Array<Record<string, Step>> = [];
  const retained: number[] = [];
  const retainedParts: Array<Record<string, number>> = [];
  for (let r = 0; r < rounds; r++) {
    // The read as the store made it before the aggregated read: a row per event, each payload parsed apart.
    // Both keep what they read, as a load does (what survives costs the collector more).
    const rows = await timed(async () => {
      const kept: unknown[][] = [];
      for (const batch of batches) {
        const res = await admin.query(
          `SELECT table_id, seq, at, participant_id, command_id, payload FROM "${schema}".events
           WHERE table_id = ANY($1::text[]) AND seq <= $2 ORDER BY table_id, seq`,
          [batch, PAGE],
        );
        const events = (res.rows as Array<{ seq: number; at: string; participant_id: string | null; command_id: string | null; payload: string }>).map((r) => ({
          seq: r.seq,
          at: r.at,
          participantId: r.participant_id,
          commandId: r.command_id,
          event: JSON.parse(r.payload) as unknown,
        }));
        kept.push(events);
      }
      return kept.reduce((n, e) => n + e.length, 0);
    });
    // The same events through the store's own read (one aggregated value per table), alone on the same connection.
    const aggregated = await timed(async () => {
      const kept: unknown[][] = [];
      for (const batch of batches) {
        const res = await admin.query(firstEventsSql(`"${schema}"`), [batch, PAGE, LOAD_AGGREGATE_BYTES]);
        for (const row of res.rows as Array<{ n: number; payloads: string; details: string }>) {
          const payloads = JSON.parse(row.payloads) as unknown[];
          const details = JSON.parse(row.details) as Array<[number, string, string | null, string | null]>;
          const events: unknown[] = [];
          for (let i = 0; i < row.n; i++) {
            const [seq, at, participantId, commandId] = details[i]!;
            events.push({ seq, at, participantId, commandId, event: payloads[i] });
          }
          kept.push(events);
        }
      }
      return kept.reduce((n, e) => n + e.length, 0);
    });
    const load = await timed(async () => {
      const all = new Map<string, TableEvent[]>();
      for (const batch of batches) {
        for (const [id, l] of await store!.loadTables(batch, PAGE)) all.set(id, l.events.map((e) => e.event as TableEvent));
      }
      return all;
    });
    const fold = await timed(() => {
      const states = new Map<string, TableState>();
      for (const [id, events] of load.value) {
        let state = personaeTable.initialState();
        for (const e of events) state = personaeTable.evolve(state, e);
        states.set(id, state);
      }
      return states;
    });
    const views = await timed(() => {
      const built: unknown[] = [];
      for (const state of fold.value.values()) {
        built.push(personaeTable.viewState(state, { role: 'gm', participantId: 'p_gm' }));
        built.push(personaeTable.viewState(state, { role: 'player', participantId: 'p_ann' }));
      }
      return built;
    });
    // A node's own load: the hub keeps what it needs of each table (state, checkpoints, recent events).
    const quiet = { info() {}, warn() {}, error() {} };
    let hub: TableHub<unknown, unknown, unknown> | null = new TableHub(store!, registryDomains(), quiet, { idleMs: 3_600_000 });
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const hubLoad = await timed(async () => {
      const answers = await Promise.all(ids.map((id) => hub!.state(id, `gm ${id}`)));
      for (const a of answers) if (!a.ok || a.value.version !== eventsPerTable) throw new Error(`hub load: ${JSON.stringify(a).slice(0, 200)}`);
    });
    gc();
    retained.push((process.memoryUsage().heapUsed - heapBefore) / tables);
    if (parts) {
      // The hub's private map of loaded tables, emptied one part at a time (the hub is not used after).
      const served = (hub as unknown as { served: Map<string, Record<string, unknown>> }).served;
      let h = process.memoryUsage().heapUsed;
      const cleared: Record<string, number> = {};
      for (const part of ['welcomeViews', 'recent', 'checkpoints', 'state']) {
        for (const t of served.values()) t[part] = part === 'recent' ? [] : part === 'checkpoints' ? new Map() : null;
        gc();
        const after = process.memoryUsage().heapUsed;
        cleared[part] = Math.round((h - after) / tables);
        h = after;
      }
      retainedParts.push(cleared);
    }
    hub = null;
    const serialized = await timed(() => views.value.reduce((n: number, v) => n + JSON.stringify(v).length, 0));
    for (const n of [rows.value, aggregated.value, [...load.value.values()].reduce((k, l) => k + l.length, 0)]) {
      if (n !== tables * eventsPerTable) throw new Error(`read ${n} events`);
    }
    results.push({ rowRead: rows.step, aggregatedRead: aggregated.step, storeLoad: load.step, fold: fold.step, hubLoad: hubLoad.step, twoViews: views.step, serializeViews: serialized.step });
  }
  const total = tables * eventsPerTable;
  const best = Object.fromEntries(
    Object.keys(results[0]!).map((k) => {
      const steps = results.map((x) => x[k]!).sort((a, b) => a.cpuMs - b.cpuMs);
      const s = steps[0]!;
      return [k, { cpuMs: Math.round(s.cpuMs), wallMs: Math.round(s.wallMs), adminBackendCpuMs: Math.round(s.adminBackendCpuMs), maxBlockMs: Math.round(Math.max(...steps.map((x) => x.maxBlockMs))), cpuUsPerEvent: +((s.cpuMs * 1000) / total).toFixed(1), cpuMsAllRounds: steps.map((x) => Math.round(x.cpuMs)) }];
    }),
  );
  // What a stored snapshot of a table's state would hold, beside the events it would stand for.
  let state = personaeTable.initialState();
  for (const e of log) state = personaeTable.evolve(state, e);
  const sizes = { eventsJsonBytesPerTable: log.reduce((n, e) => n + JSON.stringify(e).length, 0), stateJsonBytesPerTable: JSON.stringify(state).length };
  const hubRetainedBytesPerTable = { min: Math.round(Math.min(...retained)), all: retained.map((x) => Math.round(x)), ...(parts ? { byPart: retainedParts } : {}) };
  console.log(JSON.stringify({ tables, eventsPerTable, rounds, sizes, steps: best, hubRetainedBytesPerTable, loadavg: loadavg().map((n) => +n.toFixed(2)) }, null, 1));
} finally {
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
  await store?.close();
}
