/**
 * Loaded into each node of bench/cluster.ts (node --import): once a second it writes one JSON line to
 * stdout with the node's event-loop delay over that second (p50, p99, max, in ms), so the benchmark
 * can tell a node that was blocked from time spent elsewhere (PostgreSQL, the clients, the network);
 * and, in a second that had any, the longest wait from accepting a connection to reading its
 * WebSocket upgrade request. For each upgrade it also writes when the connection was accepted and
 * when its request was read (wall clock, with the client's port, for the benchmark to match).
 */
import { Server } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

// The time from the node accepting a TCP connection to its HTTP server reading the WebSocket upgrade
// request on it (its handler answers at once), to tell where a slow upgrade waits: before the accept
// (the kernel's queue) or after it.
const accepted = new WeakMap();
let upgradeWaits = [];
const emit = Server.prototype.emit;
Server.prototype.emit = function (event, ...args) {
  if (event === 'connection') accepted.set(args[0], Date.now());
  else if (event === 'upgrade') {
    const at = accepted.get(args[1]);
    if (at !== undefined) {
      const upgradeAt = Date.now();
      upgradeWaits.push(upgradeAt - at);
      process.stdout.write(`${JSON.stringify({ msg: 'upgrade', port: args[1].remotePort, acceptedAt: at, upgradeAt })}\n`);
    }
  }
  return emit.call(this, event, ...args);
};

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
const timer = setInterval(() => {
  const ms = (ns) => Number((ns / 1e6).toFixed(1));
  process.stdout.write(
    `${JSON.stringify({ msg: 'event loop delay', at: Date.now(), p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) })}\n`,
  );
  histogram.reset();
  if (upgradeWaits.length > 0) {
    process.stdout.write(`${JSON.stringify({ msg: 'upgrades', at: Date.now(), n: upgradeWaits.length, max: Math.max(...upgradeWaits) })}\n`);
    upgradeWaits = [];
  }
}, 1000);
timer.unref();
