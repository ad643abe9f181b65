// Builds the web app and prints the size of what a browser downloads, raw and gzipped (level 9):
// the first page (the entry script, what it imports, and the stylesheet), then each part loaded on
// demand. It then serves the build from the table server on loopback and counts the bytes the server
// sends for each file to a browser that accepts brotli and gzip. When Debian's Chromium is installed
// it also times how long the start page and a table page take to show.
// Run: node --import tsx bench/web-size.ts
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

const webDir = fileURLToPath(new URL('../packages/web', import.meta.url));
const outDir = mkdtempSync(join(tmpdir(), 'personae-web-size-'));
try {
  await build({
    root: webDir,
    configFile: join(webDir, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, manifest: true },
  });
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const size = (file: string) => {
    const bytes = readFileSync(join(outDir, file));
    return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  };
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  const rows: { part: string; file: string; raw: number; gzip: number; sent?: number; encoding?: string }[] = [];

  // The first page: the entry chunk, every chunk it imports statically, and their CSS.
  const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
  const initial = new Set<string>();
  const visit = (key: string) => {
    if (initial.has(key)) return;
    initial.add(key);
    for (const i of manifest[key]!.imports ?? []) visit(i);
  };
  visit(entryKey);
  const css = new Set<string>();
  for (const key of initial) {
    rows.push({ part: 'first page', file: manifest[key]!.file, ...size(manifest[key]!.file) });
    for (const c of manifest[key]!.css ?? []) css.add(c);
  }
  for (const c of css) rows.push({ part: 'first page (CSS)', file: c, ...size(c) });
  for (const [key, chunk] of Object.entries(manifest)) {
    if (initial.has(key) || !chunk.file.endsWith('.js')) continue;
    const what = chunk.isDynamicEntry ? (/pages/.test(key) ? 'table, builder and roller pages' : /load/.test(key) ? 'sheet files (YAML), on open or save' : 'loaded on demand') : 'shared';
    rows.push({ part: what, file: chunk.file, ...size(chunk.file) });
  }

  const { createServer } = await import('@personae/server');
  const { personaeTable } = await import('@personae/rules');
  const dataDir = mkdtempSync(join(tmpdir(), 'personae-web-load-'));
  const server = await createServer({ port: 0, host: '127.0.0.1', dataDir, staticDir: outDir, logLevel: 'silent' }, personaeTable);
  try {
    const { url } = await server.listen();
    for (const r of rows) Object.assign(r, await sent(`${url}/${r.file}`));

    const width = Math.max(...rows.map((r) => r.part.length));
    console.log(`${'part'.padEnd(width)}  ${'raw'.padStart(10)}  ${'gzip -9'.padStart(10)}  ${'sent'.padStart(10)}  file`);
    for (const r of rows) {
      console.log(`${r.part.padEnd(width)}  ${kb(r.raw).padStart(10)}  ${kb(r.gzip).padStart(10)}  ${kb(r.sent!).padStart(10)}  ${r.file} (${r.encoding})`);
    }
    const sum = (f: (r: (typeof rows)[number]) => boolean) =>
      rows.filter(f).reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip, sent: t.sent + r.sent! }), { raw: 0, gzip: 0, sent: 0 });
    const firstJs = sum((r) => r.part === 'first page');
    const allJs = sum((r) => r.file.endsWith('.js'));
    console.log('');
    console.log(`first page JavaScript: ${kb(firstJs.raw)} raw, ${kb(firstJs.gzip)} gzipped, ${kb(firstJs.sent)} sent`);
    console.log(`all JavaScript:        ${kb(allJs.raw)} raw, ${kb(allJs.gzip)} gzipped, ${kb(allJs.sent)} sent`);
    if (existsSync('/usr/bin/chromium')) await timeLoads(url);
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
} finally {
  rmSync(outDir, { recursive: true, force: true });
}

/** The bytes the server sends for a file to a browser that accepts brotli and gzip, and their encoding. */
function sent(url: string): Promise<{ sent: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': 'gzip, deflate, br' } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ sent: bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** Median time from navigation to the page's content, over fresh browser contexts, on loopback. */
async function timeLoads(url: string): Promise<void> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const created = (await (await fetch(`${url}/api/tables`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bench', gmName: 'GM' }) })).json()) as { tableId: string; gm: { token: string } };
    // The moment the selector first matches is recorded inside the page, so the browser driver's
    // own round trips are not counted.
    const measure = async (path: string, ready: string): Promise<{ shown: number; paint: number }> => {
      const context = await browser.newContext();
      // A string, not a function: the script runs in the page as written.
      await context.addInitScript(`(() => {
        const check = () => {
          if (window.__shown === undefined && document.querySelector(${JSON.stringify(ready)})) window.__shown = performance.now();
        };
        new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
      })();`);
      const page = await context.newPage();
      await page.goto(`${url}${path}`, { waitUntil: 'commit' });
      await page.waitForSelector(ready);
      const result = await page.evaluate(() => ({
        shown: (window as unknown as { __shown: number }).__shown,
        paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      }));
      await context.close();
      return result;
    };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const runs = 9;
    const start: { shown: number; paint: number }[] = [];
    const table: { shown: number; paint: number }[] = [];
    for (let i = 0; i < runs; i++) {
      start.push(await measure('/', 'main h1'));
      table.push(await measure(`/table/${created.tableId}#token=${created.gm.token}`, '.status-pill.live'));
    }
    const ms = (xs: number[]) => `${median(xs).toFixed(0)} ms`;
    console.log('');
    console.log(`loopback, fresh browser context each time, median of ${runs}:`);
    console.log(`start page: first contentful paint ${ms(start.map((x) => x.paint))}, form rendered ${ms(start.map((x) => x.shown))}`);
    console.log(`table page: first contentful paint ${ms(table.map((x) => x.paint))}, live with the table's state ${ms(table.map((x) => x.shown))}`);
  } finally {
    await browser.close();
  }
}
