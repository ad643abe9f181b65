import { SHEET_VERSION } from './schema';

/**
 * Sheet format migrations. Each step takes the raw data of one version to the next; a sheet is
 * migrated step by step to the current version before it is validated. Add a step (and bump
 * SHEET_VERSION) whenever the format changes, with a test that upgrades a sheet of the old version.
 */
export interface SheetMigration {
  readonly from: number;
  readonly to: number;
  readonly summary: string;
  readonly up: (raw: Record<string, unknown>) => Record<string, unknown>;
}

export const SHEET_MIGRATIONS: readonly SheetMigration[] = [
  {
    from: 0,
    to: 1,
    summary: 'Sheets written before the format carried a version number (version 0) gain `version: 1`; nothing else changed.',
    up: (raw) => {
      const { version: _ignored, ...rest } = raw;
      return { version: 1, ...rest };
    },
  },
];

export type MigrationResult =
  | { ok: true; value: Record<string, unknown>; from: number; applied: readonly SheetMigration[] }
  | { ok: false; message: string };

/** The version a raw sheet declares: a missing `version` means version 0. */
export function sheetVersion(raw: Record<string, unknown>): number | null {
  if (!('version' in raw) || raw.version === undefined) return 0;
  return typeof raw.version === 'number' && Number.isInteger(raw.version) && raw.version >= 0 ? raw.version : null;
}

/** Bring raw sheet data to the current version; a sheet already current is returned unchanged. */
export function migrateSheet(raw: Record<string, unknown>, migrations: readonly SheetMigration[] = SHEET_MIGRATIONS, target = SHEET_VERSION): MigrationResult {
  const from = sheetVersion(raw);
  if (from === null) return { ok: false, message: `"version" must be a whole number; this program writes version ${target}.` };
  if (from > target) {
    return { ok: false, message: `The sheet is format version ${from}, newer than this program understands (version ${target}); update Personae Table.` };
  }
  let value = raw;
  let version = from;
  const applied: SheetMigration[] = [];
  while (version < target) {
    const step = migrations.find((m) => m.from === version);
    if (!step) return { ok: false, message: `There is no migration from sheet format version ${version}.` };
    value = step.up(value);
    version = step.to;
    applied.push(step);
  }
  return { ok: true, value, from, applied };
}
