/**
 * Several table servers on one PostgreSQL database, losing nodes and notices; loopback only.
 *
 *   node --import tsx bench/cluster.ts [--route table|random] [--tables 600] [--clients 6] [--rate 0.2]
 *        [--duration 300] [--nodes 3] [--kill-every 20] [--restart-after 5] [--cut-every 10] [--warmup 5]
 *        [--failover hash|next] [--node-start built|tsx] [--server FILE] [--profile DIR] [--samples FILE]
 *        [--drop-every N] [--node-flags "FLAGS"]
 *
 * Starts `nodes` server processes on one schema of its own (dropped at the end): by default the
 * server built by scripts/build-server.mjs (built afresh first), as docs/server.md runs several
 * nodes; `--node-start tsx` runs packages/server/src/main.ts through tsx instead; `--server FILE` runs a
 * server built before (node scripts/build-server.mjs DIR), to run older code beside the new;
 * `--node-flags` gives each node process Node options (e.g. "--max-semi-space-size=64"). It creates the tables, has a GM and (clients - 1) players join each, and lets every client
 * roll `rate` times a second at random moments for `duration` seconds. Meanwhile it kills one node
 * with SIGKILL every `kill-every` seconds and starts it again `restart-after` seconds later, and
 * every `cut-every` seconds ends one node's listening connection (pg_terminate_backend).
 *
 * Clients behave as the web app does: they keep their state from the views the server pushes
 * (`hello` with `events: false`), except the GM of each table, which also takes events, so that the
 * contents of the log can be compared with the database. Every client checks that each view it is
 * sent applies to the one it holds (a `state-patch`'s `base` is its version), so a view lost,
 * repeated or out of order counts; one player per table also reads the log entries of its views and
 * checks their sequence numbers (every one, once, in order), the others only the versions. When the
 * connection drops they connect again (to another node
 * if theirs is down), say hello with the last seq they hold and send again the commands not yet
 * answered, with the same commandId, oldest first and at most 8 waiting for an answer at a time (the
 * rest follow as answers come back); a command refused as rate_limited goes again after the delay
 * the server names. `--route table` sends every client of a table to the same node (a load
 * balancer hashing the table id): while that node is down, to the live node the table ranks next,
 * by a hash (SHA-256) of table and node for each table (`--failover hash`, as a consistent-hashing
 * balancer spreads a lost node's tables over the others) or the next node in line (`--failover next`,
 * which sends all of them to one node). `--route random` sends each connection to a random node that is up.
 *
 * It prints (JSON) every figure of the goals: events lost, duplicated or out of order, every client's
 * log against the database, commands unanswered, `conflict` errors; steady-state latency from a
 * command to all clients of its table; time to answer commands in flight during a kill; time for
 * clients of a killed node to be connected again and caught up (welcomed by a live node on a
 * connection opened after the kill, holding every event acknowledged before it: never on the killed
 * node's own connection, whose buffered messages are still read before its close), how many were
 * counted and which nodes took them in; time
 * to heal gaps left by lost notices (the nodes' own "caught up on missed notices" log lines); the
 * highest notification queue usage; the commands that lost their table's next version to another
 * node and were decided again (the nodes' "append raced" lines: races lost per command, time from
 * the first decision to the answer).
 * After the drain the clients stop counting, the nodes are killed and the database is read once no
 * append is running, so the checks compare a fixed picture on both sides; `drained: false` says the
 * drain ran out of time (logs then count as behind rather than differing).
 * It also prints where the time goes: the CPU time of the node processes (from /proc, read just
 * before each is killed and at the end) and of each node start, each node's event-loop delay second
 * by second (bench/cluster-node-probe.mjs), the benchmark process's own CPU time, event-loop use and
 * delay (it shares the machine with the nodes), reconnections per client, the time from a
 * reconnecting client's hello to its welcome (the node loading the table and authenticating), and a
 * killed node's clients' catch-up in steps (noticing the close, connecting again, welcome, events;
 * connecting again split into the wait before the attempt that opened, its TCP connection and the
 * node's answer to the upgrade; for upgrades over 5 s, where the wait was: before the node accepted
 * the connection, before it read the request, or after, and how many went to a node started again
 * since the kill), and the kernel's counters of full listen
 * queues, SYNs sent again, SYN cookies and retransmission timeouts.
 * `--samples FILE` writes every command's latency with the kills, cuts and event-loop delays by
 * second, to see where the slow ones fall. With `--profile DIR`
 * every node runs with --cpu-prof and is stopped with SIGTERM at the end (not SIGKILL), so the nodes
 * alive at the end write a CPU profile to DIR (killed ones write none).
 * `--drop-every N` makes each client ignore every Nth view or event it receives, as if it were lost,
 * to see that the checks catch it (the run then fails).
 * Progress goes to stderr. Bounded: it stops by itself after duration + 600 s at the latest.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ClientRequestArgs } from 'node:http';
import { connect as netConnect, type NetConnectOpts } from 'node:net';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import WebSocket from 'ws';

interface Options {
  route: 'table' | 'random';
  tables: number;
  clients: number;
  rate: number;
  duration: number;
  nodes: number;
  killEvery: number;
  restartAfter: number;
  cutEvery: number;
  warmup: number;
  profile: string | null;
  samples: string | null;
  nodeStart: 'built' | 'tsx';
  nodeFlags: string[];
  server: string | null;
  failover: 'hash' | 'next';
  dropEvery: number;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = {
    route: 'table',
    tables: 600,
    clients: 6,
    rate: 0.2,
    duration: 300,
    nodes: 3,
    killEvery: 20,
    restartAfter: 5,
    cutEvery: 10,
    warmup: 5,
    profile: null,
    samples: null,
    nodeStart: 'built',
    server: null,
    failover: 'hash',
    dropEvery: 0,
    nodeFlags: [],
  };
  const numeric = ['tables', 'clients', 'rate', 'duration', 'nodes', 'kill-every', 'restart-after', 'cut-every', 'warmup', 'drop-every'];
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i]?.replace(/^--/, '') ?? '';
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`--${key} needs a value`);
    if (key === 'route') {
      if (value !== 'table' && value !== 'random') throw new Error('--route is table or random');
      opts.route = value;
    } else if (key === 'failover') {
      if (value !== 'hash' && value !== 'next') throw new Error('--failover is hash or next');
      opts.failover = value;
    } else if (key === 'profile') {
      opts.profile = value;
    } else if (key === 'node-start') {
      if (value !== 'built' && value !== 'tsx') throw new Error('--node-start is built or tsx');
      opts.nodeStart = value;
    } else if (key === 'server') {
      opts.server = value;
    } else if (key === 'node-flags') {
      opts.nodeFlags = value.split(/\s+/).filter(Boolean);
    } else if (key === 'samples') {
      opts.samples = value;
    } else if (numeric.includes(key)) {
      const n = Number(value);
      if (!(n >= 0)) throw new Error(`--${key} must be a number >= 0`);
      const name = key.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()) as keyof Options;
      (opts as unknown as Record<string, number>)[name] = n;
    } else {
      throw new Error(`unknown option --${key}`);
    }
  }
  if (opts.tables > 2000 || opts.clients > 20 || opts.duration > 600 || opts.rate > 10 || opts.nodes > 8 || opts.nodes < 2) {
    throw new Error('bounded benchmark: at most 2000 tables, 20 clients, 10 rolls/s per client, 600 s, 2 to 8 nodes');
  }
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
const hardStop = setTimeout(() => {
  console.error('benchmark took too long; stopping');
  for (const n of nodes) n.child?.kill('SIGKILL');
  process.exit(2);
}, (opts.duration + 600) * 1000);
hardStop.unref();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const n of nodes) n.child?.kill('SIGKILL');
    process.exit(130);
  });
}

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `bench_cluster_${process.pid}`;
const t0 = performance.now();
const now = () => performance.now();
const progress = (what: string) => console.error(`[${((now() - t0) / 1000).toFixed(1)} s] ${what}`);

// ----- nodes -----

interface Node {
  index: number;
  listenerName: string;
  child: ChildProcess | null;
  port: number;
  up: boolean;
  /** When the node process last said it was ready. */
  readyAt: number;
}

const nodes: Node[] = Array.from({ length: opts.nodes }, (_, index) => ({
  index,
  listenerName: `bench-${process.pid}-node${index}`,
  child: null,
  port: 0,
  up: false,
  readyAt: 0,
}));

/** CPU seconds of node processes that ended (read just before they were killed). */
let nodeCpuSeconds = 0;
/** User and system CPU seconds of a process so far, from /proc (Linux); 0 where it cannot be read. */
function cpuSecondsOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, the 14th and 15th fields, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds each node start took, up to its "ready" line. */
const nodeStartCpuSeconds: number[] = [];

/** Each node's event-loop delay, second by second (bench/cluster-node-probe.mjs); `at` is wall-clock ms. */
const nodeLoopDelays: Array<{ node: number; at: number; p99: number; max: number }> = [];

/** Each node's longest wait, second by second, from accepting a connection to reading its upgrade request (bench/cluster-node-probe.mjs). */
const upgradeWaitsMaxPerSecond: number[] = [];

/** When each node accepted a connection and read its upgrade request (wall clock), by node and client port. */
const upgradesByPort = new Map<string, { acceptedAt: number; upgradeAt: number }>();
/** Slow upgrades (over 5 s) of killed nodes' clients: the client's TCP connection to the node's accept, to reading the request, to the client's open. */
const slowUpgrades: Array<{ connectToAccept: number; acceptToUpgrade: number; upgradeToOpen: number; restartedNode: boolean }> = [];

/** "caught up on missed notices" lines of every node: why, and the oldest missed event's age. */
const heals: Array<{ node: number; reason: string; tables: number; maxLagMs: number }> = [];

/** Commands that lost the race for their table's next version to another node at least once: races lost, time from the first decision to the answer. */
const races: Array<{ lost: number; ms: number }> = [];

/** The kernel's counters of full listen queues, SYNs sent again, SYN cookies and retransmission timeouts (/proc/net/netstat; empty elsewhere). */
function tcpCounters(): Record<string, number> {
  const wanted = ['ListenOverflows', 'ListenDrops', 'TCPReqQFullDrop', 'TCPSynRetrans', 'SyncookiesSent', 'SyncookiesFailed', 'TCPTimeouts'];
  try {
    const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
    const at = lines.findIndex((l) => l.startsWith('TcpExt:'));
    const names = lines[at]!.split(/\s+/);
    const values = lines[at + 1]!.split(/\s+/);
    return Object.fromEntries(wanted.map((w) => [w, Number(values[names.indexOf(w)])]));
  } catch {
    return {};
  }
}

function startNode(node: Node): Promise<void> {
  const profiling = opts.profile ? ['--cpu-prof', '--cpu-prof-dir', opts.profile] : [];
  const entry = opts.server ? [opts.server] : opts.nodeStart === 'built' ? [BUILT_SERVER] : ['--import', 'tsx', 'packages/server/src/main.ts'];
  const child = spawn(process.execPath, [...opts.nodeFlags, ...profiling, '--import', './bench/cluster-node-probe.mjs', ...entry], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      DATABASE_URL,
      DATABASE_SCHEMA: schema,
      DATABASE_LISTENER_NAME: node.listenerName,
      // The benchmark is one address opening thousands of connections and joins.
      MAX_CONNECTIONS_PER_ADDRESS: '100000',
      CREATE_RATE_PER_MINUTE: '100000',
      JOIN_RATE_PER_MINUTE: '100000',
      COMMAND_RATE_BURST: '1000',
      COMMAND_RATE_PER_SECOND: '1000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  node.child = child;
  return new Promise((resolve, reject) => {
    let buffer = '';
    let ready = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (!line.startsWith('{')) continue;
        let entry: Record<string, unknown>;
        try {
          entry = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue;
        }
        if (entry.msg === 'table server ready' && !ready) {
          ready = true;
          nodeStartCpuSeconds.push(cpuSecondsOf(child.pid));
          node.port = entry.port as number;
          node.up = true;
          node.readyAt = now();
          resolve();
        } else if (entry.msg === 'upgrade') {
          upgradesByPort.set(`${node.index}:${entry.port}`, { acceptedAt: Number(entry.acceptedAt), upgradeAt: Number(entry.upgradeAt) });
        } else if (entry.msg === 'upgrades') {
          upgradeWaitsMaxPerSecond.push(Number(entry.max));
        } else if (entry.msg === 'event loop delay') {
          nodeLoopDelays.push({ node: node.index, at: Number(entry.at), p99: Number(entry.p99), max: Number(entry.max) });
        } else if (entry.msg === 'append raced') {
          races.push({ lost: Number(entry.lost), ms: Number(entry.ms) });
        } else if (entry.msg === 'caught up on missed notices') {
          heals.push({ node: node.index, reason: String(entry.reason), tables: Number(entry.tables), maxLagMs: Number(entry.maxLagMs) });
        }
      }
    });
    child.on('exit', (code, signal) => {
      node.up = false;
      if (!ready) reject(new Error(`node ${node.index} exited (${code ?? signal}) before it was ready`));
    });
  });
}

// `--node-start built` (the default) runs each node from the server built by scripts/build-server.mjs,
// built afresh here; `tsx` from the TypeScript sources, which costs each (re)start several times the CPU.
const BUILT_SERVER = 'packages/server/dist/main.mjs';
if (opts.nodeStart === 'built' && !opts.server) execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });

const admin = new pg.Client({ connectionString: DATABASE_URL });
await admin.connect();
await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
// One node first creates the schema; the others start on it.
await startNode(nodes[0]!);
await Promise.all(nodes.slice(1).map(startNode));
progress(`${nodes.length} nodes ready`);

// ----- setup -----

const httpBase = (node: Node) => `http://127.0.0.1:${node.port}`;
async function post(node: Node, path: string, body: unknown): Promise<any> {
  const res = await fetch(httpBase(node) + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}
async function inBatches<T, R>(items: T[], size: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map((x, j) => fn(x, i + j)))));
  return out;
}

interface TableRun {
  tableId: string;
  /** The nodes in the order `--route table` tries them. */
  preference: number[];
  /** First time a command was sent, by the seq its ack gave. */
  sentAtBySeq: Map<number, { sentAt: number; disturbed: boolean; node: number }>;
  received: Map<number, { last: number; count: number }>;
  /** Highest lastSeq of any ack. */
  maxAcked: number;
}

interface Pending {
  command: unknown;
  firstSentAt: number;
  /** Sent on the current connection and not answered yet. */
  sent: boolean;
  /** Sent on some connection before. */
  everSent: boolean;
  /** Set when the node the command went to was killed before it was answered. */
  inFlightAtKill: number | null;
}

interface Client {
  id: number;
  table: TableRun;
  token: string;
  gm: boolean;
  /**
   * What the client checks: `events` (the GM: takes events, each one's seq and contents), `log` (the
   * seq of every log entry in its views) or `versions` (that each view applies to the one it holds).
   */
  check: 'events' | 'log' | 'versions';
  ws: WebSocket | null;
  node: Node | null;
  connected: boolean;
  /** The version of the table the client holds: the last event's seq, or its view's version. */
  lastSeq: number;
  /** The log as the client received it: seqs of its events, of its views' log entries, or of the versions its views went through. */
  seqs: number[];
  /** Views and events received, for `--drop-every`. */
  messages: number;
  /** The GM's copy of every event, to compare with the database. */
  events: Map<number, string>;
  duplicates: number;
  outOfOrder: number;
  pending: Map<string, Pending>;
  /**
   * After a kill of its node: the version to reach, when the kill happened and the connection to the
   * killed node (`killedWs`), whose messages already buffered are still read before its close but
   * never count as the catch-up (see checkCaughtUp).
   */
  catchUp: {
    target: number;
    since: number;
    from: number;
    killedWs: WebSocket | null;
    closedAt?: number;
    attemptAt?: number;
    tcpAt?: number;
    attempts: number;
    openAt?: number;
    welcomeAt?: number;
    /** It held every event to reach while still on the killed node's connection (buffered messages read before the close). */
    heldOnKilledConnection?: boolean;
  } | null;
  /** Connections of this client that were welcomed and then closed. */
  reconnects: number;
}

const setupStart = now();
const created = await inBatches(Array.from({ length: opts.tables }, (_, i) => i), 20, async (i) => {
  const node = nodes[i % nodes.length]!;
  const t = await post(node, '/api/tables', { name: `Cluster ${i}` });
  const players = await Promise.all(
    Array.from({ length: opts.clients - 1 }, (_, p) =>
      post(nodes[(i + p + 1) % nodes.length]!, `/api/tables/${t.tableId}/join`, { invite: t.invite.token, displayName: `P${p}` }),
    ),
  );
  return { tableId: t.tableId as string, tokens: [t.gm.token as string, ...players.map((p) => p.token as string)] };
});

/**
 * A well-mixed 32-bit hash (the first four bytes of SHA-256). FNV-1a of ids that differ only in their
 * last character (`table:0`, `table:1`, ...) ranks the nodes nearly the same way for every table,
 * which sent all the tables of a killed node to one other node rather than spreading them.
 */
function hashOf(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

/** The order in which `--route table` tries the nodes for a table. */
function preferenceOf(tableId: string): number[] {
  const order = nodes.map((n) => n.index);
  if (opts.failover === 'hash') return order.sort((x, y) => hashOf(`${tableId}:${y}`) - hashOf(`${tableId}:${x}`));
  const home = hashOf(tableId) % nodes.length;
  return order.map((_, k) => (home + k) % nodes.length);
}

const tables: TableRun[] = created.map((c) => ({ tableId: c.tableId, preference: preferenceOf(c.tableId), sentAtBySeq: new Map(), received: new Map(), maxAcked: 0 }));
const clients: Client[] = [];
created.forEach((c, ti) =>
  c.tokens.forEach((token, k) =>
    clients.push({
      id: clients.length,
      table: tables[ti]!,
      token,
      gm: k === 0,
      check: k === 0 ? 'events' : k === 1 ? 'log' : 'versions',
      ws: null,
      node: null,
      connected: false,
      lastSeq: 0,
      seqs: [],
      messages: 0,
      events: new Map(),
      duplicates: 0,
      outOfOrder: 0,
      pending: new Map(),
      catchUp: null,
      reconnects: 0,
    }),
  ),
);

// ----- clients -----

let acked = 0;
let sent = 0;
let resent = 0;
let reconnects = 0;
let resyncs = 0;
/** Connection attempts that never got a welcome (the node was down, or closed it first). */
let failedConnects = 0;
/** Bytes the clients received, by message type. */
const bytesReceived = new Map<string, number>();
/** From a reconnecting client's hello to its welcome. */
const helloToWelcomeMs: number[] = [];
/** Close codes of connections that had been welcomed. */
const closeCodes = new Map<number, number>();
/** Why connections that were never welcomed ended: their close code, or the socket's error code. */
const failedConnectCodes = new Map<string, number>();
const errorsByCode = new Map<string, number>();
const inFlightKillMs: number[] = [];
const caughtUpMs: number[] = [];
/** Of the clients counted in caughtUpMs: those that already held every event to reach at their welcome on a live node, and those that got some after it. */
let caughtUpAtWelcome = 0;
let caughtUpAfterWelcome = 0;
/** Of those, the ones that held them all already on the killed node's connection, before noticing its close (counted then before). */
let caughtUpHeldOnKilledConnection = 0;
/** Clients of a killed node whose node was killed again (the one that took them in) before they caught up: not counted. */
let catchUpsOvertakenByAnotherKill = 0;
/** Clients of a killed node caught up, by the killed node and the node that took them in ("0->1"). */
const failoverSpread = new Map<string, number>();
/**
 * The catch-up of a killed node's client in steps: the kill to the client noticing its connection
 * closed, to a new connection open (the WebSocket upgrade done), to its welcome, to holding every
 * event acknowledged before the kill.
 */
const catchUpPhases = {
  closeNoticed: [] as number[],
  connected: [] as number[],
  /** Of `connected`: from the close to the start of the attempt that opened (earlier attempts failed). */
  beforeLastAttempt: [] as number[],
  /** Of `connected`: the attempt that opened, from its start to the WebSocket upgrade's answer. */
  lastAttempt: [] as number[],
  /** Of `lastAttempt`: from its start to the TCP connection made (SYN answered by the kernel). */
  tcpConnect: [] as number[],
  /** Of `lastAttempt`: from the TCP connection to the upgrade's answer (the node reading the request and answering). */
  upgradeAnswer: [] as number[],
  /** Connection attempts that failed before the one that opened. */
  failedAttempts: [] as number[],
  welcomed: [] as number[],
  eventsReceived: [] as number[],
};
const ackedCommands = new Map<string, { tableId: string; firstSeq: number | null; duplicate: boolean }>();
let running = true;
let stopping = false;

function pickNode(client: Client): Node | null {
  const up = nodes.filter((n) => n.up);
  if (up.length === 0) return null;
  if (opts.route === 'random') return up[Math.floor(Math.random() * up.length)]!;
  for (const k of client.table.preference) if (nodes[k]!.up) return nodes[k]!;
  return null;
}

function reconnectSoon(client: Client): void {
  if (stopping) return;
  setTimeout(() => connect(client), 50 + Math.random() * 200);
}

/**
 * The start of a message as the server writes it: its type and, for an event, its seq; for a view
 * its version and, for a `state-patch`, the version of the view it applies to.
 */
const LIGHT_HEAD = /^\{"type":"(state-patch|state|event)","(?:version":(\d+)(?:,"base":(\d+))?|seq":(\d+))/;

/** Counts seq as received by one more client of its table, at `at`. */
function receivedSeq(client: Client, seq: number, at: number): void {
  const r = client.table.received.get(seq);
  if (r) {
    r.count++;
    r.last = Math.max(r.last, at);
  } else client.table.received.set(seq, { last: at, count: 1 });
}

/**
 * A view received by a client that keeps its state from views: the whole view at `version` (base
 * null) or the changes from the view at `base`. `view` is the parsed message, for a client that
 * checks its log entries.
 */
function onView(client: Client, version: number, base: number | null, view: Record<string, any> | null, at: number): void {
  const held = client.lastSeq;
  if (base !== null && base !== held) {
    // Changes to a view the client does not hold: one it had already, or one it never received.
    if (version <= held) client.duplicates++;
    else client.outOfOrder++;
  } else if (base === null && version < held) client.outOfOrder++;
  if (client.check === 'log' && view) {
    // The log entries the view adds: appended to the log array, or a whole new log window.
    const state = (view.type === 'state-patch' ? view.set : view.state) as Record<string, any> | undefined;
    const entries = ((view.arrays?.log?.append ?? state?.log ?? []) as Array<{ seq: number }>).map((e) => e.seq);
    const last = client.seqs[client.seqs.length - 1] ?? 0;
    for (const seq of entries) {
      if (view.arrays?.log === undefined && seq <= last) continue;
      if (seq <= (client.seqs[client.seqs.length - 1] ?? 0)) client.duplicates++;
      else if (seq !== (client.seqs[client.seqs.length - 1] ?? 0) + 1) client.outOfOrder++;
      client.seqs.push(seq);
    }
  } else if (client.check === 'versions') {
    for (let seq = Math.max(held, base ?? 0) + 1; seq <= version; seq++) client.seqs.push(seq);
  }
  for (let seq = held + 1; seq <= version; seq++) receivedSeq(client, seq, at);
  client.lastSeq = Math.max(held, version);
  checkCaughtUp(client, at);
}

function connect(client: Client): Promise<void> {
  return new Promise((resolve) => {
    const node = pickNode(client);
    if (!node) {
      reconnectSoon(client);
      resolve();
      return;
    }
    const attemptAt = now();
    let tcpAt: number | undefined;
    let localPort: number | undefined;
    const ws = new WebSocket(`ws://127.0.0.1:${node.port}/ws`, {
      // To tell the TCP connection (the kernel's part) from the upgrade's answer (the node's).
      createConnection: (options: ClientRequestArgs) => {
        const socket = netConnect(options as NetConnectOpts);
        return socket.once('connect', () => {
          tcpAt = now();
          localPort = socket.localPort;
        });
      },
    });
    /** The node process connected to (a node restarted since is another). */
    const nodeProcess = node.child;
    client.ws = ws;
    client.node = node;
    let welcomed = false;
    let helloAt = 0;
    ws.on('open', () => {
      helloAt = now();
      if (client.catchUp && ws !== client.catchUp.killedWs) {
        client.catchUp.openAt = helloAt;
        client.catchUp.attemptAt = attemptAt;
        client.catchUp.tcpAt = tcpAt;
        if (tcpAt !== undefined && helloAt - tcpAt > 5000) {
          const u = upgradesByPort.get(`${node.index}:${localPort}`);
          const epoch = (t: number) => performance.timeOrigin + t;
          // A port used before by another connection to the same node has an older entry: left out.
          if (u && u.acceptedAt >= epoch(tcpAt) - 1000) slowUpgrades.push({ connectToAccept: Math.round(u.acceptedAt - epoch(tcpAt)), acceptToUpgrade: u.upgradeAt - u.acceptedAt, upgradeToOpen: Math.round(epoch(helloAt) - u.upgradeAt), restartedNode: node.readyAt > client.catchUp.since });
        }
      }
      ws.send(JSON.stringify({ type: 'hello', tableId: client.table.tableId, token: client.token, since: client.lastSeq, events: client.check === 'events' }));
    });
    let failure: string | null = null;
    ws.on('error', (error: Error & { code?: string }) => {
      failure ??= error.code ?? error.message;
    });
    ws.on('close', (code) => {
      if (stopping) return;
      if (welcomed) closeCodes.set(code, (closeCodes.get(code) ?? 0) + 1);
      if (client.catchUp && client.catchUp.closedAt === undefined) client.catchUp.closedAt = now();
      client.connected = false;
      if (client.ws === ws) client.ws = null;
      if (!welcomed) {
        failedConnects++;
        if (client.catchUp) client.catchUp.attempts++;
        // Whether the node was down by then (killed meanwhile) or up, to tell the two apart.
        const why = `${failure ?? String(code)}${node.up && node.child === nodeProcess ? '' : ' (node down)'}`;
        failedConnectCodes.set(why, (failedConnectCodes.get(why) ?? 0) + 1);
        resolve();
      } else {
        reconnects++;
        client.reconnects++;
      }
      reconnectSoon(client);
    });
    ws.on('message', (data: Buffer) => {
      // Once the figures are taken, nothing more counts (see "checks against the database").
      if (stopping) return;
      const at = now();
      // The clients read only what they check: a view is read for its version and base (whole only by
      // the client that checks its log entries), and the GM's views not at all (it is checked through
      // its events, parsed whole to compare with the database). So the benchmark's own process takes
      // less of the cores it shares with the nodes.
      const head = LIGHT_HEAD.exec(data.toString('latin1', 0, 64));
      const kindOfHead = head?.[1];
      if (kindOfHead === 'state-patch' || kindOfHead === 'state') {
        bytesReceived.set(kindOfHead, (bytesReceived.get(kindOfHead) ?? 0) + data.length);
        if (client.check === 'events') return;
        if (opts.dropEvery > 0 && ++client.messages % opts.dropEvery === 0) return;
        const view = client.check === 'log' ? (JSON.parse(data.toString()) as Record<string, any>) : null;
        onView(client, Number(head![2]), head![3] === undefined ? null : Number(head![3]), view, at);
        return;
      }
      const m = JSON.parse(data.toString()) as Record<string, any>;
      const kind = String(m.type);
      bytesReceived.set(kind, (bytesReceived.get(kind) ?? 0) + data.length);
      switch (m.type) {
        case 'welcome':
          welcomed = true;
          // A whole view in the welcome: the first connection, or a resync.
          if (client.check !== 'events' && m.state !== undefined) onView(client, m.version as number, null, client.check === 'log' ? m : null, at);
          if (client.reconnects > 0) helloToWelcomeMs.push(at - helloAt);
          client.connected = true;
          if (client.catchUp && ws !== client.catchUp.killedWs) client.catchUp.welcomeAt = at;
          if (m.resync) resyncs++;
          for (const p of client.pending.values()) p.sent = false;
          flushCommands(client);
          checkCaughtUp(client, at);
          resolve();
          break;
        case 'event': {
          if (opts.dropEvery > 0 && ++client.messages % opts.dropEvery === 0) break;
          const seq = m.seq as number;
          if (seq <= client.lastSeq) {
            client.duplicates++;
            break;
          }
          if (seq !== client.lastSeq + 1) client.outOfOrder++;
          client.lastSeq = seq;
          client.seqs.push(seq);
          client.events.set(seq, JSON.stringify(m.event));
          receivedSeq(client, seq, at);
          checkCaughtUp(client, at);
          break;
        }
        case 'ack': {
          const p = client.pending.get(m.commandId);
          if (!p) break;
          client.pending.delete(m.commandId);
          acked++;
          ackedCommands.set(m.commandId, { tableId: client.table.tableId, firstSeq: m.firstSeq, duplicate: m.duplicate === true });
          if (m.lastSeq !== null) client.table.maxAcked = Math.max(client.table.maxAcked, m.lastSeq);
          if (m.firstSeq !== null) {
            client.table.sentAtBySeq.set(m.firstSeq, { sentAt: p.firstSentAt, disturbed: disturbedAt(p.firstSentAt), node: client.node?.index ?? -1 });
          }
          if (p.inFlightAtKill !== null) inFlightKillMs.push(at - p.firstSentAt);
          flushCommands(client);
          break;
        }
        case 'error': {
          const code = String(m.code);
          errorsByCode.set(code, (errorsByCode.get(code) ?? 0) + 1);
          const p = m.commandId ? client.pending.get(m.commandId) : undefined;
          if (p && code === 'rate_limited') {
            // As the web app does: the same command again after the delay the server names.
            p.sent = false;
            setTimeout(() => flushCommands(client), Math.max(50, Number(m.retryAfterMs) || 1000));
          } else if (p) {
            client.pending.delete(m.commandId);
            flushCommands(client);
          }
          break;
        }
      }
    });
  });
}

/** Commands a client keeps sent and unanswered on one connection, at most (as the web app). */
const MAX_UNANSWERED = 8;

/** Sends the client's waiting commands, oldest first, keeping at most MAX_UNANSWERED unanswered. */
function flushCommands(client: Client): void {
  const ws = client.ws;
  if (!client.connected || !ws || ws.readyState !== WebSocket.OPEN) return;
  let waiting = 0;
  for (const p of client.pending.values()) if (p.sent) waiting++;
  for (const [commandId, p] of client.pending) {
    if (waiting >= MAX_UNANSWERED) break;
    if (p.sent) continue;
    if (p.everSent) resent++;
    ws.send(JSON.stringify({ type: 'command', commandId, command: p.command }));
    p.sent = true;
    p.everSent = true;
    waiting++;
  }
}

/**
 * A killed node's client is caught up once it is welcomed on a connection to a live node, opened
 * after the kill, and holds every event acknowledged before the kill (to `target`). Events the
 * killed node sent before dying and the client reads only afterwards count as held, but a client
 * is never caught up on the killed node's connection itself: it may still read buffered messages
 * before noticing the close.
 */
function checkCaughtUp(client: Client, at: number): void {
  const c = client.catchUp;
  if (c && client.ws === c.killedWs && client.connected && client.lastSeq >= c.target) c.heldOnKilledConnection = true;
  if (c && client.connected && client.ws !== c.killedWs && c.welcomeAt !== undefined && client.lastSeq >= c.target) {
    caughtUpMs.push(at - c.since);
    if (at === c.welcomeAt) caughtUpAtWelcome++;
    else caughtUpAfterWelcome++;
    if (c.heldOnKilledConnection) caughtUpHeldOnKilledConnection++;
    // The killed node started again and taking its clients back shows as "0->0 (restarted)".
    const where = `${c.from}->${client.node?.index ?? '?'}${client.node?.index === c.from ? ' (restarted)' : ''}`;
    failoverSpread.set(where, (failoverSpread.get(where) ?? 0) + 1);
    if (c.closedAt !== undefined && c.openAt !== undefined && c.welcomeAt !== undefined) {
      catchUpPhases.closeNoticed.push(c.closedAt - c.since);
      catchUpPhases.connected.push(c.openAt - c.closedAt);
      if (c.attemptAt !== undefined) {
        catchUpPhases.beforeLastAttempt.push(Math.max(0, c.attemptAt - c.closedAt));
        catchUpPhases.lastAttempt.push(c.openAt - c.attemptAt);
        if (c.tcpAt !== undefined) {
          catchUpPhases.tcpConnect.push(c.tcpAt - c.attemptAt);
          catchUpPhases.upgradeAnswer.push(c.openAt - c.tcpAt);
        }
      }
      catchUpPhases.failedAttempts.push(c.attempts);
      catchUpPhases.welcomed.push(c.welcomeAt - c.openAt);
      catchUpPhases.eventsReceived.push(at - c.welcomeAt);
    }
    client.catchUp = null;
  }
}

let commandCounter = 0;
function schedule(client: Client): void {
  const gap = (-Math.log(1 - Math.random()) / opts.rate) * 1000;
  setTimeout(() => {
    if (!running) return;
    const commandId = `c${++commandCounter}`;
    const command = { type: 'roll', actor: { name: 'Roller', dice: 1 + (commandCounter % 5) }, reactor: { name: 'Opposition', dice: 2 } };
    // A command made while the client's node is down counts as in flight during the kill too.
    client.pending.set(commandId, {
      command,
      firstSentAt: now(),
      sent: false,
      everSent: false,
      inFlightAtKill: client.catchUp && !client.connected ? client.catchUp.since : null,
    });
    sent++;
    // A client that is between connections sends it once it is connected again.
    flushCommands(client);
    schedule(client);
  }, gap);
}

await inBatches(clients, 200, (c) => connect(c));
const setupSeconds = (now() - setupStart) / 1000;
progress(`set up ${tables.length} tables and ${clients.length} connections in ${setupSeconds.toFixed(1)} s`);

// ----- disturbances -----

/** Kills and listener cuts, by time; commands sent shortly after one do not count as steady state. */
const kills: number[] = [];
const cuts: number[] = [];
function disturbedAt(at: number): boolean {
  return kills.some((k) => at >= k - 200 && at < k + (opts.restartAfter + 5) * 1000) || cuts.some((c) => at >= c - 200 && at < c + 1500);
}

let killCount = 0;
let cutCount = 0;
let restartFailures = 0;
const timers: NodeJS.Timeout[] = [];

function killOne(): void {
  const node = nodes[killCount++ % nodes.length]!;
  if (!node.up || !node.child) return;
  const at = now();
  kills.push(at);
  progress(`killed node ${node.index}; ${acked} of ${sent} commands acknowledged so far`);
  node.up = false;
  nodeCpuSeconds += cpuSecondsOf(node.child.pid);
  node.child.kill('SIGKILL');
  for (const c of clients) {
    if (c.node !== node) continue;
    for (const p of c.pending.values()) if (p.inFlightAtKill === null) p.inFlightAtKill = at;
    if (c.catchUp) catchUpsOvertakenByAnotherKill++;
    c.catchUp = { target: c.table.maxAcked, since: at, from: node.index, killedWs: c.ws, attempts: 0 };
  }
  setTimeout(() => {
    if (stopping) return;
    startNode(node).catch(() => restartFailures++);
  }, opts.restartAfter * 1000);
}

async function cutOne(): Promise<void> {
  const up = nodes.filter((n) => n.up);
  const node = up[cutCount++ % Math.max(1, up.length)];
  if (!node) return;
  const r = await admin.query('SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = $1', [node.listenerName]);
  if (r.rows.some((row: { done: boolean }) => row.done)) cuts.push(now());
}

let queueMax = 0;
const queueTimer = setInterval(() => {
  admin.query('SELECT pg_notification_queue_usage() AS u').then(
    (r) => (queueMax = Math.max(queueMax, Number(r.rows[0].u))),
    () => undefined,
  );
}, 1000);

const loadBefore = loadavg();
const tcpBefore = tcpCounters();
const runStart = now();
const cpuBefore = process.cpuUsage();
const loopBefore = performance.eventLoopUtilization();
// The benchmark's own event loop: 3,600 sockets in one process; a late timer or message here would
// count as server latency.
const benchLoopDelay = monitorEventLoopDelay({ resolution: 10 });
benchLoopDelay.enable();
const benchLoopBySecond: number[] = [];
const benchLoopSecond = monitorEventLoopDelay({ resolution: 10 });
benchLoopSecond.enable();
timers.push(
  setInterval(() => {
    benchLoopBySecond.push(Number((benchLoopSecond.max / 1e6).toFixed(1)));
    benchLoopSecond.reset();
  }, 1000),
);
for (const c of clients) schedule(c);
if (opts.killEvery > 0) timers.push(setInterval(killOne, opts.killEvery * 1000));
if (opts.cutEvery > 0) {
  // Cuts halfway between kills, so the two are told apart.
  setTimeout(() => {
    void cutOne();
    timers.push(setInterval(() => void cutOne(), opts.cutEvery * 1000));
  }, (opts.cutEvery / 2) * 1000);
}
await new Promise((r) => setTimeout(r, opts.duration * 1000));
running = false;
for (const t of timers) clearInterval(t);
progress('stopped sending; draining');
const runSeconds = (now() - runStart) / 1000;
const loadAfter = loadavg();
const tcpAfter = tcpCounters();
const cpuUsed = process.cpuUsage(cpuBefore);
const loopUsed = performance.eventLoopUtilization(loopBefore);
benchLoopDelay.disable();
benchLoopSecond.disable();

// Every node up again, then drain: every command answered, every client at its table's version.
const upDeadline = now() + 30_000;
while (!nodes.every((n) => n.up) && now() < upDeadline) await new Promise((r) => setTimeout(r, 100));
const versions = async () => {
  const r = await admin.query<{ id: string; version: number }>(`SELECT id, version FROM "${schema}".tables`);
  return new Map(r.rows.map((row) => [row.id, row.version]));
};
let dbVersions = await versions();
const drainDeadline = now() + 60_000;
for (;;) {
  const pendingLeft = clients.some((c) => c.pending.size > 0);
  dbVersions = await versions();
  const behind = clients.some((c) => c.lastSeq !== dbVersions.get(c.table.tableId));
  if ((!pendingLeft && !behind) || now() > drainDeadline) break;
  progress(`draining: ${clients.filter((c) => c.pending.size > 0).length} clients wait for answers, ${clients.filter((c) => c.lastSeq !== dbVersions.get(c.table.tableId)).length} are behind`);
  await new Promise((r) => setTimeout(r, 250));
}
const drained = now() <= drainDeadline;
// What the clients hold is fixed from here on: messages arriving later are ignored. Then the nodes
// stop, and the database is read only once no append of theirs is still running, so an ack counted
// here was committed before the database is read (a node still answering its backlog while the
// database is read would otherwise ack commands the read could not see yet).
stopping = true;
clearInterval(queueTimer);
for (const c of clients) c.ws?.close();
await Promise.all(
  nodes.map((n) => {
    const child = n.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return null;
    const exited = new Promise((r) => child.once('exit', r));
    nodeCpuSeconds += cpuSecondsOf(child.pid);
    // A profiled node writes its profile only when it exits by itself.
    child.kill(opts.profile ? 'SIGTERM' : 'SIGKILL');
    return exited;
  }),
);
const quietDeadline = now() + 10_000;
while (now() < quietDeadline) {
  const r = await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE state <> 'idle' AND pid <> pg_backend_pid() AND query LIKE $1`, [
    `%"${schema}"%`,
  ]);
  if (Number(r.rows[0].n) === 0) break;
  await new Promise((r) => setTimeout(r, 100));
}
dbVersions = await versions();

// ----- checks against the database -----

let lost = 0;
let duplicated = 0;
let outOfOrder = 0;
let logsDiffering = 0;
/** Clients whose log is the database's up to some point but stops short of its end (not drained). */
let logsBehind = 0;
let unanswered = 0;
for (const c of clients) {
  duplicated += c.duplicates;
  outOfOrder += c.outOfOrder;
  unanswered += c.pending.size;
  const version = dbVersions.get(c.table.tableId) ?? 0;
  if (c.seqs.some((s, i) => s !== i + 1) || c.seqs.length > version) logsDiffering++;
  else if (c.seqs.length < version) logsBehind++;
}
// The GM sees every event as stored: compare the contents of those it received.
let contentDiffering = 0;
let gmEventsNotReceived = 0;
for (const c of clients.filter((x) => x.check === 'events')) {
  const r = await admin.query<{ seq: number; payload: string }>(`SELECT seq, payload FROM "${schema}".events WHERE table_id = $1 ORDER BY seq`, [
    c.table.tableId,
  ]);
  for (const row of r.rows) {
    const held = c.events.get(row.seq);
    if (held === undefined) gmEventsNotReceived++;
    else if (held !== JSON.stringify(JSON.parse(row.payload))) contentDiffering++;
  }
}
// Every acknowledged command is in the database with the events its ack named.
const stored = await admin.query<{ command_id: string; first_seq: number | null }>(`SELECT command_id, first_seq FROM "${schema}".commands`);
const storedById = new Map(stored.rows.map((r) => [r.command_id, r.first_seq]));
let ackedMissing = 0;
/** A few of the acknowledged commands the database disagrees with, to tell a lost one from a miscount. */
const ackedMissingExamples: Array<{ commandId: string; tableId: string; ackFirstSeq: number | null; storedFirstSeq: number | null | 'absent'; duplicate: boolean }> = [];
for (const [id, a] of ackedCommands) {
  if (storedById.has(id) && storedById.get(id) === a.firstSeq) continue;
  ackedMissing++;
  if (ackedMissingExamples.length < 10) {
    ackedMissingExamples.push({ commandId: id, tableId: a.tableId, ackFirstSeq: a.firstSeq, storedFirstSeq: storedById.has(id) ? storedById.get(id)! : 'absent', duplicate: a.duplicate });
  }
}
const eventRows = Number((await admin.query(`SELECT count(*)::int AS n FROM "${schema}".events`)).rows[0].n);
for (const t of tables) for (let s = 1; s <= (dbVersions.get(t.tableId) ?? 0); s++) if (!t.received.has(s)) lost++;

// ----- latency -----

const steady: number[] = [];
const all: number[] = [];
/** Every command counted: sent (s after the run began), latency to all clients (ms), steady or not, the sender's node. */
const samples: Array<[number, number, 0 | 1, number]> = [];
for (const t of tables) {
  for (const [seq, s] of t.sentAtBySeq) {
    const r = t.received.get(seq);
    if (!r || r.count < opts.clients || s.sentAt - runStart < opts.warmup * 1000) continue;
    all.push(r.last - s.sentAt);
    if (!s.disturbed) steady.push(r.last - s.sentAt);
    samples.push([Number(((s.sentAt - runStart) / 1000).toFixed(3)), Number((r.last - s.sentAt).toFixed(1)), s.disturbed ? 0 : 1, s.node]);
  }
}
// Wall-clock ms of the run's start, to place the nodes' event-loop lines (Date.now()) on the run's time.
const runStartWall = Date.now() - (now() - runStart);
const runEndWall = runStartWall + runSeconds * 1000;
const nodeSeconds = nodeLoopDelays.filter((d) => d.at >= runStartWall && d.at <= runEndWall);
const steadyNodeSeconds = nodeSeconds.filter((d) => !disturbedAt(runStart + (d.at - runStartWall)));
if (opts.samples) {
  writeFileSync(
    opts.samples,
    JSON.stringify({
      kills: kills.map((k) => (k - runStart) / 1000),
      cuts: cuts.map((c) => (c - runStart) / 1000),
      commands: samples,
      nodeLoopDelay: nodeSeconds.map((d) => [(d.at - runStartWall) / 1000, d.node, d.p99, d.max]),
      benchLoopDelayMaxBySecond: benchLoopBySecond,
    }),
  );
}
const stats = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
  return { n: sorted.length, p50: Number(pct(50).toFixed(1)), p99: Number(pct(99).toFixed(1)), max: Number(pct(100).toFixed(1)) };
};
const cutHeals = heals.filter((h) => h.reason === 'reconnected');
const periodicHeals = heals.filter((h) => h.reason === 'periodic');

await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
await admin.end();

const conflicts = errorsByCode.get('conflict') ?? 0;
const result = {
  route: opts.route,
  failover: opts.failover,
  nodes: opts.nodes,
  tables: opts.tables,
  clientsPerTable: opts.clients,
  connections: clients.length,
  /** Clients checked through their events (the GMs), the log entries of their views, or their views' versions. */
  checkClients: Object.fromEntries((['events', 'log', 'versions'] as const).map((k) => [k, clients.filter((c) => c.check === k).length])),
  dropEvery: opts.dropEvery,
  rollsPerClientPerSecond: opts.rate,
  seconds: Number(runSeconds.toFixed(1)),
  setupSeconds: Number(setupSeconds.toFixed(1)),
  machineLoadAverage: { before: loadBefore.map((x) => Number(x.toFixed(2))), after: loadAfter.map((x) => Number(x.toFixed(2))) },
  kills: kills.length,
  restartFailures,
  listenerCuts: cuts.length,
  commandsSent: sent,
  commandsAcknowledged: acked,
  commandsResent: resent,
  reconnects,
  failedConnects,
  reconnectsPerClient: (() => {
    const counts = clients.map((c) => c.reconnects).sort((x, y) => x - y);
    return { clientsReconnected: counts.filter((n) => n > 0).length, p50: counts[Math.floor(counts.length / 2)], max: counts[counts.length - 1] };
  })(),
  helloToWelcomeAfterReconnectMs: stats(helloToWelcomeMs),
  /**
   * The kernel's TCP counters over the run (the whole machine): connections refused a place in a full
   * listen queue, SYNs sent again because one went unanswered (each waits 1 s, then 2, 4, 8 s...),
   * connections set up with SYN cookies (a full queue of half-open ones) and retransmission timeouts.
   */
  tcpDuringRun: Object.fromEntries(Object.keys(tcpAfter).map((k) => [k, tcpAfter[k]! - (tcpBefore[k] ?? 0)])),
  megabytesReceivedByType: Object.fromEntries([...bytesReceived].map(([type, n]) => [type, Number((n / 1e6).toFixed(1))])),
  /** Every node process, from start to end (setup and drain included). */
  nodeCpuSeconds: Number(nodeCpuSeconds.toFixed(1)),
  nodeStart: opts.nodeStart,
  /** CPU seconds of each node start up to "ready" (first starts and restarts). */
  nodeStartCpuSeconds: stats(nodeStartCpuSeconds),
  /** The benchmark process itself (clients and checks) during the run: it shares the cores with the nodes. */
  benchmarkProcess: {
    cpuSeconds: Number(((cpuUsed.user + cpuUsed.system) / 1e6).toFixed(1)),
    cpuShareOfOneCore: Number(((cpuUsed.user + cpuUsed.system) / 1e6 / runSeconds).toFixed(2)),
    eventLoopUtilization: Number(loopUsed.utilization.toFixed(2)),
    eventLoopDelayMs: {
      p50: Number((benchLoopDelay.percentile(50) / 1e6).toFixed(1)),
      p99: Number((benchLoopDelay.percentile(99) / 1e6).toFixed(1)),
      max: Number((benchLoopDelay.max / 1e6).toFixed(1)),
    },
  },
  /**
   * The nodes' event-loop delay (bench/cluster-node-probe.mjs): the worst delay of each node in each
   * second of the run, over all seconds and over the steady ones (no kill or cut near).
   */
  nodeEventLoopDelayMaxPerSecondMs: { all: stats(nodeSeconds.map((d) => d.max)), steady: stats(steadyNodeSeconds.map((d) => d.max)) },
  closeCodes: Object.fromEntries(closeCodes),
  failedConnectCodes: Object.fromEntries(failedConnectCodes),
  eventsInDatabase: eventRows,
  /** False when the drain ran out of time: the nodes still had commands or events to deliver. */
  drained,
  correctness: {
    acknowledgedMissingFromDatabase: ackedMissing,
    acknowledgedMissingExamples: ackedMissingExamples,
    eventsNeverReceived: lost,
    duplicatedEvents: duplicated,
    outOfOrderEvents: outOfOrder,
    clientLogsDifferingFromDatabase: logsDiffering,
    clientLogsBehindDatabase: logsBehind,
    gmEventContentsDifferingFromDatabase: contentDiffering,
    gmEventsNotReceived,
    unansweredCommands: unanswered,
    conflictErrors: conflicts,
    resyncs,
    errorsByCode: Object.fromEntries(errorsByCode),
  },
  latencyToAllClientsMs: { steady: stats(steady), all: stats(all) },
  commandsInFlightDuringKillMs: stats(inFlightKillMs),
  /**
   * From a kill to each of its node's clients being welcomed on a connection to a live node opened
   * after the kill and holding every event acknowledged before the kill. n clients counted: those
   * that held them all at that welcome and those that got some after it; a client never counts on
   * the killed node's own connection (messages already buffered are read before its close).
   */
  killedNodeClientsCaughtUpMs: {
    counted: 'from the kill to a welcome on a live node (a connection opened after the kill) while holding every event acknowledged before the kill',
    ...stats(caughtUpMs),
    heldAllAtWelcome: caughtUpAtWelcome,
    gotEventsAfterWelcome: caughtUpAfterWelcome,
    heldAllOnKilledConnection: caughtUpHeldOnKilledConnection,
    stillBehind: clients.filter((c) => c.catchUp).length,
    overtakenByAnotherKill: catchUpsOvertakenByAnotherKill,
  },
  /** Where the clients of each killed node were taken in: "killed->node" and how many. */
  killedNodeClientsTakenInBy: Object.fromEntries([...failoverSpread].sort()),
  killedNodeClientsCaughtUpStepsMs: Object.fromEntries(Object.entries(catchUpPhases).map(([k, xs]) => [k, stats(xs)])),
  /** The nodes' longest wait per second from accepting a connection to reading its upgrade request. */
  nodeAcceptToUpgradeMaxPerSecondMs: stats(upgradeWaitsMaxPerSecond),
  slowUpgrades: {
    n: slowUpgrades.length,
    /** Of those, to a node that had been started again since the kill (it loads every table it takes on cold). */
    toRestartedNode: slowUpgrades.filter((x) => x.restartedNode).length,
    connectToAccept: stats(slowUpgrades.map((x) => x.connectToAccept)),
    acceptToUpgrade: stats(slowUpgrades.map((x) => x.acceptToUpgrade)),
    upgradeToOpen: stats(slowUpgrades.map((x) => x.upgradeToOpen)),
  },
  gapsHealedAfterListenerCutMs: { ...stats(cutHeals.map((h) => h.maxLagMs)), tablesCaughtUp: cutHeals.reduce((s, h) => s + h.tables, 0) },
  gapsHealedByPeriodicCheckMs: { ...stats(periodicHeals.map((h) => h.maxLagMs)), tablesCaughtUp: periodicHeals.reduce((s, h) => s + h.tables, 0) },
  /** Commands that lost their table's next version to another node and were decided again (the nodes' "append raced" lines). */
  appendRaces: {
    commands: races.length,
    racesLost: races.reduce((s, r) => s + r.lost, 0),
    lostPerCommand: stats(races.map((r) => r.lost)),
    firstDecisionToAnswerMs: stats(races.map((r) => r.ms)),
  },
  notificationQueueUsageMax: queueMax,
  goals: {} as Record<string, { value: number; goal: string; met: boolean }>,
  elapsedSeconds: Number(((now() - t0) / 1000).toFixed(1)),
};
const steadyStats = result.latencyToAllClientsMs.steady;
const goal = (value: number, text: string, met: boolean) => ({ value, goal: text, met });
result.goals = {
  acknowledgedLostDuplicatedOrOutOfOrder: goal(ackedMissing + lost + duplicated + outOfOrder, '0', ackedMissing + lost + duplicated + outOfOrder === 0),
  // Equal: neither differing nor behind (a client still behind when the drain ran out of time).
  clientLogsDifferingFromDatabase: goal(
    logsDiffering + logsBehind + contentDiffering + gmEventsNotReceived,
    '0',
    logsDiffering + logsBehind + contentDiffering + gmEventsNotReceived === 0,
  ),
  unansweredCommands: goal(unanswered, '0', unanswered === 0),
  conflictErrors: goal(conflicts, '0', conflicts === 0),
  steadyLatencyP50Ms: goal(steadyStats.p50, '< 30', steadyStats.p50 < 30),
  steadyLatencyP99Ms: goal(steadyStats.p99, '< 150', steadyStats.p99 < 150),
  inFlightDuringKillP99Ms: goal(result.commandsInFlightDuringKillMs.p99, '< 2500', !(result.commandsInFlightDuringKillMs.p99 >= 2500)),
  killedNodeClientsCaughtUpP99Ms: goal(
    result.killedNodeClientsCaughtUpMs.p99,
    '< 3000, none left behind',
    !(result.killedNodeClientsCaughtUpMs.p99 >= 3000) && result.killedNodeClientsCaughtUpMs.stillBehind === 0,
  ),
  gapsHealedAfterListenerCutMaxMs: goal(result.gapsHealedAfterListenerCutMs.max, '< 1000', !(result.gapsHealedAfterListenerCutMs.max >= 1000)),
  notificationQueueUsageMaxPercent: goal(queueMax * 100, '< 1', queueMax * 100 < 1),
};
console.log(JSON.stringify(result, null, 2));
const ok =
  ackedMissing === 0 &&
  lost === 0 &&
  duplicated === 0 &&
  outOfOrder === 0 &&
  logsDiffering + logsBehind + contentDiffering + gmEventsNotReceived === 0 &&
  unanswered === 0 &&
  conflicts === 0;
process.exit(ok ? 0 : 1);
