import { z } from 'zod';
import type { Citation } from '@personae/core';

/** Every error code the server itself sends (domains add their own codes). */
export const ERROR_CODES = {
  bad_json: 400,
  too_deep: 400,
  forbidden_key: 400,
  message_too_large: 413,
  invalid_message: 400,
  unknown_message_type: 400,
  not_authenticated: 401,
  already_authenticated: 400,
  unauthorized: 401,
  forbidden: 403,
  table_not_found: 404,
  not_found: 404,
  conflict: 409,
  command_id_reused: 409,
  dice_input: 422,
  invalid_command: 400,
  rejected: 422,
  rate_limited: 429,
  table_full: 409,
  cannot_remove_gm: 400,
  participant_not_found: 404,
  invalid_import: 400,
  unsupported_format_version: 400,
  redacted_export: 400,
  invalid_setup: 400,
  setup_fixed: 409,
  shutting_down: 503,
  internal_error: 500,
} as const;

export type ServerErrorCode = keyof typeof ERROR_CODES;

export interface ErrorBody {
  type: 'error';
  code: string;
  message: string;
  field?: string;
  /** With a ruleset's refusal: the document and section of the rule that refused (the message ends with it too). */
  rule?: Citation;
  commandId?: string;
  currentVersion?: number;
  /** With `rate_limited`: send again after this many milliseconds. */
  retryAfterMs?: number;
}

/** HTTP status for an error code; codes from a domain's `parseCommand` are 400, from `decide` 422. */
export function statusFor(code: string, fromDomain: 'parse' | 'decide' | null = null): number {
  if (code in ERROR_CODES) return ERROR_CODES[code as ServerErrorCode];
  return fromDomain === 'parse' ? 400 : 422;
}

const tableId = z.string().min(1).max(64);
const token = z.string().min(1).max(256);
export const commandIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9._:-]+$/, 'use 1-128 letters, digits, ".", "_", ":" or "-"');

/**
 * Results typed in from physical dice, by the named pool they fill ("actor", "target:orc-2",
 * "order:ana", ...). The ruleset says which pools a command rolls and who may fill each; the table
 * rolls every pool left out.
 */
export const enteredDiceSchema = z
  .record(z.string().regex(/^[A-Za-z0-9._:-]{1,120}$/, 'a pool name is 1-120 letters, digits, ".", "_", ":" or "-"'), z.array(z.number().int().min(1).max(1000)).min(1).max(200))
  .refine((pools) => Object.keys(pools).length <= 50, 'at most 50 pools');

export const helloSchema = z.strictObject({
  type: z.literal('hello'),
  tableId,
  token,
  /**
   * The last sequence number the client has; the server sends every event after it, then a
   * `state-patch` from the client's view at `since` (with `base: since`) instead of the whole view.
   */
  since: z.number().int().min(0).optional(),
  /**
   * False: the client keeps its state from the views the server pushes (as the web app does) and is
   * sent no `event` messages, so each change reaches it once, in its `state-patch`. Absent or true:
   * events and views both.
   */
  events: z.boolean().optional(),
});

export const commandEnvelopeFields = {
  commandId: commandIdSchema,
  /** Refuse the command with `conflict` unless the table is still at this version. */
  expectedVersion: z.number().int().min(0).optional(),
  dice: enteredDiceSchema.optional(),
  command: z.unknown().refine((v) => v !== undefined, 'a command is required'),
};

export const commandMessageSchema = z.strictObject({ type: z.literal('command'), ...commandEnvelopeFields });
export const httpCommandSchema = z.strictObject(commandEnvelopeFields);

export const stateRequestSchema = z.strictObject({ type: z.literal('state') });
export const pingSchema = z.strictObject({ type: z.literal('ping'), id: z.union([z.string().max(64), z.number()]).optional() });

export const clientMessageSchema = z.discriminatedUnion('type', [
  helloSchema,
  commandMessageSchema,
  stateRequestSchema,
  pingSchema,
]);

export type HelloMessage = z.infer<typeof helloSchema>;
export type CommandMessage = z.infer<typeof commandMessageSchema>;
export type ClientMessage = z.infer<typeof clientMessageSchema>;
export type CommandEnvelope = z.infer<typeof httpCommandSchema>;

export const CLIENT_MESSAGE_TYPES = ['hello', 'command', 'state', 'ping'] as const;

const rulesetId = z.string().min(1).max(40);
const presetName = z.string().min(1).max(60);
/** Options set differently from the preset; the ruleset's `resolveOptions` checks names and values. */
const optionOverrides = z
  .record(z.string().min(1).max(80), z.union([z.string().max(200), z.number(), z.boolean(), z.null()]))
  .refine((o) => Object.keys(o).length <= 200, 'at most 200 options');

export const createTableSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  gmName: z.string().trim().min(1).max(60).optional(),
  /** The ruleset the table plays (default "personae"); the server refuses ids it does not host. */
  ruleset: rulesetId.optional(),
  /** One of the ruleset's presets (default: its first). */
  preset: presetName.optional(),
  options: optionOverrides.optional(),
  settings: z.strictObject({ physicalDice: z.boolean().optional() }).optional(),
});

/** The settings the GM changes; fields left out keep their value. */
export const settingsPatchSchema = z
  .strictObject({ physicalDice: z.boolean().optional(), preset: presetName.optional(), options: optionOverrides.optional() })
  .refine((patch) => Object.keys(patch).length > 0, 'name at least one setting to change, e.g. {"physicalDice": true}');

/** The join page asks which table an invite opens before the player picks a name. */
export const invitationSchema = z.strictObject({ invite: token });

export const joinSchema = z.strictObject({
  invite: token,
  displayName: z.string().trim().min(1).max(60),
});

/** The first problem zod found, as `{message, field}` for an error message. */
export function describeZodError(error: z.ZodError): { message: string; field?: string } {
  const issue = error.issues[0];
  if (!issue) return { message: 'invalid input' };
  const field = issue.path.map(String).join('.');
  return field ? { message: `${field}: ${issue.message}`, field } : { message: issue.message };
}

export interface SettingsView {
  physicalDice: boolean;
  /** The ruleset's preset the table was set up with (absent: the ruleset's first preset). */
  preset?: string;
  /** Options set differently from the preset. */
  options?: Record<string, unknown>;
}

export interface ParticipantView {
  id: string;
  role: 'gm' | 'player';
  displayName: string;
}

/** A link to the table with the token it carries. */
export interface LinkView {
  token: string;
  link: string;
}

/** `POST /api/tables`: the new table and the GM's, the players' and the observers' links. */
export interface CreatedTableBody {
  tableId: string;
  ruleset: string;
  gm: LinkView & { participantId: string };
  invite: LinkView;
  observer: LinkView;
}

/** `POST /api/tables/:id/join`: the new player and their own link. */
export interface JoinedBody extends LinkView {
  participantId: string;
  /** Always a player: the invite link makes players. */
  role: ParticipantView['role'];
  displayName: string;
}

/** `GET /api/tables/:id`: the table's metadata as the caller sees it. */
export interface TableInfoBody {
  table: { id: string; name: string; ruleset: string; createdAt: string; settings: SettingsView };
  version: number;
  you: { participantId: string; role: 'gm' | 'player' | 'observer'; displayName: string | null };
  participants: ParticipantView[];
}

/** The first message on a connection: who you are at which table, and (unless resuming) your view. */
export interface WelcomeMessage {
  type: 'welcome';
  tableId: string;
  /** `ruleset`: the id of the ruleset the table plays ("personae", "d100", "lucidity"). */
  table: { name: string; ruleset: string; settings: SettingsView };
  you: { participantId: string; role: 'gm' | 'player' | 'observer'; displayName: string | null };
  participants: ParticipantView[];
  version: number;
  state?: unknown;
  resync?: true;
}

/** One event, redacted for its receiver (`event: null` when the receiver may not see it). */
export interface EventMessage {
  type: 'event';
  seq: number;
  at?: string;
  event: unknown;
  commandId?: string;
}

/** The command's events are stored. */
export interface AckMessage {
  type: 'ack';
  commandId: string;
  firstSeq: number | null;
  lastSeq: number | null;
  version: number;
  duplicate?: true;
}

/** The receiver's view of the table's state at `version`: pushed after new events, or asked for. */
export interface StateMessage {
  type: 'state';
  version: number;
  state: unknown;
}

export type { StatePatchMessage } from './state-patch';

/** Every message the server sends on the WebSocket. The web app imports these types from here. */
export type ServerMessage =
  | WelcomeMessage
  | EventMessage
  | AckMessage
  | StateMessage
  | import('./state-patch').StatePatchMessage
  | { type: 'participant-joined'; participant: ParticipantView }
  | { type: 'participant-left'; participantId: string }
  | { type: 'settings'; settings: SettingsView }
  /** A character's portrait changed: its new digest, or null when it was removed. */
  | { type: 'portrait'; characterId: string; digest: string | null }
  | { type: 'pong'; id?: string | number }
  | ErrorBody;
