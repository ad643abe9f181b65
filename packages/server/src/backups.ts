import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildExport, type ExportedEvent } from './export';
import { exportPortraits } from './portraits';
import type { Store } from './store/types';

/**
 * Backups the server makes by itself: every `everyMs`, each table that changed since its last
 * backup is written to `dir/<table id>/<time>-v<version>.json`, the same file as the GM's "Download a
 * backup" (so "Continue from a backup" restores it), and only the newest `keep` files of each table
 * are kept. Files are written under a temporary name and renamed, so a crash never leaves half a
 * backup. Settings: BACKUP_EVERY_MINUTES (0 turns backups off), BACKUP_KEEP, BACKUP_DIR; see
 * docs/server.md, "Backups".
 */
export interface BackupSettings {
  dir: string;
  everyMs: number;
  keep: number;
}

export interface BackupRun {
  /** Tables written this run. */
  written: string[];
  /** Files removed because more than `keep` were there. */
  pruned: number;
}

export interface Backups {
  /** Back up now (the timer does this every `everyMs`); runs never overlap. */
  run(): Promise<BackupRun>;
  stop(): Promise<void>;
}

const PAGE = 2000;
const FILE = /^(\d{8}T\d{6}(?:\d{3})?Z)-v(\d+)\.json$/;

function stamp(date: Date): string {
  return date.toISOString().replace(/[-:.]/g, '');
}

export function startBackups(store: Store, settings: BackupSettings, log: { info(obj: object, msg?: string): void; error(obj: object, msg?: string): void }): Backups {
  // The version of each table's newest backup, read from the files on the first run.
  let known: Map<string, number> | null = null;
  // The portraits (digests by character) of each table as this process last saw them: a portrait
  // changed alone makes no event, so it is noticed here. After a start, what the store holds is taken
  // as already backed up.
  const portraitsSeen = new Map<string, string>();
  const portraitsOf = async (tableId: string) => JSON.stringify(Object.entries(await store.listPortraits(tableId)).sort(([a], [b]) => (a < b ? -1 : 1)));
  let running: Promise<BackupRun> | null = null;
  let stopped = false;

  const versionsOnDisk = async (): Promise<Map<string, number>> => {
    const out = new Map<string, number>();
    let tables: string[] = [];
    try {
      tables = await readdir(settings.dir);
    } catch {
      return out;
    }
    for (const id of tables) {
      const files = await readdir(join(settings.dir, id)).catch(() => [] as string[]);
      for (const f of files) {
        const m = FILE.exec(f);
        if (m) out.set(id, Math.max(out.get(id) ?? -1, Number(m[2])));
      }
    }
    return out;
  };

  const backUp = async (tableId: string): Promise<number | null> => {
    const table = await store.getTable(tableId);
    if (!table) return null;
    const participants = await store.listParticipants(tableId);
    const events: ExportedEvent[] = [];
    let seq = 0;
    while (seq < table.version) {
      const page = await store.readEvents(tableId, seq, Math.min(PAGE, table.version - seq));
      if (page.length === 0) break;
      events.push(...page);
      seq = page[page.length - 1]!.seq;
    }
    const portraits = await exportPortraits(store, tableId);
    const file = buildExport({ table: { ...table, version: seq }, participants, events, portraits, redactedFor: null });
    const dir = join(settings.dir, tableId);
    await mkdir(dir, { recursive: true });
    const name = `${stamp(new Date(file.exportedAt))}-v${seq}.json`;
    const tmp = join(dir, `.${name}.tmp`);
    await writeFile(tmp, JSON.stringify(file));
    await rename(tmp, join(dir, name));
    return seq;
  };

  const prune = async (tableId: string): Promise<number> => {
    const dir = join(settings.dir, tableId);
    const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => FILE.test(f)).sort();
    const old = files.slice(0, Math.max(0, files.length - settings.keep));
    for (const f of old) await rm(join(dir, f), { force: true });
    return old.length;
  };

  const once = async (): Promise<BackupRun> => {
    known ??= await versionsOnDisk();
    const result: BackupRun = { written: [], pruned: 0 };
    for (const t of await store.listTables()) {
      if (stopped) break;
      try {
        const portraits = await portraitsOf(t.id);
        const seen = portraitsSeen.get(t.id);
        if (seen === undefined) portraitsSeen.set(t.id, portraits);
        if (known.get(t.id) === t.version && (seen === undefined || seen === portraits)) continue;
        const version = await backUp(t.id);
        if (version === null) continue;
        known.set(t.id, version);
        portraitsSeen.set(t.id, portraits);
        result.written.push(t.id);
        result.pruned += await prune(t.id);
      } catch (error) {
        log.error({ err: error, tableId: t.id }, 'backup failed');
      }
    }
    if (result.written.length) log.info({ tables: result.written.length, dir: settings.dir }, `backed up ${result.written.length} table${result.written.length === 1 ? '' : 's'}`);
    return result;
  };

  const run = (): Promise<BackupRun> => {
    running ??= once().finally(() => {
      running = null;
    });
    return running;
  };

  const timer = settings.everyMs > 0 ? setInterval(() => void run().catch((error: unknown) => log.error({ err: error }, 'backup failed')), settings.everyMs) : null;
  timer?.unref();

  return {
    run,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
