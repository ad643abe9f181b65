import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
// Each ruleset registers itself with the core registry when imported; the server hosts them all.
import '@personae/rules';
import '@personae/d100';
import '@personae/lucidity';
import { configFromEnv } from './config';
import { createServer } from './server';

// The table server for every registered ruleset; settings from the environment (see config.ts). The web app is served
// from STATIC_DIR, or from the web package's build when it has been built.
const config = configFromEnv();
const webBuild = fileURLToPath(new URL('../../web/dist', import.meta.url));
if (!config.staticDir && existsSync(webBuild)) config.staticDir = webBuild;
const server = await createServer(config);
const { port, host } = await server.listen();
const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
const url = config.publicUrl ?? `http://${shownHost}:${port}`;
if (config.logFormat === 'json') server.app.log.info({ port, host, store: server.store.kind, url }, 'table server ready');
else server.app.log.info(`Personae Table is running at ${url} (${server.store.kind === 'postgres' ? 'PostgreSQL' : 'SQLite'}; stop with Ctrl-C)`);

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  server.app.log.info({ signal }, 'shutting down');
  server.close().then(
    () => process.exit(0),
    (error: unknown) => {
      server.app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    },
  );
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
