/**
 * Load benchmark for the table server against an echo baseline, on loopback only.
 *
 *   node --import tsx bench/server-load.ts [--tables 200] [--clients 6] [--rate 1] [--duration 20]
 *        [--loads 1] [--rounds 1] [--warmup 2] [--store sqlite|postgres] [--cpu-prof DIR] [--trace FILE]
 *        [--history 50000] [--receive views|both] [--server tsx|built|FILE]
 *
 * With `--history N` the first table is not new: it is imported with a log of N events (free rolls,
 * one in five hidden, as bench/import-stall.ts builds them), so the run plays on a table that already
 * holds N events (the server loads it from its log when the first client joins).
 *
 * Starts two child processes on free ports of 127.0.0.1: the table server (packages/server/src/
 * main.ts, the Personae table domain) and the baseline, bench/echo-server.ts (the same WebSocket
 * library, a command parsed, one event message to every connection of its table and an ack; no
 * store, no rules). It creates the tables on the server, has a GM and (clients - 1) players join
 * each one, and opens the same number of connections to the echo server in the same groups.
 *
 * Then, for each round and each load in `--loads` (multiples of `--rate`), it runs one phase
 * against the echo server and one against the table server, one after the other: every client
 * sends a roll `rate × load` times a second at random moments (exponential gaps) for `duration`
 * seconds, then the phase waits for every answer and every event. Per phase it measures:
 *   - commands/s acknowledged and the target process's CPU time per command (all its threads);
 *   - latency from sending a command to the moment the last client of the table received its
 *     event, p50/p99/max (commands sent in the first `warmup` seconds of a phase are left out);
 * and over the whole run: events lost or duplicated at any client, commands never answered,
 * errors (all must be 0). It prints every phase and the ratios the goals are stated in:
 *   - server CPU per command / echo CPU per command, at each load (median over rounds; goal ≤ 2);
 *   - server p99 at load 1 (goal < 50 ms) and the highest load whose p99 stayed under 250 ms
 *     (goal ≥ 3: `--loads 1,2,3,4`).
 * `--receive` is what the table server's clients ask for: `views` (the default, as the web app does:
 * `hello` with `events: false`, so each roll reaches a client once, in its `state-patch`) or `both`
 * (every event message followed by the view). With `views` a server client counts a command's event
 * as received when the patch that takes its view past that seq arrives; the echo's clients count
 * its event messages.
 * `--server` is how the table server runs: from its TypeScript sources through tsx (the default);
 * `built`: built afresh by scripts/build-server.mjs (packages/server/dist/main.mjs) and run from there,
 * as a deployed node runs; or a FILE built before (node scripts/build-server.mjs DIR, then DIR/main.mjs),
 * to run other code. The echo server runs through tsx either way.
 * Bounded: at most 1000 tables and 300 s a phase; it stops by itself (children included) after
 * the phases' time + 300 s at the latest.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';

interface Options {
  tables: number;
  clients: number;
  rate: number;
  duration: number;
  loads: number[];
  rounds: number;
  /** Seconds at the start of a phase whose commands count for throughput and correctness but not latency. */
  warmup: number;
  store: 'sqlite' | 'postgres';
  /** Directory for a V8 CPU profile of the server process (optional). */
  cpuProf?: string;
  /** File for one line per command of the server phases: load, seconds into the phase, latency in ms. */
  trace?: string;
  /** Events the first table holds before the run (imported). */
  history: number;
  /** What the table server's clients ask for in their hello: views alone (as the web app) or events and views. */
  receive: 'views' | 'both';
  /** How the table server runs: its sources through tsx, the bundle scripts/build-server.mjs makes, or a bundle made before. */
  server: string;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = { tables: 200, clients: 6, rate: 1, duration: 20, loads: [1], rounds: 1, warmup: 2, store: 'sqlite', history: 0, receive: 'views', server: 'tsx' };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i]?.replace(/^--/, '');
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`--${key} needs a value`);
    if (key === 'cpu-prof') {
      opts.cpuProf = value;
    } else if (key === 'trace') {
      opts.trace = value;
    } else if (key === 'store') {
      if (value !== 'sqlite' && value !== 'postgres') throw new Error('--store is sqlite or postgres');
      opts.store = value;
    } else if (key === 'server') {
      if (value !== 'tsx' && value !== 'built' && !value.endsWith('.mjs')) throw new Error('--server is tsx, built or a built main.mjs');
      opts.server = value;
    } else if (key === 'receive') {
      if (value !== 'views' && value !== 'both') throw new Error('--receive is views or both');
      opts.receive = value;
    } else if (key === 'loads') {
      opts.loads = value.split(',').map(Number);
      if (opts.loads.some((x) => !(x > 0))) throw new Error('--loads is a list of positive numbers, e.g. 1,2,3');
    } else if (key === 'history') {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0 || n > 100_000) throw new Error('--history is a whole number from 0 to 100000');
      opts.history = n;
    } else if (key === 'tables' || key === 'clients' || key === 'rate' || key === 'duration' || key === 'warmup' || key === 'rounds') {
      const n = Number(value);
      if (!(n > 0) && !(key === 'warmup' && n === 0)) throw new Error(`--${key} must be a positive number`);
      opts[key] = n;
    } else {
      throw new Error(`unknown option --${key}`);
    }
  }
  const maxRate = Math.max(...opts.loads) * opts.rate;
  if (opts.tables > 1000 || opts.clients > 20 || opts.duration > 300 || maxRate > 50 || opts.rounds > 10 || opts.loads.length > 10) {
    throw new Error('bounded benchmark: at most 1000 tables, 20 clients per table, 50 rolls/s per client, 300 s a phase, 10 rounds, 10 loads');
  }
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
const children: ChildProcess[] = [];
const killChildren = () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
};
process.on('exit', killChildren);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));
const phases = opts.rounds * opts.loads.length * 2;
const hardStop = setTimeout(
  () => {
    console.error('benchmark took too long; stopping');
    process.exit(2);
  },
  (phases * (opts.duration + 60) + 300) * 1000,
);
hardStop.unref();

const dataDir = mkdtempSync(join(tmpdir(), 'personae-bench-'));
const pgSchema = `bench_${process.pid}`;
const env: Record<string, string> = {
  ...(process.env as Record<string, string>),
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'info',
  LOG_FORMAT: 'json',
  DATA_DIR: dataDir,
  // Every simulated client comes from 127.0.0.1: the per-address limits (connections, new tables,
  // joins) are raised to fit the load asked for; the per-token and per-table limits stay as they are.
  MAX_CONNECTIONS_PER_ADDRESS: String(opts.tables * opts.clients + 1000),
  CREATE_RATE_PER_MINUTE: String(opts.tables + 10),
  JOIN_RATE_PER_MINUTE: String(opts.tables * opts.clients + 10),
  MAX_IMPORT_BYTES: String(256 * 1024 * 1024),
  // The history table's import file is tens of megabytes: a busy machine may need more than the
  // default 30 s to send it.
  ...(opts.history > 0 ? { REQUEST_TIMEOUT_MS: '300000' } : {}),
};
if (opts.store === 'postgres') {
  env.DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  env.DATABASE_SCHEMA = pgSchema;
}

/** Starts a child process and resolves with the port from its ready line. */
function startChild(args: string[], readyMsg: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let ready = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      if (ready) return;
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.includes(readyMsg));
      if (line) {
        ready = true;
        resolve({ child, port: (JSON.parse(line) as { port: number }).port });
      }
    });
    child.on('exit', (code) => {
      if (!ready) reject(new Error(`${args.join(' ')} exited with ${code}: ${out}`));
    });
  });
}

const profArgs = opts.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${opts.cpuProf}`] : [];
let serverArgs = ['--import', 'tsx', 'packages/server/src/main.ts'];
if (opts.server === 'built') {
  await new Promise<void>((resolve, reject) => {
    const build = spawn(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
    build.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`building the server failed (exit code ${code})`))));
  });
  serverArgs = ['packages/server/dist/main.mjs'];
} else if (opts.server !== 'tsx') {
  serverArgs = [opts.server];
}
const [server, echo] = await Promise.all([
  startChild([...profArgs, ...serverArgs], 'table server ready'),
  startChild(['--import', 'tsx', 'bench/echo-server.ts', '--max-seconds', String(phases * (opts.duration + 60) + 300)], 'echo ready'),
]);
const base = `http://127.0.0.1:${server.port}`;

async function post(path: string, body: unknown): Promise<any> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return await res.json();
    } catch (error) {
      // A busy machine can drop a setup request; setup is not measured, so try again.
      if (attempt >= 5) throw error;
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
}

async function inBatches<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

interface TableRun {
  tableId: string;
  /** Time each command was sent and its phase, by seq once acknowledged. */
  sentAtBySeq: Map<number, { at: number; phase: number }>;
  /** Latest receipt time and number of receipts, by seq. */
  received: Map<number, { last: number; count: number }>;
  version: number;
  /** Events the table held before the run (not expected live). */
  base: number;
}

interface Client {
  ws: WebSocket;
  table: TableRun;
  seqs: number[];
  duplicates: number;
  pending: Map<string, { at: number; phase: number }>;
}

interface Target {
  name: 'echo' | 'server';
  child: ChildProcess;
  tables: TableRun[];
  clients: Client[];
  acked: number;
  errors: number;
}

const EVENT_PREFIX = Buffer.from('{"type":"event","seq":');
const PATCH_PREFIX = Buffer.from('{"type":"state-patch","version":');
const STATE_PREFIX = Buffer.from('{"type":"state","version":');

/** The whole number written at `at` in a message's text. */
const numberAt = (data: Buffer, at: number) => Number.parseInt(data.toString('latin1', at, at + 12), 10);

/** Connects and waits for the welcome, trying again (setup is not measured) when a busy machine drops it. */
async function connect(target: Target, port: number, table: TableRun, token: string): Promise<Client> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await connectOnce(target, port, table, token);
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
}

function connectOnce(target: Target, port: number, table: TableRun, token: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    const client: Client = { ws, table, seqs: [], duplicates: 0, pending: new Map() };
    let welcomed = false;
    const viewsOnly = target.name === 'server' && opts.receive === 'views';
    ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', tableId: table.tableId, token, ...(viewsOnly ? { events: false } : {}) })));
    /** A seq reached this client (by its event, or by a view that took it past that seq). */
    const got = (seq: number, now: number) => {
      const last = client.seqs[client.seqs.length - 1] ?? 0;
      if (seq <= last) client.duplicates++;
      else client.seqs.push(seq);
      const r = table.received.get(seq);
      if (r) {
        r.count++;
        r.last = Math.max(r.last, now);
      } else table.received.set(seq, { last: now, count: 1 });
      table.version = Math.max(table.version, seq);
    };
    ws.on('error', (error) => {
      if (!welcomed) reject(error);
      else console.error(`${target.name}: connection error ${error.message}`);
    });
    ws.on('close', (code) => {
      if (!welcomed) reject(new Error(`connection closed before the welcome (${code})`));
    });
    ws.on('message', (data: Buffer) => {
      const now = performance.now();
      // Event messages start with {"type":"event","seq":N, so the load generator reads the seq
      // without parsing the event: it should disturb the servers it measures as little as possible.
      if (data.subarray(0, EVENT_PREFIX.length).equals(EVENT_PREFIX)) {
        if (!viewsOnly) got(numberAt(data, EVENT_PREFIX.length), now);
        return;
      }
      // Views need no parsing either: a patch's text starts {"type":"state-patch","version":V,"base":B,
      // and takes the client's view from B to V; a whole view ({"type":"state","version":V,) to V.
      if (data[9] === 0x73 /* s of "state */) {
        if (!viewsOnly) return;
        if (data.subarray(0, PATCH_PREFIX.length).equals(PATCH_PREFIX)) {
          const version = numberAt(data, PATCH_PREFIX.length);
          const baseAt = data.indexOf('"base":', PATCH_PREFIX.length) + '"base":'.length;
          for (let seq = Math.max(numberAt(data, baseAt), client.seqs[client.seqs.length - 1] ?? table.base) + 1; seq <= version; seq++) got(seq, now);
        } else if (data.subarray(0, STATE_PREFIX.length).equals(STATE_PREFIX)) {
          const version = numberAt(data, STATE_PREFIX.length);
          for (let seq = (client.seqs[client.seqs.length - 1] ?? table.base) + 1; seq <= version; seq++) got(seq, now);
        }
        return;
      }
      const m = JSON.parse(data.toString());
      switch (m.type) {
        case 'welcome':
          welcomed = true;
          resolve(client);
          break;
        case 'ack': {
          const sent = client.pending.get(m.commandId);
          client.pending.delete(m.commandId);
          if (sent !== undefined && m.firstSeq !== null) table.sentAtBySeq.set(m.firstSeq, sent);
          target.acked++;
          break;
        }
        case 'error':
          target.errors++;
          console.error(`${target.name}: error ${m.code}: ${m.message}`);
          if (m.commandId) client.pending.delete(m.commandId);
          break;
      }
    });
  });
}

const setupStart = performance.now();
/** An export file of `total` events, the same log bench/import-stall.ts imports. */
async function historyFile(total: number): Promise<unknown> {
  const { exportOf, longRollLog } = await import('./long-log');
  return exportOf(longRollLog(total), { id: 't_history', name: 'Bench history' });
}

let importMs = 0;
const created = await inBatches(Array.from({ length: opts.tables }, (_, i) => i), 25, async (i) => {
  let t: any;
  if (i === 0 && opts.history > 0) {
    const file = await historyFile(opts.history);
    const i0 = performance.now();
    t = await post('/api/tables/import', file);
    importMs = performance.now() - i0;
    console.error(`imported a table of ${opts.history} events in ${(importMs / 1000).toFixed(1)} s`);
  } else {
    t = await post('/api/tables', { name: `Bench ${i}` });
  }
  const players = await Promise.all(
    Array.from({ length: opts.clients - 1 }, (_, p) => post(`/api/tables/${t.tableId}/join`, { invite: t.invite.token, displayName: `P${p}` })),
  );
  return { tableId: t.tableId as string, tokens: [t.gm.token as string, ...players.map((p) => p.token as string)] };
});

async function setUp(name: Target['name'], child: ChildProcess, port: number): Promise<Target> {
  const target: Target = { name, child, tables: [], clients: [], acked: 0, errors: 0 };
  target.tables = created.map((t, i) => {
    const base = name === 'server' && i === 0 ? opts.history : 0;
    return { tableId: t.tableId, sentAtBySeq: new Map(), received: new Map(), version: base, base };
  });
  const byId = new Map(target.tables.map((t) => [t.tableId, t]));
  target.clients = (
    await inBatches(created, 20, (t) => Promise.all(t.tokens.map((token) => connect(target, port, byId.get(t.tableId)!, token))))
  ).flat();
  return target;
}
const echoTarget = await setUp('echo', echo.child, echo.port);
const serverTarget = await setUp('server', server.child, server.port);
const setupSeconds = (performance.now() - setupStart) / 1000;
console.error(`set up ${opts.tables} tables, ${serverTarget.clients.length} connections to each target, in ${setupSeconds.toFixed(1)} s`);

/** CPU seconds (user + system) in a /proc stat line. */
function statCpuSeconds(path: string): number {
  const fields = readFileSync(path, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds a process has used so far, all its threads and its main thread alone (Linux /proc),
 * or NaN elsewhere. The rest is its worker threads (the SQLite writer), the garbage collector's
 * helpers and libuv's pool.
 */
function cpuSeconds(child: ChildProcess): { all: number; main: number } {
  try {
    return { all: statCpuSeconds(`/proc/${child.pid}/stat`), main: statCpuSeconds(`/proc/${child.pid}/task/${child.pid}/stat`) };
  } catch {
    return { all: NaN, main: NaN };
  }
}

interface PhaseResult {
  round: number;
  target: Target['name'];
  load: number;
  seconds: number;
  commandsSent: number;
  commandsAcknowledged: number;
  commandsPerSecond: number;
  cpuMsPerCommand: number;
  /** The part of cpuMsPerCommand spent on the process's main thread. */
  mainThreadCpuMsPerCommand: number;
  cpuPercent: number;
  latencyMs: { p50: number; p99: number; max: number };
  loadAverage: number;
}

let commandCounter = 0;
let phaseCounter = 0;
const traceLines: string[] = [];

async function runPhase(target: Target, load: number, round: number): Promise<PhaseResult> {
  const phase = ++phaseCounter;
  const rate = opts.rate * load;
  const ackedBefore = target.acked;
  let sent = 0;
  let running = true;
  const timers = new Set<NodeJS.Timeout>();
  const schedule = (client: Client) => {
    const gap = (-Math.log(1 - Math.random()) / rate) * 1000;
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!running) return;
      const commandId = `b${++commandCounter}`;
      client.pending.set(commandId, { at: performance.now(), phase });
      client.ws.send(
        JSON.stringify({ type: 'command', commandId, command: { type: 'roll', actor: { name: 'Roller', dice: 1 + (commandCounter % 5) }, reactor: { name: 'Opposition', dice: 2 } } }),
      );
      sent++;
      schedule(client);
    }, gap);
    timers.add(timer);
  };
  const cpuBefore = cpuSeconds(target.child);
  const start = performance.now();
  for (const c of target.clients) schedule(c);
  await new Promise((r) => setTimeout(r, opts.duration * 1000));
  running = false;
  for (const t of timers) clearTimeout(t);
  // Drain: every command answered and every client holding every event of its table.
  const deadline = performance.now() + 60_000;
  const done = () =>
    target.clients.every((c) => c.pending.size === 0) && target.clients.every((c) => (c.seqs[c.seqs.length - 1] ?? c.table.base) === c.table.version);
  while (!done() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const seconds = (performance.now() - start) / 1000;
  const cpuAfter = cpuSeconds(target.child);
  const cpu = cpuAfter.all - cpuBefore.all;
  const mainCpu = cpuAfter.main - cpuBefore.main;
  const acked = target.acked - ackedBefore;

  const latencies: number[] = [];
  for (const t of target.tables) {
    for (const [seq, s] of t.sentAtBySeq) {
      if (s.phase !== phase || s.at - start < opts.warmup * 1000) continue;
      const r = t.received.get(seq);
      if (r && r.count >= opts.clients) {
        latencies.push(r.last - s.at);
        if (opts.trace && target.name === 'server') traceLines.push(`${load} ${((s.at - start) / 1000).toFixed(3)} ${(r.last - s.at).toFixed(1)}`);
      }
    }
  }
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  const result: PhaseResult = {
    round,
    target: target.name,
    load,
    seconds: Number(seconds.toFixed(1)),
    commandsSent: sent,
    commandsAcknowledged: acked,
    commandsPerSecond: Math.round(acked / opts.duration),
    cpuMsPerCommand: Number(((cpu * 1000) / acked).toFixed(3)),
    mainThreadCpuMsPerCommand: Number(((mainCpu * 1000) / acked).toFixed(3)),
    cpuPercent: Math.round((cpu / seconds) * 100),
    latencyMs: { p50: Number(pct(50).toFixed(1)), p99: Number(pct(99).toFixed(1)), max: Number(pct(100).toFixed(1)) },
    loadAverage: Number(loadavg()[0]!.toFixed(2)),
  };
  console.error(JSON.stringify(result));
  return result;
}

const loadBefore = loadavg()[0]!;
const results: PhaseResult[] = [];
for (let round = 1; round <= opts.rounds; round++) {
  for (const load of opts.loads) {
    results.push(await runPhase(echoTarget, load, round));
    results.push(await runPhase(serverTarget, load, round));
  }
}
const loadAfter = loadavg()[0]!;
if (opts.trace) writeFileSync(opts.trace, traceLines.join('\n') + '\n');

let lost = 0;
let duplicated = 0;
let unanswered = 0;
for (const target of [echoTarget, serverTarget]) {
  for (const c of target.clients) {
    duplicated += c.duplicates;
    unanswered += c.pending.size;
    const set = new Set(c.seqs);
    for (let s = c.table.base + 1; s <= c.table.version; s++) if (!set.has(s)) lost++;
  }
}

for (const c of [...echoTarget.clients, ...serverTarget.clients]) c.ws.close();
server.child.kill('SIGTERM');
echo.child.kill('SIGTERM');
await Promise.all([server.child, echo.child].map((c) => (c.exitCode !== null ? null : new Promise((r) => c.once('exit', r)))));
rmSync(dataDir, { recursive: true, force: true });
if (opts.store === 'postgres') {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${pgSchema}" CASCADE`);
  await client.end();
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const byLoad = opts.loads.map((load) => {
  const server = results.filter((r) => r.target === 'server' && r.load === load);
  const echo = results.filter((r) => r.target === 'echo' && r.load === load);
  // Each round's server phase against the echo phase just before it.
  const cpuRatios = server.map((s, i) => s.cpuMsPerCommand / echo[i]!.cpuMsPerCommand);
  return {
    load,
    rollsPerClientPerSecond: load * opts.rate,
    serverCpuPerCommandOverEcho: Number(median(cpuRatios).toFixed(2)),
    serverCpuMsPerCommand: Number(median(server.map((r) => r.cpuMsPerCommand)).toFixed(3)),
    echoCpuMsPerCommand: Number(median(echo.map((r) => r.cpuMsPerCommand)).toFixed(3)),
    serverMainThreadCpuMsPerCommand: Number(median(server.map((r) => r.mainThreadCpuMsPerCommand)).toFixed(3)),
    echoMainThreadCpuMsPerCommand: Number(median(echo.map((r) => r.mainThreadCpuMsPerCommand)).toFixed(3)),
    serverP99Ms: Number(median(server.map((r) => r.latencyMs.p99)).toFixed(1)),
    echoP99Ms: Number(median(echo.map((r) => r.latencyMs.p99)).toFixed(1)),
    serverP50Ms: Number(median(server.map((r) => r.latencyMs.p50)).toFixed(1)),
  };
});
const under250 = byLoad.filter((l) => l.serverP99Ms < 250).map((l) => l.load);
const summary = {
  store: opts.store,
  serverClientsReceive: opts.receive,
  serverRunsFrom: opts.server,
  tables: opts.tables,
  clientsPerTable: opts.clients,
  connectionsPerTarget: serverTarget.clients.length,
  rollsPerClientPerSecondAtLoad1: opts.rate,
  phaseSeconds: opts.duration,
  rounds: opts.rounds,
  setupSeconds: Number(setupSeconds.toFixed(1)),
  machineLoadAverage: { before: Number(loadBefore.toFixed(2)), after: Number(loadAfter.toFixed(2)) },
  byLoad,
  goals: {
    cpuPerCommandOverEchoAtLoad1: byLoad[0]!.serverCpuPerCommandOverEcho,
    serverP99MsAtLoad1: byLoad[0]!.serverP99Ms,
    highestLoadWithP99Under250Ms: under250.length ? Math.max(...under250) : 0,
  },
  lostEvents: lost,
  duplicatedEvents: duplicated,
  unansweredCommands: unanswered,
  errors: echoTarget.errors + serverTarget.errors,
};
console.log(JSON.stringify(summary, null, 2));
process.exit(lost === 0 && duplicated === 0 && unanswered === 0 && summary.errors === 0 ? 0 : 1);
