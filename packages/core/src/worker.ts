import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * A worker thread running the module at `url`. Built JavaScript starts as it is, with none of the
 * command-line flags of the process: a worker otherwise inherits them, and a preload among them (the
 * `--import tsx` of a script run through tsx) would load again in every worker, about 100 ms of CPU
 * each, for a bundle that needs no loader. A TypeScript module (code run from its sources through
 * tsx) first registers tsx's loader in the worker: on Node 20 a worker does not get the loader hooks
 * of the thread that starts it. Node only: kept out of the package index, which the browser app
 * imports.
 */
export function startWorker(url: URL, workerData: unknown): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, { workerData, execArgv: [] });
  const boot = `import(${JSON.stringify(tsxApi())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(boot, { eval: true, workerData });
}

function tsxApi(): string {
  try {
    return import.meta.resolve('tsx/esm/api');
  } catch {
    // Where import.meta.resolve is missing: the same export, read from tsx's package.json.
    const require = createRequire(import.meta.url);
    const pkgPath = require.resolve('tsx/package.json');
    const pkg = require(pkgPath) as { exports: Record<string, { import: { default: string } }> };
    return new URL(pkg.exports['./esm/api']!.import.default, pathToFileURL(pkgPath)).href;
  }
}
