#!/usr/bin/env node
// The `personae` command. It runs the bundle that scripts/build-cli.mjs builds (the root `prepare`
// script, so `npm ci` builds it) when the bundle is at least as new as every source file that went
// into it; otherwise it runs the TypeScript sources through tsx, slower to start but always current.
// The bundle is compiled once and V8's code cache for it is kept next to it, so later runs skip most
// of the parsing.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const dist = resolve(here, '../dist');
const bundle = join(dist, 'personae.cjs');

/** Whether the bundle exists and no source file listed in inputs.json changed after it was built. */
function bundleIsCurrent() {
  try {
    const { builtAt, inputs } = JSON.parse(readFileSync(join(dist, 'inputs.json'), 'utf8'));
    statSync(bundle);
    for (const input of inputs) {
      const s = statSync(join(root, input), { throwIfNoEntry: false });
      if (s === undefined || s.mtimeMs > builtAt) return false;
    }
    return true;
  } catch {
    return false;
  }
}

function runBundle() {
  const cacheFile = join(dist, 'personae.cache');
  const source = readFileSync(bundle, 'utf8');
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: bundle, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) {
    // After the command ran, so the cache holds the functions it compiled; a read-only install just goes without.
    process.once('beforeExit', () => {
      try {
        writeFileSync(cacheFile, script.createCachedData());
      } catch {}
    });
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dist);
}

async function runSources() {
  const { register } = await import('tsx/esm/api');
  register();
  const { run } = await import(pathToFileURL(resolve(here, '../src/main.ts')).href);
  const { processIo } = await import(pathToFileURL(resolve(here, '../src/io.ts')).href);
  await run(process.argv.slice(2), processIo());
}

if (process.env.PERSONAE_FROM_SOURCES !== '1' && bundleIsCurrent()) runBundle();
else await runSources();
