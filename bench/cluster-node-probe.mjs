/**
 * Loaded into each node of bench/cluster.ts (node --import): once a second it writes one JSON line to
 * stdout with the node's event-loop delay over that second (p50, p99, max, in ms), so the benchmark
 * can tell a node that was blocked from time spent elsewhere (PostgreSQL, the clients, the network).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
const timer = setInterval(() => {
  const ms = (ns) => Number((ns / 1e6).toFixed(1));
  process.stdout.write(
    `${JSON.stringify({ msg: 'event loop delay', at: Date.now(), p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) })}\n`,
  );
  histogram.reset();
}, 1000);
timer.unref();
