import { LOG_FORMATS, type LogFormat } from './log-format';
import type { RateLimit } from './rate-limit';
import { DEFAULTS, type ServerConfig, type WindowLimit } from './server';

/**
 * Server settings from environment variables:
 *   PORT (default 8080), HOST (default 0.0.0.0), DATA_DIR (default ./data),
 *   DATABASE_URL (PostgreSQL; when unset the SQLite file DATA_DIR/personae.sqlite is used),
 *   DATABASE_SCHEMA (default public), DATABASE_LISTENER_NAME (default personae-listener), DATABASE_LISTENER_URL (default DATABASE_URL),
 *   DATABASE_COMMIT_SPACING_MS (PostgreSQL: least milliseconds between two group commits; default 4),
 *   DATABASE_NOTICES (PostgreSQL: append, a notice per append, the default; batch, one per group commit), SQLITE_SYNCHRONOUS (full or normal; default full),
 *   SQLITE_COMMIT_SPACING_MS (least milliseconds between two group commits; default 4), STATIC_DIR, PUBLIC_URL, LOG_LEVEL (default info),
 *   LOG_FORMAT (text, the default: one line a person reads; json: JSON lines for log collectors),
 * and the limits of docs/server.md ("Limits"):
 *   RATE_LIMIT_BURST / RATE_LIMIT_PER_SECOND (messages per WebSocket connection),
 *   COMMAND_RATE_BURST / COMMAND_RATE_PER_SECOND (commands per token), TABLE_COMMAND_RATE_BURST /
 *   TABLE_COMMAND_RATE_PER_SECOND (commands per table), MAX_QUEUED_MESSAGES, MAX_JSON_DEPTH,
 *   REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS, IDLE_TIMEOUT_MS, MAX_CONNECTIONS_PER_ADDRESS, ACCEPT_HANDLES,
 *   CREATE_RATE_PER_MINUTE, IMPORT_RATE_PER_MINUTE, JOIN_RATE_PER_MINUTE, PORTRAIT_RATE_PER_MINUTE,
 *   MAX_PARTICIPANTS, MAX_CHARACTERS, MAX_CHARACTERS_PER_PLAYER, MAX_IMPORT_BYTES.
 *   CLUSTER (on or off; default on with PostgreSQL) and CLUSTER_CHECK_MS (default 500).
 * and the server's own backups (docs/server.md, "Backups"): BACKUP_EVERY_MINUTES (default 60; 0 turns
 *   them off), BACKUP_KEEP (files kept per table, default 24), BACKUP_DIR (default DATA_DIR/backups).
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
  if (env.LINK_KEY) config.linkKey = env.LINK_KEY;
  if (env.DATABASE_URL) config.databaseUrl = env.DATABASE_URL;
  if (env.DATABASE_SCHEMA) config.databaseSchema = env.DATABASE_SCHEMA;
  if (env.DATABASE_LISTENER_NAME) config.databaseListenerName = env.DATABASE_LISTENER_NAME;
  if (env.DATABASE_LISTENER_URL) config.databaseListenerUrl = env.DATABASE_LISTENER_URL;
  if (env.DATABASE_NOTICES) {
    const notices = env.DATABASE_NOTICES.toLowerCase();
    if (notices !== 'append' && notices !== 'batch') throw new Error(`DATABASE_NOTICES is "append" or "batch", got "${env.DATABASE_NOTICES}"`);
    config.databaseNotices = notices;
  }
  if (env.SQLITE_SYNCHRONOUS) {
    const mode = env.SQLITE_SYNCHRONOUS.toLowerCase();
    if (mode !== 'full' && mode !== 'normal') throw new Error('SQLITE_SYNCHRONOUS is "full" or "normal"');
    config.sqliteSynchronous = mode;
  }
  const spacing = (name: 'SQLITE_COMMIT_SPACING_MS' | 'DATABASE_COMMIT_SPACING_MS'): number | undefined => {
    const text = env[name];
    if (text === undefined || text === '') return undefined;
    const ms = Number(text);
    if (!Number.isInteger(ms) || ms < 0 || ms > 1000) throw new Error(`${name} must be a whole number from 0 to 1000, got "${text}"`);
    return ms;
  };
  const sqliteSpacing = spacing('SQLITE_COMMIT_SPACING_MS');
  if (sqliteSpacing !== undefined) config.sqliteCommitSpacingMs = sqliteSpacing;
  const databaseSpacing = spacing('DATABASE_COMMIT_SPACING_MS');
  if (databaseSpacing !== undefined) config.databaseCommitSpacingMs = databaseSpacing;
  if (env.STATIC_DIR) config.staticDir = env.STATIC_DIR;
  if (env.BACKUP_DIR) config.backupDir = env.BACKUP_DIR;
  if (env.PUBLIC_URL) config.publicUrl = env.PUBLIC_URL;
  if (env.LOG_LEVEL) config.logLevel = env.LOG_LEVEL;
  if (env.LOG_FORMAT) {
    const format = env.LOG_FORMAT.toLowerCase();
    if (!(LOG_FORMATS as readonly string[]).includes(format)) throw new Error(`LOG_FORMAT is "text" or "json", got "${env.LOG_FORMAT}"`);
    config.logFormat = format as LogFormat;
  }
  const rate = (prefix: string, fallback: RateLimit): RateLimit | undefined => {
    const burstText = env[`${prefix}_BURST`];
    const perSecondText = env[`${prefix}_PER_SECOND`];
    if (!burstText && !perSecondText) return undefined;
    const burst = Number(burstText || fallback.burst);
    const perSecond = Number(perSecondText || fallback.perSecond);
    if (!(burst >= 1) || !(perSecond > 0)) throw new Error(`${prefix}_BURST must be >= 1 and ${prefix}_PER_SECOND > 0`);
    return { burst, perSecond };
  };
  const whole = (name: string, min: number): number | undefined => {
    const text = env[name];
    if (text === undefined || text === '') return undefined;
    const n = Number(text);
    if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number >= ${min}, got "${text}"`);
    return n;
  };
  const perMinute = (name: string): WindowLimit | undefined => {
    const max = whole(name, 1);
    return max === undefined ? undefined : { max, windowMs: 60_000 };
  };
  const settings: Partial<ServerConfig> = {
    rateLimit: rate('RATE_LIMIT', DEFAULTS.rateLimit),
    commandRate: rate('COMMAND_RATE', DEFAULTS.commandRate),
    tableCommandRate: rate('TABLE_COMMAND_RATE', DEFAULTS.tableCommandRate),
    maxQueuedMessages: whole('MAX_QUEUED_MESSAGES', 1),
    maxJsonDepth: whole('MAX_JSON_DEPTH', 2),
    requestTimeoutMs: whole('REQUEST_TIMEOUT_MS', 100),
    headersTimeoutMs: whole('HEADERS_TIMEOUT_MS', 100),
    idleTimeoutMs: whole('IDLE_TIMEOUT_MS', 100),
    maxConnectionsPerAddress: whole('MAX_CONNECTIONS_PER_ADDRESS', 1),
    acceptHandles: whole('ACCEPT_HANDLES', 1),
    createRate: perMinute('CREATE_RATE_PER_MINUTE'),
    importRate: perMinute('IMPORT_RATE_PER_MINUTE'),
    joinRate: perMinute('JOIN_RATE_PER_MINUTE'),
    portraitRate: perMinute('PORTRAIT_RATE_PER_MINUTE'),
    maxParticipants: whole('MAX_PARTICIPANTS', 1),
    maxCharacters: whole('MAX_CHARACTERS', 1),
    maxCharactersPerPlayer: whole('MAX_CHARACTERS_PER_PLAYER', 1),
    maxImportBytes: whole('MAX_IMPORT_BYTES', 1024),
    backupEveryMinutes: whole('BACKUP_EVERY_MINUTES', 0),
    backupKeep: whole('BACKUP_KEEP', 1),
  };
  for (const [key, value] of Object.entries(settings)) {
    if (value !== undefined) (config as Record<string, unknown>)[key] = value;
  }
  if (env.CLUSTER) {
    const mode = env.CLUSTER.toLowerCase();
    if (mode !== 'on' && mode !== 'off') throw new Error(`CLUSTER is "on" or "off", got "${env.CLUSTER}"`);
    config.cluster = mode === 'on';
  }
  if (env.CLUSTER_CHECK_MS) {
    const ms = Number(env.CLUSTER_CHECK_MS);
    if (!Number.isInteger(ms) || ms < 100 || ms > 600_000) {
      throw new Error(`CLUSTER_CHECK_MS must be a whole number of milliseconds from 100 to 600000, got "${env.CLUSTER_CHECK_MS}"`);
    }
    config.clusterCheckMs = ms;
  }
  return config;
}
