// Counts the queries a process sends through node-postgres (by the first 70 characters of their
// SQL) and the notices it receives, for a server run from its sources (the built server bundles its
// own copy of node-postgres, which this does not see). Preload it in every process of a run:
//
//   PG_QUERY_COUNT_DIR=/tmp/counts NODE_OPTIONS="--import ./bench/pg-query-count.mjs" \
//     node --import tsx bench/server-load.ts --store postgres --loads 1 --duration 10
//
// Each process that sent a query writes PG_QUERY_COUNT_DIR/counts-<pid>.json every second and at
// exit: { ms, notices, counts: { sql: n } }.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const dir = process.env.PG_QUERY_COUNT_DIR;
let pg = null;
try {
  pg = createRequire(join(process.cwd(), 'package.json'))('pg');
} catch {
  // Not a process of the project: nothing to count.
}
if (dir && pg) {
  const counts = new Map();
  const watched = new WeakSet();
  let notices = 0;
  const started = Date.now();
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (text, ...rest) {
    const sql = typeof text === 'string' ? text : (text?.text ?? '?');
    const key = sql.replace(/\s+/g, ' ').trim().slice(0, 70);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (!watched.has(this)) {
      watched.add(this);
      this.on('notification', () => notices++);
    }
    return query.call(this, text, ...rest);
  };
  const write = () => {
    if (counts.size === 0) return;
    const sorted = Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]));
    writeFileSync(join(dir, `counts-${process.pid}.json`), JSON.stringify({ ms: Date.now() - started, notices, counts: sorted }, null, 1));
  };
  setInterval(write, 1000).unref();
  process.on('exit', write);
}
