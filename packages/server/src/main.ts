import { configFromEnv } from './config';
import { diceLogDecider } from './dice-log';
import { createServer } from './server';

// The table server with the built-in dice-log domain (see dice-log.ts); settings from the environment.
const config = configFromEnv();
const server = await createServer(config, diceLogDecider);
const { port, host } = await server.listen();
server.app.log.info({ port, host, store: server.store.kind }, 'table server ready');

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
