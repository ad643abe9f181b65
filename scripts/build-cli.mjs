// Builds the `personae` command into one JavaScript file, so it starts without compiling TypeScript:
//   packages/cli/dist/personae.cjs     the command (bin/personae.mjs runs it)
//   packages/cli/dist/odds-worker.mjs  a simulation worker, next to the command that starts it
//   packages/rules/dist/node.mjs       the rules' Node-only odds (worker threads), for benchmarks
//   packages/rules/dist/odds-worker.mjs
// Each output directory gets inputs.json: the source files that went in, so the launcher can tell a
// build older than its sources and run the sources instead. Run by the root `prepare` script (npm ci).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  console.warn('build-cli: esbuild is not installed; `personae` will run from the TypeScript sources');
  process.exit(0);
}

const worker = 'packages/rules/src/odds/worker.ts';
const common = { bundle: true, platform: 'node', target: 'node20', minify: true, metafile: true, logLevel: 'warning', legalComments: 'none' };
const builds = [
  // CommonJS, so the launcher can compile it with V8's code cache. import.meta.url names the bundle
  // with a fragment: the sources' own "run when started directly" check then never fires in it.
  {
    outdir: 'packages/cli/dist',
    entryPoints: { personae: 'packages/cli/src/bin.ts' },
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    define: { 'import.meta.url': '__personaeUrl' },
    banner: { js: "var __personaeUrl = require('node:url').pathToFileURL(__filename).href + '#bundle';" },
  },
  ...['packages/cli/dist', 'packages/rules/dist'].map((outdir) => ({
    outdir,
    entryPoints: outdir.startsWith('packages/rules') ? { node: 'packages/rules/src/odds/node.ts', 'odds-worker': worker } : { 'odds-worker': worker },
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    // Bundled CommonJS packages call require(): give the module one.
    banner: { js: "import { createRequire as __personaeRequire } from 'node:module'; const require = __personaeRequire(import.meta.url);" },
  })),
];

const inputsByDir = new Map();
for (const { outdir, entryPoints, ...options } of builds) {
  const out = resolve(root, outdir);
  rmSync(resolve(out, 'personae.cache'), { force: true });
  const result = await esbuild.build({
    ...common,
    ...options,
    outdir: out,
    entryPoints: Object.fromEntries(Object.entries(entryPoints).map(([k, v]) => [k, resolve(root, v)])),
  });
  const inputs = inputsByDir.get(out) ?? new Set();
  for (const p of Object.keys(result.metafile.inputs)) {
    const rel = relative(root, resolve(process.cwd(), p));
    if (!rel.split(/[\\/]/).includes('node_modules')) inputs.add(rel);
  }
  inputsByDir.set(out, inputs);
}
const builtAt = Date.now();
for (const [out, inputs] of inputsByDir) {
  mkdirSync(out, { recursive: true });
  writeFileSync(resolve(out, 'inputs.json'), `${JSON.stringify({ builtAt, inputs: [...inputs].sort() }, null, 1)}\n`);
}
