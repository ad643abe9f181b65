// Builds the table server into JavaScript, so that a node starts without compiling TypeScript:
//   packages/server/dist/main.mjs           the server (run: node packages/server/dist/main.mjs)
//   packages/server/dist/import-worker.mjs  the worker that checks an imported table
//   packages/server/dist/sqlite-writer.mjs  the SQLite store's writer thread (copied as it is)
// or into the directory given as its argument (node scripts/build-server.mjs DIR).
// Started from the sources (node --import tsx packages/server/src/main.ts), a node spends several
// times more CPU before it serves: loading TypeScript through tsx's hooks. Where nodes restart after a
// crash while the others carry their clients, that time counts (docs/server.md, docs/benchmarks.md).
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = resolve(process.argv[2] ?? resolve(root, 'packages/server/dist'));
mkdirSync(outdir, { recursive: true });
await esbuild.build({
  entryPoints: {
    main: resolve(root, 'packages/server/src/main.ts'),
    'import-worker': resolve(root, 'packages/server/src/import-worker.ts'),
  },
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  outExtension: { '.js': '.mjs' },
  // The native SQLite binding stays a package of its own; pg's optional native driver is not used.
  external: ['better-sqlite3', 'pg-native'],
  // Bundled CommonJS packages call require(): give the module one.
  banner: { js: "import { createRequire as __personaeRequire } from 'node:module'; const require = __personaeRequire(import.meta.url);" },
  logLevel: 'warning',
  legalComments: 'none',
});
copyFileSync(resolve(root, 'packages/server/src/store/sqlite-writer.mjs'), resolve(outdir, 'sqlite-writer.mjs'));
