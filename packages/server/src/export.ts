import { z } from 'zod';
import type { Actor } from './domain';
import { failure, type Outcome } from './outcome';
import { describeZodError } from './protocol';
import { checkExportedPortrait, MAX_EXPORTED_PORTRAIT_CHARS, portraitTooLarge, type ExportedPortrait } from './portraits';
import { DEFAULT_RULESET, setupOf, type TableDomains } from './rulesets';
import type { EventRecord, NewTable, ParticipantRecord, TableSettings } from './store/types';
import { hashToken, newId, newToken } from './tokens';
import { TimeSlice } from './yield';

/** Version of the export file layout; an import refuses any other. */
export const FORMAT_VERSION = 1;
export const EXPORT_KIND = 'personae-table';

export interface ExportedEvent {
  seq: number;
  /** null for an event the exporting participant may not see. */
  at: string | null;
  participantId: string | null;
  commandId: string | null;
  event: unknown;
}

export interface TableExport {
  formatVersion: typeof FORMAT_VERSION;
  kind: typeof EXPORT_KIND;
  exportedAt: string;
  /** `ruleset` is absent in files written before tables had one: those are Personae tables. */
  table: { id: string; name: string; createdAt: string; ruleset?: string; settings: TableSettings; version: number };
  participants: ParticipantRecord[];
  events: ExportedEvent[];
  /** Uploaded portraits by character id (absent in files written before tables had portraits). */
  portraits?: Record<string, ExportedPortrait>;
  /** null for the GM's complete export; otherwise whose view this is (such a file cannot be imported). */
  redactedFor: Actor | null;
}

const participantSchema = z.strictObject({
  id: z.string().min(1).max(64),
  role: z.enum(['gm', 'player']),
  displayName: z.string().min(1).max(60),
  joinedAt: z.string(),
  removedAt: z.string().nullable(),
});

const exportedEventSchema = z.strictObject({
  seq: z.number().int().min(1),
  at: z.string().nullable(),
  participantId: z.string().nullable(),
  commandId: z.string().nullable(),
  event: z.unknown(),
});

const exportSchema = z.strictObject({
  formatVersion: z.literal(FORMAT_VERSION),
  kind: z.literal(EXPORT_KIND),
  exportedAt: z.string(),
  table: z.strictObject({
    id: z.string(),
    name: z.string().min(1).max(100),
    createdAt: z.string(),
    ruleset: z.string().min(1).max(40).optional(),
    settings: z.strictObject({
      physicalDice: z.boolean(),
      preset: z.string().min(1).max(60).optional(),
      options: z.record(z.string().min(1).max(80), z.union([z.string().max(200), z.number(), z.boolean(), z.null()])).optional(),
    }),
    version: z.number().int().min(0),
  }),
  participants: z.array(participantSchema).min(1),
  // Each event is checked on its own below, in slices: one schema call over 50,000 events would hold
  // the event loop for the whole of it.
  events: z.array(z.unknown()),
  portraits: z
    .record(
      z.string().min(1).max(64),
      z.strictObject({ contentType: z.string().max(100), digest: z.string().max(100), data: z.string().max(MAX_EXPORTED_PORTRAIT_CHARS, portraitTooLarge()) }),
    )
    .optional(),
  redactedFor: z
    .strictObject({ role: z.enum(['gm', 'player', 'observer']), participantId: z.string() })
    .nullable(),
});

export function buildExport(input: Omit<TableExport, 'formatVersion' | 'kind' | 'exportedAt'>): TableExport {
  return { formatVersion: FORMAT_VERSION, kind: EXPORT_KIND, exportedAt: new Date().toISOString(), ...input };
}

export interface PreparedImport {
  newTable: NewTable;
  gm: { participantId: string; token: string };
  invite: string;
  observer: string;
  players: Array<{ participantId: string; displayName: string; token: string }>;
  /** Portraits to store with the table, each checked as an upload is. */
  portraits: Array<{ characterId: string; portrait: ExportedPortrait }>;
}

/**
 * Checks an export file (layout, sequence, participants, and that the domain can fold every event)
 * and prepares a new table from it, with a new id and new secrets for every active participant.
 */
export async function prepareImport(raw: unknown, domains: TableDomains): Promise<Outcome<PreparedImport>> {
  const version = (raw as { formatVersion?: unknown } | null)?.formatVersion;
  if (typeof raw !== 'object' || raw === null || version === undefined) {
    return failure('invalid_import', 'not a table export: formatVersion is missing', { field: 'formatVersion' });
  }
  if (version !== FORMAT_VERSION) {
    return failure('unsupported_format_version', `formatVersion ${JSON.stringify(version)} is not supported; this server reads ${FORMAT_VERSION}`, {
      field: 'formatVersion',
    });
  }
  const parsed = exportSchema.safeParse(raw);
  if (!parsed.success) return failure('invalid_import', describeZodError(parsed.error).message, fieldOf(parsed.error));
  const file = parsed.data;
  if (file.redactedFor !== null) {
    return failure('redacted_export', 'this export is one participant\u2019s view with hidden events removed; import the GM\u2019s export');
  }
  if (file.table.version !== file.events.length) {
    return failure('invalid_import', `table.version is ${file.table.version} but the file holds ${file.events.length} events`, {
      field: 'table.version',
    });
  }
  const ids = new Set<string>();
  for (const p of file.participants) {
    if (ids.has(p.id)) return failure('invalid_import', `participant "${p.id}" appears twice`, { field: 'participants' });
    ids.add(p.id);
  }
  const gms = file.participants.filter((p) => p.role === 'gm' && p.removedAt === null);
  if (gms.length !== 1) return failure('invalid_import', 'a table needs exactly one GM', { field: 'participants' });
  const ruleset = file.table.ruleset ?? DEFAULT_RULESET;
  const setup = setupOf(file.table.settings);
  const checked = domains.check(ruleset, setup);
  if (!checked.ok) return failure('invalid_import', checked.message, { field: `table.${checked.field === 'ruleset' ? 'ruleset' : `settings.${checked.field}`}` });
  const decider = domains.decider(ruleset, setup);

  // Folding a long log takes a while: it runs in slices so that other tables are served meanwhile.
  const slice = new TimeSlice(5);
  let state = decider.initialState();
  const events: EventRecord[] = [];
  for (const [i, raw] of file.events.entries()) {
    await slice.check();
    const entry = exportedEventSchema.safeParse(raw);
    if (!entry.success) {
      const { message, field } = describeZodError(entry.error);
      return field === undefined
        ? failure('invalid_import', `events.${i}: ${message}`, { field: `events.${i}` })
        : failure('invalid_import', `events.${i}.${message}`, { field: `events.${i}.${field}` });
    }
    const e = entry.data;
    if (e.seq !== i + 1) return failure('invalid_import', `event #${i + 1} has seq ${e.seq}`, { field: `events.${i}.seq` });
    if (e.at === null) return failure('invalid_import', `event ${e.seq} has no time`, { field: `events.${i}.at` });
    if (e.participantId !== null && !ids.has(e.participantId)) {
      return failure('invalid_import', `event ${e.seq} names an unknown participant`, { field: `events.${i}.participantId` });
    }
    if (decider.validateEvent) {
      const valid = decider.validateEvent(e.event);
      if (!valid.ok) return failure('invalid_import', `event ${e.seq}: ${valid.error.message}`, { field: `events.${i}.event${valid.error.field ? `.${valid.error.field}` : ''}` });
    }
    try {
      state = decider.evolve(state, e.event);
    } catch (error) {
      return failure('invalid_import', `event ${e.seq} cannot be applied: ${(error as Error).message}`, { field: `events.${i}.event` });
    }
    events.push({ seq: e.seq, at: e.at, participantId: e.participantId, commandId: e.commandId, event: e.event });
  }

  // Each portrait must belong to a character of the folded table and pass the checks of an upload.
  const portraits: PreparedImport['portraits'] = [];
  const gm = gms[0]!;
  for (const [characterId, portrait] of Object.entries(file.portraits ?? {})) {
    const at = { field: `portraits.${characterId}` };
    const access = decider.characterAccess?.(state, characterId, { role: 'gm', participantId: gm.id });
    if (!decider.characterAccess) return failure('invalid_import', `portraits: the ${ruleset} ruleset's characters have no portraits`, { field: 'portraits' });
    if (!access) return failure('invalid_import', `portraits: character "${characterId}" is not at this table`, at);
    const checked = checkExportedPortrait(portrait);
    if (!checked.ok) return failure('invalid_import', `the portrait of character "${characterId}" is refused: ${checked.error.message}`, at);
    portraits.push({ characterId, portrait });
  }

  const tokens = new Map<string, string>();
  for (const p of file.participants) if (p.removedAt === null) tokens.set(p.id, newToken(p.role === 'gm' ? 'gm' : 'player'));
  const invite = newToken('invite');
  const observer = newToken('observer');
  const newTable: NewTable = {
    table: {
      id: newId('t_'),
      name: file.table.name,
      createdAt: new Date().toISOString(),
      ruleset,
      settings: file.table.settings,
      version: file.events.length,
    },
    inviteHash: hashToken(invite),
    observerHash: hashToken(observer),
    participants: file.participants.map((p) => {
      const token = tokens.get(p.id);
      return { participant: p, tokenHash: token ? hashToken(token) : null };
    }),
    events,
  };
  return {
    ok: true,
    value: {
      newTable,
      gm: { participantId: gm.id, token: tokens.get(gm.id)! },
      invite,
      observer,
      players: file.participants
        .filter((p) => p.role === 'player' && p.removedAt === null)
        .map((p) => ({ participantId: p.id, displayName: p.displayName, token: tokens.get(p.id)! })),
      portraits,
    },
  };
}

function fieldOf(error: z.ZodError): { field?: string } {
  const { field } = describeZodError(error);
  return field === undefined ? {} : { field };
}
