import { LOG_FORMATS, type LogFormat } from './log-format';
import { DEFAULTS, type ServerConfig } from './server';

/**
 * Server settings from environment variables:
 *   PORT (default 8080), HOST (default 0.0.0.0), DATA_DIR (default ./data),
 *   DATABASE_URL (PostgreSQL; when unset the SQLite file DATA_DIR/personae.sqlite is used),
 *   DATABASE_SCHEMA (default public), SQLITE_SYNCHRONOUS (full or normal; default full), STATIC_DIR, PUBLIC_URL, LOG_LEVEL (default info),
 *   LOG_FORMAT (text, the default: one line a person reads; json: JSON lines for log collectors),
 *   RATE_LIMIT_BURST and RATE_LIMIT_PER_SECOND (per WebSocket connection; default 20 and 10).
 */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const config: ServerConfig = {};
  if (env.PORT !== undefined && env.PORT !== '') {
    const port = Number(env.PORT);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
    config.port = port;
  }
  if (env.HOST) config.host = env.HOST;
  if (env.DATA_DIR) config.dataDir = env.DATA_DIR;
  if (env.DATABASE_URL) config.databaseUrl = env.DATABASE_URL;
  if (env.DATABASE_SCHEMA) config.databaseSchema = env.DATABASE_SCHEMA;
  if (env.SQLITE_SYNCHRONOUS) {
    const mode = env.SQLITE_SYNCHRONOUS.toLowerCase();
    if (mode !== 'full' && mode !== 'normal') throw new Error('SQLITE_SYNCHRONOUS is "full" or "normal"');
    config.sqliteSynchronous = mode;
  }
  if (env.STATIC_DIR) config.staticDir = env.STATIC_DIR;
  if (env.PUBLIC_URL) config.publicUrl = env.PUBLIC_URL;
  if (env.LOG_LEVEL) config.logLevel = env.LOG_LEVEL;
  if (env.LOG_FORMAT) {
    const format = env.LOG_FORMAT.toLowerCase();
    if (!(LOG_FORMATS as readonly string[]).includes(format)) throw new Error(`LOG_FORMAT is "text" or "json", got "${env.LOG_FORMAT}"`);
    config.logFormat = format as LogFormat;
  }
  if (env.RATE_LIMIT_BURST || env.RATE_LIMIT_PER_SECOND) {
    const burst = Number(env.RATE_LIMIT_BURST ?? DEFAULTS.rateLimit.burst);
    const perSecond = Number(env.RATE_LIMIT_PER_SECOND ?? DEFAULTS.rateLimit.perSecond);
    if (!(burst >= 1) || !(perSecond > 0)) throw new Error('RATE_LIMIT_BURST must be >= 1 and RATE_LIMIT_PER_SECOND > 0');
    config.rateLimit = { burst, perSecond };
  }
  return config;
}
