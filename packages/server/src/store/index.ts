import { join, resolve } from 'node:path';
import { openPostgresStore } from './postgres';
import { openSqliteStore } from './sqlite';
import type { Store } from './types';

export * from './types';
export { DEFAULT_COMMIT_SPACING_MS } from './spacing';
export { openSqliteStore, type SqliteStoreOptions } from './sqlite';
export { channelFor, NOTICE_BYTES, openPostgresStore, parseWake, parseWakes, type PostgresStoreOptions } from './postgres';

export interface StoreConfig {
  /** PostgreSQL connection string; when absent the embedded SQLite store is used. */
  databaseUrl?: string | undefined;
  /** PostgreSQL schema (default "public"). */
  databaseSchema?: string | undefined;
  /** application_name of the connection that listens for other nodes (default "personae-listener"). */
  databaseListenerName?: string | undefined;
  /** Where the listening connection connects, when not to `databaseUrl` (e.g. past a transaction-mode pooler). */
  databaseListenerUrl?: string | undefined;
  /** Least milliseconds between two PostgreSQL group commits (see PostgresStoreOptions.commitSpacingMs). */
  databaseCommitSpacingMs?: number | undefined;
  /** How PostgreSQL appends are announced to the other nodes (see PostgresStoreOptions.notices). */
  databaseNotices?: 'append' | 'batch' | undefined;
  /** Directory of the SQLite file `personae.sqlite` (default ./data). */
  dataDir?: string | undefined;
  /** SQLite sync mode: 'full' (default, survives power loss) or 'normal' (survives a process crash). */
  sqliteSynchronous?: 'full' | 'normal' | undefined;
  /** Least milliseconds between two SQLite group commits (see SqliteStoreOptions.commitSpacingMs). */
  sqliteCommitSpacingMs?: number | undefined;
}

export const SQLITE_FILE = 'personae.sqlite';

export async function openStore(config: StoreConfig): Promise<Store> {
  if (config.databaseUrl) {
    return openPostgresStore({
      connectionString: config.databaseUrl,
      schema: config.databaseSchema ?? 'public',
      ...(config.databaseListenerName ? { listenerName: config.databaseListenerName } : {}),
      ...(config.databaseListenerUrl ? { listenerConnectionString: config.databaseListenerUrl } : {}),
      ...(config.databaseCommitSpacingMs === undefined ? {} : { commitSpacingMs: config.databaseCommitSpacingMs }),
      ...(config.databaseNotices ? { notices: config.databaseNotices } : {}),
    });
  }
  return openSqliteStore({
    file: join(resolve(config.dataDir ?? './data'), SQLITE_FILE),
    synchronous: config.sqliteSynchronous ?? 'full',
    ...(config.sqliteCommitSpacingMs === undefined ? {} : { commitSpacingMs: config.sqliteCommitSpacingMs }),
  });
}
