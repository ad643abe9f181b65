import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer as createTcpServer, connect as tcpConnect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { personaeTable } from '@personae/rules';
import { createServer, type TableServer } from '@personae/server';

/**
 * What the browser tests run against: the web app built with Vite, served by the real table server
 * (the Personae decider, SQLite in a temporary data directory, a free port behind a fixed front port),
 * and Debian's Chromium driven by playwright-core.
 */

export const webDir = fileURLToPath(new URL('..', import.meta.url));
export const distDir = join(webDir, 'dist');
export const screenshotDir = fileURLToPath(new URL('../../../test-results/screenshots', import.meta.url));
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Whether the browser tests can run here; under CI a missing browser is a failure, not a skip. */
export function browserAvailable(): boolean {
  return existsSync(CHROMIUM);
}

/** `vite build` of the app into packages/web/dist, the directory the server serves. */
export function buildWeb(): void {
  const vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
  // A production build, as `npm start` makes: the test runner's NODE_ENV would otherwise select development JSX.
  const run = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: webDir, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } });
  if (run.status !== 0) throw new Error(`vite build failed:\n${run.stdout}\n${run.stderr}`);
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  server: TableServer;
  /** Stop the server (as on SIGTERM). */
  stop(): Promise<void>;
  /** Start it again on the same data, at the same address. */
  restart(): Promise<void>;
  /** Connections closed at once because they came while the server was stopped. */
  readonly turnedAway: number;
  dispose(): Promise<void>;
}

/**
 * The address the pages use, held for the whole suite: each connection is piped to the port the server
 * listens on now, and closed at once while it is stopped. A restarted server listens on a new free port
 * behind it, so no other process can take the pages' address while the server is down.
 */
async function frontDoor(backend: () => number | null): Promise<{ port: number; turnedAway(): number; close(): Promise<void> }> {
  const open = new Set<Socket>();
  let turnedAway = 0;
  const front = createTcpServer((client) => {
    const port = backend();
    if (port === null) {
      turnedAway++;
      return void client.destroy();
    }
    const upstream = tcpConnect(port, '127.0.0.1');
    for (const [socket, other] of [[client, upstream], [upstream, client]] as const) {
      open.add(socket);
      socket.on('error', () => other.destroy());
      socket.on('close', () => {
        open.delete(socket);
        other.destroy();
      });
      socket.pipe(other);
    }
  });
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: (front.address() as AddressInfo).port,
    turnedAway: () => turnedAway,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        front.close(() => resolve());
      }),
  };
}

/** The table server on a free port: the Personae decider, or with `every` each registered ruleset (those the test file imports). */
export async function startServer(rulesets: 'personae' | 'every' = 'personae'): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'personae-web-'));
  const config = { port: 0, host: '127.0.0.1', dataDir, staticDir: distDir, logLevel: 'silent' as const };
  const open = () => (rulesets === 'every' ? createServer(config) : createServer(config, personaeTable));
  let server = await open();
  let backend: number | null = (await server.listen()).port;
  const front = await frontDoor(() => backend);
  const handle: RunningServer = {
    url: `http://127.0.0.1:${front.port}`,
    port: front.port,
    dataDir,
    server,
    get turnedAway() {
      return front.turnedAway();
    },
    async stop() {
      if (backend === null) return;
      backend = null;
      await server.close();
    },
    async restart() {
      await handle.stop();
      server = await open();
      backend = (await server.listen()).port;
      handle.server = server;
    },
    async dispose() {
      await handle.stop();
      await front.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return handle;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** A browser suite's shared set-up, as the tests see it. */
export interface BrowserSuite {
  /** The server's address (known once the suite has started). */
  url(): string;
  /** A new page in a context of its own (1280 × 900, the suite's timeouts), with a wiretap on it. */
  page(): Promise<{ page: Page; tap: Wiretap }>;
}

/**
 * The set-up of a browser suite, registered as its hooks: the app built, the table server (`rulesets`,
 * as `startServer`) and Chromium started before the tests; a screenshot of every open page of a test
 * that fails; everything closed after.
 */
export function browserSuite(rulesets: 'personae' | 'every' = 'every'): BrowserSuite {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const pages: Page[] = [];
  beforeAll(async () => {
    buildWeb();
    [server, browser] = await Promise.all([startServer(rulesets), launchBrowser()]);
  }, 120_000);
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    const name = ctx.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 40);
    for (const [i, p] of pages.entries()) if (!p.isClosed()) await shot(p, `failed-${name}-${i}`).catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });
  return {
    url: () => {
      if (!server) throw new Error('the browser suite has not started');
      return server.url;
    },
    async page() {
      if (!browser) throw new Error('the browser suite has not started');
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      context.setDefaultTimeout(15_000);
      context.setDefaultNavigationTimeout(30_000);
      const tap = wiretap(context);
      const p = await context.newPage();
      pages.push(p);
      return { page: p, tap };
    },
  };
}

export async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage });
}

/** Everything one browser context receives from the server: WebSocket frames and HTTP response bodies. */
export interface Wiretap {
  frames: string[];
  sent: string[];
  bodies: string[];
  errors: string[];
}

export function wiretap(context: BrowserContext): Wiretap {
  const tap: Wiretap = { frames: [], sent: [], bodies: [], errors: [] };
  context.on('page', (page) => watchPage(page, tap));
  return tap;
}

export function watchPage(page: Page, tap: Wiretap): void {
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => tap.frames.push(typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8')));
    ws.on('framesent', (f) => tap.sent.push(typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8')));
  });
  page.on('response', async (r) => {
    try {
      tap.bodies.push(await r.text());
    } catch {
      // a response without a body (redirect, aborted)
    }
  });
  page.on('pageerror', (e) => tap.errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') tap.errors.push(m.text());
  });
}

/** The pages of a secret-roll suite, each in a browser context of its own, with a wiretap on it. */
export interface SecretRollSeats {
  readonly gm: Page;
  readonly player: Page;
  /** A player's page whose every frame from the server passes through `tamper` on its way. */
  readonly cheated: Page;
  readonly gmTap: Wiretap;
  readonly playerTap: Wiretap;
  /** Closes the three contexts. */
  close(): Promise<void>;
}

/**
 * Opens the table `tableId` at `base` in three contexts (1280 × 900): as the GM, as a player, and as
 * a second player whose WebSocket frames from the server are parsed, changed by `tamper` and passed
 * on; each page is at the table and live when this returns.
 */
export async function secretRollSeats(browser: Browser, base: string, tableId: string, tokens: { gm: string; player: string; cheated: string }, tamper: (msg: any) => void): Promise<SecretRollSeats> {
  const contexts: BrowserContext[] = [];
  const open = async (token: string) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(15_000);
    context.setDefaultNavigationTimeout(30_000);
    contexts.push(context);
    const tap = wiretap(context);
    return { page: await context.newPage(), tap, url: `${base}/table/${tableId}#token=${token}` };
  };
  const [g, a, b] = [await open(tokens.gm), await open(tokens.player), await open(tokens.cheated)];
  await b.page.routeWebSocket(/\/ws$/, (ws) => {
    const upstream = ws.connectToServer();
    upstream.onMessage((m) => {
      const msg = JSON.parse(typeof m === 'string' ? m : m.toString('utf8'));
      tamper(msg);
      ws.send(JSON.stringify(msg));
    });
  });
  for (const { page, url } of [g, a, b]) {
    await page.goto(url);
    await page.locator('.status-pill.live').waitFor({ timeout: 20_000 });
  }
  return {
    gm: g.page,
    player: a.page,
    cheated: b.page,
    gmTap: g.tap,
    playerTap: a.tap,
    close: async () => {
      for (const c of contexts) await c.close().catch(() => undefined);
    },
  };
}

/** Press Tab until the focused element matches `selector`: proves it is reachable by keyboard in order. */
export async function tabTo(page: Page, selector: string, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  const at = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120));
  throw new Error(`${selector} was not reached with ${max} presses of Tab (focus is on ${at})`);
}

export function tmp(name: string): string {
  return join(mkdtempSync(join(tmpdir(), 'personae-web-file-')), name);
}

// WCAG 2 contrast of every visible text against the background behind it: 4.5:1, or 3:1 for large
// text (24 px, or 18.66 px bold). Disabled controls are exempt, as in WCAG. Written as a string so
// that it runs in the page exactly as written.
const CONTRAST_CHECK = `(() => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const channel = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  const lum = (c) => 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
  const behind = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; }
    }
    let base = { r: 255, g: 255, b: 255 };
    for (let i = layers.length - 1; i >= 0; i--) {
      const l = layers[i];
      base = { r: l.r * l.a + base.r * (1 - l.a), g: l.g * l.a + base.g * (1 - l.a), b: l.b * l.a + base.b * (1 - l.a) };
    }
    return base;
  };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!el || !node.textContent.trim()) continue;
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    if (el.closest('[hidden], .sr-only, [aria-hidden="true"], svg, :disabled, option')) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.display === 'none') continue;
    const fg = parse(cs.color);
    if (!fg) continue;
    const bg = behind(el);
    const blended = { r: fg.r * fg.a + bg.r * (1 - fg.a), g: fg.g * fg.a + bg.g * (1 - fg.a), b: fg.b * fg.a + bg.b * (1 - fg.a) };
    const [hi, lo] = [lum(blended), lum(bg)].sort((x, y) => y - x);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(cs.fontSize);
    const large = size >= 24 || (parseInt(cs.fontWeight, 10) >= 700 && size >= 18.66);
    if (ratio < (large ? 3 : 4.5)) out.push(node.textContent.trim().slice(0, 40) + ' (' + ratio.toFixed(2) + ':1)');
  }
  return out;
})()`;

export async function contrastProblems(page: Page): Promise<string[]> {
  return page.evaluate(CONTRAST_CHECK) as Promise<string[]>;
}

// Duplicate ids, and form controls without a name for assistive technology (a <label>, aria-label or
// aria-labelledby). Hidden controls are skipped.
const LABEL_CHECK = `(() => {
  const out = [];
  const seen = new Map();
  for (const e of document.querySelectorAll('[id]')) seen.set(e.id, (seen.get(e.id) || 0) + 1);
  for (const [id, n] of seen) if (n > 1) out.push('duplicate id ' + id);
  for (const c of document.querySelectorAll('input, select, textarea, button')) {
    if (c.type === 'hidden' || c.closest('[hidden]')) continue;
    const named = (c.labels && c.labels.length > 0 && [...c.labels].some((l) => l.textContent.trim())) ||
      (c.getAttribute('aria-label') || '').trim() || c.getAttribute('aria-labelledby') ||
      (c.tagName === 'BUTTON' && c.textContent.trim());
    if (!named) out.push('unnamed ' + c.tagName.toLowerCase() + (c.id ? '#' + c.id : '') + ' ' + (c.getAttribute('name') || ''));
  }
  return out;
})()`;

export async function labelProblems(page: Page): Promise<string[]> {
  return page.evaluate(LABEL_CHECK) as Promise<string[]>;
}

/** POST a JSON body to the server; throws unless it answers 201 Created. */
export async function postCreated(base: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}
