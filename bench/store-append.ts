/**
 * The SQLite store's cost per append, alone: appends of one event (about 1.3 KB of JSON, the size of
 * a roll) and its command record, to tables taken at random, offered at a steady rate, each table
 * waiting for its previous append (as a table's queue does). Synchronous FULL, as the server's default.
 *
 *   node --import tsx bench/store-append.ts [tables=200] [appends per second=1200] [seconds=6] [spacing ms] [tick ms=10]
 *
 * `spacing`: the store's least time between two group commits (default DEFAULT_COMMIT_SPACING_MS).
 * `tick`: appends are offered every `tick` ms, as many at once as the rate asks for (1: about one at a
 * time at 1,200 a second, as a server's commands arrive; 10: in bursts of 12).
 *
 * Prints the appends stored, the CPU time per append of the whole process (the writer thread's
 * commits included; the main thread only hands the appends over), its system part, the part outside
 * the main thread (the writer and V8's helper threads), the bytes and write calls the process made
 * per append (the write-ahead log and its checkpoints; Linux only) and the latency p50/p99.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../packages/server/src/store/sqlite';
import { DEFAULT_COMMIT_SPACING_MS } from '../packages/server/src/store/spacing';
const TABLES = Number(process.argv[2] ?? 200);
const RATE = Number(process.argv[3] ?? 1200);
const SECONDS = Number(process.argv[4] ?? 6);
const SPACING = Number(process.argv[5] ?? DEFAULT_COMMIT_SPACING_MS);
const TICK = Number(process.argv[6] ?? 10);
const dir = mkdtempSync(join(tmpdir(), 'sb-'));
const store = await openSqliteStore({ file: join(dir, 'x.sqlite'), synchronous: 'full', commitSpacingMs: SPACING });
const payload = JSON.stringify({ type: 'rolled', pad: 'x'.repeat(1250) });
const versions: number[] = [];
// Each table as the server makes it: a GM, no events.
for (let i = 0; i < TABLES; i++) {
  await store.createTable({ table: { id: 't' + i, name: 'T', createdAt: new Date().toISOString(), ruleset: 'personae', settings: { physicalDice: false }, version: 0 }, inviteHash: 'i' + i, observerHash: 'o' + i, participants: [{ participant: { id: 'p', role: 'gm', displayName: 'G', joinedAt: 'x', removedAt: null }, tokenHash: 'h' + i }], events: [] });
  versions.push(0);
}
const busy = new Array(TABLES).fill(false);
let done = 0, n = 0, due = 0;
let lastTick = performance.now();
// Bytes and write calls the process made (Linux): the writer's log and checkpoint writes.
const io = () => {
  if (!existsSync('/proc/self/io')) return { wchar: NaN, syscw: NaN };
  const f = Object.fromEntries(readFileSync('/proc/self/io', 'utf8').trim().split('\n').map((l) => l.split(': ')));
  return { wchar: Number(f.wchar), syscw: Number(f.syscw) };
};
// The main thread's CPU (Linux): the rest of the process is the writer thread and V8's helpers.
const mainThreadUs = () => (existsSync(`/proc/self/task/${process.pid}/schedstat`) ? Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1000 : NaN);
const io0 = io();
const m0 = mainThreadUs();
const c0 = process.cpuUsage();
const lat: number[] = [];
const timer = setInterval(() => {
  // What the time since the last tick asks for (a late timer offers the appends it owes).
  const tickAt = performance.now();
  due += (RATE * (tickAt - lastTick)) / 1000;
  lastTick = tickAt;
  for (; due >= 1; due--) {
    const i = Math.floor(Math.random() * TABLES);
    if (busy[i]) continue;
    busy[i] = true;
    const v = versions[i]!; const at = new Date().toISOString(); const s = performance.now();
    void store.appendEvents('t' + i, v, [{ seq: v + 1, at, participantId: 'p', commandId: 'c' + ++n, event: null, json: payload }], { participantId: 'p', commandId: 'c' + n, commandHash: 'h'.repeat(64), firstSeq: v + 1, lastSeq: v + 1, versionAfter: v + 1, at }).then((r) => { if (!r.ok) throw new Error(`append to t${i} refused: ${r.reason}`); versions[i] = v + 1; busy[i] = false; done++; lat.push(performance.now() - s); });
  }
}, TICK);
await new Promise((r) => setTimeout(r, SECONDS * 1000));
clearInterval(timer);
await new Promise((r) => setTimeout(r, 500));
const c = process.cpuUsage(c0);
const io1 = io();
const mainUs = mainThreadUs() - m0;
lat.sort((a, b) => a - b);
console.log(JSON.stringify({ tables: TABLES, offeredPerSecond: RATE, spacingMs: SPACING, tickMs: TICK, appends: done, perSecond: Math.round(done / SECONDS), cpuUsPerAppend: Math.round((c.user + c.system) / done), systemUsPerAppend: Math.round(c.system / done), otherThreadsUsPerAppend: Math.round((c.user + c.system - mainUs) / done), bytesWrittenPerAppend: Math.round((io1.wchar - io0.wchar) / done), writeCallsPerAppend: Number(((io1.syscw - io0.syscw) / done).toFixed(1)), p50: lat[lat.length >> 1]?.toFixed(1), p99: lat[Math.floor(lat.length * 0.99)]?.toFixed(1), loadAverage: Number(loadavg()[0]!.toFixed(2)) }));
await store.close();
rmSync(dir, { recursive: true, force: true });
