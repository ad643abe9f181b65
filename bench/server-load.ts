/**
 * Load benchmark for the table server, on loopback only.
 *
 *   node --import tsx bench/server-load.ts [--tables 200] [--clients 6] [--rate 1] [--duration 20]
 *                                           [--warmup 2] [--store sqlite|postgres] [--cpu-prof DIR] [--trace FILE]
 *
 * Starts the server as a child process (packages/server/src/main.ts, built-in dice-log domain) on a
 * free port on 127.0.0.1, creates the tables, has a GM and (clients - 1) players join each one, and
 * lets every client roll dice `rate` times a second (randomly spaced) for `duration` seconds. Then
 * it waits for every acknowledgement and every event, stops the server and prints:
 *   - commands/s acknowledged,
 *   - p50/p99/max latency from sending a command to the moment the last client at the table
 *     received its event (commands sent in the first `warmup` seconds, while connections to the
 *     database open and code paths warm up, are left out of the latency figures only),
 *   - events lost or duplicated at any client (must be 0).
 * The whole run is bounded: it stops by itself after duration + 120 s at the latest.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';

interface Options {
  tables: number;
  clients: number;
  rate: number;
  duration: number;
  /** Seconds at the start whose commands count for throughput and correctness but not latency. */
  warmup: number;
  store: 'sqlite' | 'postgres';
  /** Directory for a V8 CPU profile of the server process (optional). */
  cpuProf?: string;
  /** File for one line per command: seconds since start, latency in ms (optional). */
  trace?: string;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = { tables: 200, clients: 6, rate: 1, duration: 20, warmup: 2, store: 'sqlite' };
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
    } else if (key === 'tables' || key === 'clients' || key === 'rate' || key === 'duration' || key === 'warmup') {
      const n = Number(value);
      if (!(n > 0) && !(key === 'warmup' && n === 0)) throw new Error(`--${key} must be a positive number`);
      opts[key] = n;
    } else {
      throw new Error(`unknown option --${key}`);
    }
  }
  if (opts.tables > 1000 || opts.clients > 20 || opts.duration > 300 || opts.rate > 50) {
    throw new Error('bounded benchmark: at most 1000 tables, 20 clients per table, 50 rolls/s per client, 300 s');
  }
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
const hardStop = setTimeout(() => {
  console.error('benchmark took too long; stopping');
  process.exit(2);
}, (opts.duration + 120) * 1000);
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
  MAX_CONNECTIONS_PER_ADDRESS: String(opts.tables * opts.clients + 100),
  CREATE_RATE_PER_MINUTE: String(opts.tables + 10),
  JOIN_RATE_PER_MINUTE: String(opts.tables * opts.clients + 10),
};
if (opts.store === 'postgres') {
  env.DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  env.DATABASE_SCHEMA = pgSchema;
}

const profArgs = opts.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${opts.cpuProf}`] : [];
const server = spawn(process.execPath, [...profArgs, '--import', 'tsx', 'packages/server/src/main.ts'], {
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const port = await new Promise<number>((resolve, reject) => {
  let out = '';
  let ready = false;
  server.stdout!.on('data', (chunk: Buffer) => {
    if (ready) return;
    out += chunk.toString();
    const line = out.split('\n').find((l) => l.includes('table server ready'));
    if (line) {
      ready = true;
      resolve((JSON.parse(line) as { port: number }).port);
    }
  });
  server.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
});
const base = `http://127.0.0.1:${port}`;
const wsUrl = `ws://127.0.0.1:${port}/ws`;

async function post(path: string, body: unknown): Promise<any> {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function inBatches<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

interface TableRun {
  tableId: string;
  /** Time each command was sent, by seq once acknowledged. */
  sentAtBySeq: Map<number, number>;
  /** Latest receipt time and number of receipts, by seq. */
  received: Map<number, { last: number; count: number }>;
  version: number;
}

interface Client {
  ws: WebSocket;
  table: TableRun;
  seqs: number[];
  duplicates: number;
  pending: Map<string, number>;
  errors: number;
}

const setupStart = performance.now();
const tableIds = await inBatches(Array.from({ length: opts.tables }, (_, i) => i), 25, async (i) => {
  const t = await post('/api/tables', { name: `Bench ${i}` });
  const players = await Promise.all(
    Array.from({ length: opts.clients - 1 }, (_, p) => post(`/api/tables/${t.tableId}/join`, { invite: t.invite.token, displayName: `P${p}` })),
  );
  return { tableId: t.tableId as string, tokens: [t.gm.token as string, ...players.map((p) => p.token as string)] };
});

const tables: TableRun[] = tableIds.map((t) => ({ tableId: t.tableId, sentAtBySeq: new Map(), received: new Map(), version: 0 }));
let acked = 0;
let errors = 0;

const EVENT_PREFIX = Buffer.from('{"type":"event","seq":');

function connect(table: TableRun, token: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl);
    const client: Client = { ws, table, seqs: [], duplicates: 0, pending: new Map(), errors: 0 };
    ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', tableId: table.tableId, token })));
    ws.on('error', reject);
    ws.on('close', (code) => reject(new Error(`connection closed before the welcome (${code})`)));
    ws.on('message', (data: Buffer) => {
      const now = performance.now();
      // Event messages start with {"type":"event","seq":N, so the load generator reads the seq
      // without parsing the (large) event: it should disturb the server it measures as little as possible.
      const m = data.subarray(0, EVENT_PREFIX.length).equals(EVENT_PREFIX)
        ? { type: 'event', seq: Number.parseInt(data.toString('latin1', EVENT_PREFIX.length, EVENT_PREFIX.length + 12), 10) }
        : JSON.parse(data.toString());
      switch (m.type) {
        case 'welcome':
          resolve(client);
          break;
        case 'event': {
          const last = client.seqs[client.seqs.length - 1] ?? 0;
          if (m.seq <= last) client.duplicates++;
          else client.seqs.push(m.seq);
          const r = table.received.get(m.seq);
          if (r) {
            r.count++;
            r.last = Math.max(r.last, now);
          } else table.received.set(m.seq, { last: now, count: 1 });
          table.version = Math.max(table.version, m.seq);
          break;
        }
        case 'ack': {
          const sentAt = client.pending.get(m.commandId);
          client.pending.delete(m.commandId);
          if (sentAt !== undefined && m.firstSeq !== null) table.sentAtBySeq.set(m.firstSeq, sentAt);
          acked++;
          break;
        }
        case 'error':
          client.errors++;
          errors++;
          if (m.commandId) client.pending.delete(m.commandId);
          break;
      }
    });
  });
}

const clients = (
  await inBatches(tableIds, 20, (t) =>
    Promise.all(t.tokens.map((token) => connect(tables.find((x) => x.tableId === t.tableId)!, token))),
  )
).flat();
const setupSeconds = (performance.now() - setupStart) / 1000;

// Every client rolls `rate` times a second at random moments (exponential gaps, so the load is bursty).
let sent = 0;
let running = true;
let commandCounter = 0;
const timers = new Set<NodeJS.Timeout>();
function schedule(client: Client) {
  const gap = (-Math.log(1 - Math.random()) / opts.rate) * 1000;
  const timer = setTimeout(() => {
    timers.delete(timer);
    if (!running) return;
    const commandId = `b${++commandCounter}`;
    client.pending.set(commandId, performance.now());
    client.ws.send(JSON.stringify({ type: 'command', commandId, command: { type: 'roll', actor: { name: 'Roller', dice: 1 + (commandCounter % 5) }, reactor: { name: 'Opposition', dice: 2 } } }));
    sent++;
    schedule(client);
  }, gap);
  timers.add(timer);
}
/** CPU seconds the server process has used so far (Linux /proc), or NaN elsewhere. */
function serverCpuSeconds(): number {
  try {
    const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}
const loadBefore = loadavg()[0]!;
const cpuBefore = serverCpuSeconds();
const runStart = performance.now();
for (const c of clients) schedule(c);
await new Promise((r) => setTimeout(r, opts.duration * 1000));
running = false;
for (const t of timers) clearTimeout(t);
const runSeconds = (performance.now() - runStart) / 1000;
const serverCpu = serverCpuSeconds() - cpuBefore;
const loadAfter = loadavg()[0]!;

// Drain: every command answered and every client holding every event of its table.
const drainDeadline = performance.now() + 30_000;
const done = () =>
  clients.every((c) => c.pending.size === 0) && clients.every((c) => (c.seqs[c.seqs.length - 1] ?? 0) === c.table.version);
while (!done() && performance.now() < drainDeadline) await new Promise((r) => setTimeout(r, 50));

let lost = 0;
let duplicated = 0;
for (const c of clients) {
  duplicated += c.duplicates;
  const expected = c.table.version;
  const set = new Set(c.seqs);
  for (let s = 1; s <= expected; s++) if (!set.has(s)) lost++;
}
let unanswered = 0;
for (const c of clients) unanswered += c.pending.size;

const latencies: number[] = [];
const trace: string[] = [];
for (const t of tables) {
  for (const [seq, sentAt] of t.sentAtBySeq) {
    const r = t.received.get(seq);
    if (r && r.count >= opts.clients && sentAt - runStart >= opts.warmup * 1000) {
      latencies.push(r.last - sentAt);
      if (opts.trace) trace.push(`${((sentAt - runStart) / 1000).toFixed(3)} ${(r.last - sentAt).toFixed(1)}`);
    }
  }
}
if (opts.trace) writeFileSync(opts.trace, trace.sort((a, b) => parseFloat(a) - parseFloat(b)).join('\n') + '\n');
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;

for (const c of clients) c.ws.close();
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
rmSync(dataDir, { recursive: true, force: true });
if (opts.store === 'postgres') {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${pgSchema}" CASCADE`);
  await client.end();
}

const result = {
  store: opts.store,
  tables: opts.tables,
  clientsPerTable: opts.clients,
  connections: clients.length,
  rollsPerClientPerSecond: opts.rate,
  seconds: Number(runSeconds.toFixed(1)),
  warmupSeconds: opts.warmup,
  latencySamples: latencies.length,
  setupSeconds: Number(setupSeconds.toFixed(1)),
  commandsSent: sent,
  commandsAcknowledged: acked,
  commandsPerSecond: Math.round(acked / runSeconds),
  eventsDeliveredPerSecond: Math.round((acked * opts.clients) / runSeconds),
  latencyMs: { p50: Number(pct(50).toFixed(1)), p99: Number(pct(99).toFixed(1)), max: Number(pct(100).toFixed(1)) },
  serverCpuPercent: Math.round((serverCpu / runSeconds) * 100),
  machineLoadAverage: { before: Number(loadBefore.toFixed(2)), after: Number(loadAfter.toFixed(2)) },
  lostEvents: lost,
  duplicatedEvents: duplicated,
  unansweredCommands: unanswered,
  errors,
};
console.log(JSON.stringify(result, null, 2));
process.exit(lost === 0 && duplicated === 0 && unanswered === 0 && errors === 0 ? 0 : 1);
