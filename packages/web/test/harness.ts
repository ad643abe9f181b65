import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { personaeTable } from '@personae/rules';
import { createServer, type TableServer } from '@personae/server';

/**
 * What the browser tests run against: the web app built with Vite, served by the real table server
 * (the Personae decider, SQLite in a temporary data directory, a free port), and Debian's Chromium
 * driven by playwright-core.
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
  const run = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: webDir, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`vite build failed:\n${run.stdout}\n${run.stderr}`);
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  server: TableServer;
  /** Stop the server (as on SIGTERM). */
  stop(): Promise<void>;
  /** Start it again on the same port and data. */
  restart(): Promise<void>;
  dispose(): Promise<void>;
}

export async function startServer(): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'personae-web-'));
  const open = (port: number) => createServer({ port, host: '127.0.0.1', dataDir, staticDir: distDir, logLevel: 'silent' }, personaeTable);
  let server = await open(0);
  const { port, url } = await server.listen();
  let running = true;
  const handle: RunningServer = {
    url: url.replace('0.0.0.0', '127.0.0.1'),
    port,
    dataDir,
    server,
    async stop() {
      if (!running) return;
      running = false;
      await server.close();
    },
    async restart() {
      await handle.stop();
      server = await open(port);
      await server.listen();
      handle.server = server;
      running = true;
    },
    async dispose() {
      await handle.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return handle;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
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
