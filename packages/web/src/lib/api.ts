/** The table server's HTTP API (docs/server.md), as the app uses it. */
import type { AckMessage, CommandEnvelope, CreatedTableBody, ErrorBody, JoinedBody, LinkView, ParticipantView, SettingsView, TableInfoBody } from '@personae/server/protocol';

/** Wire types come from the server's protocol module, declared once there. */
export type Participant = ParticipantView;
/** What the GM can change about a table during play. */
export type TableSettings = SettingsView;
export type Ack = AckMessage;

export type Link = LinkView;
export type CreatedTable = CreatedTableBody;
export type Joined = JoinedBody;
export type TableInfo = TableInfoBody;


/** An error the server or the game rules reported, with its code and the field it is about. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly field?: string,
  ) {
    super(message);
  }
}

async function call<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  } catch {
    throw new ApiError('network', 'The table server cannot be reached. Check the connection and try again.', 0);
  }
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: handled below
  }
  if (!response.ok) {
    const e = (data ?? {}) as Partial<ErrorBody>;
    throw new ApiError(e.code ?? 'http_error', e.message ?? `The server answered ${response.status}.`, response.status, e.field);
  }
  return data as T;
}

/** The largest portrait the server accepts (docs/server.md, Limits). */
export const MAX_PORTRAIT_BYTES = 256 * 1024;
export const PORTRAIT_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

const portraitPath = (tableId: string, characterId: string) => `/api/tables/${encodeURIComponent(tableId)}/characters/${encodeURIComponent(characterId)}/portrait`;

/** PUT of a file as it is, answered with JSON like every other call. */
async function upload<T>(path: string, token: string, file: Blob): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': file.type }, body: file });
  } catch {
    throw new ApiError('network', 'The table server cannot be reached. Check the connection and try again.', 0);
  }
  const data = (await response.json().catch(() => null)) as (T & Partial<ErrorBody>) | null;
  if (!response.ok) throw new ApiError(data?.code ?? 'http_error', data?.message ?? `The server answered ${response.status}.`, response.status, data?.field);
  return data as T;
}

/** The table's events as decided, with their dice: the GM's alone (GET /api/tables/:id/decisions). */
export interface Decisions {
  readonly kind: 'decisions';
  readonly ruleset: string;
  readonly setup: { readonly preset?: string; readonly options?: Readonly<Record<string, unknown>> };
  readonly version: number;
  readonly events: readonly { readonly seq: number; readonly event: never }[];
}

export const api = {
  /** `setup`: the ruleset (default Personae), one of its presets and options set differently. */
  createTable: (name: string, gmName: string, physicalDice: boolean, setup: { ruleset?: string; preset?: string; options?: Record<string, unknown> } = {}) =>
    call<CreatedTable>('POST', '/api/tables', { name, gmName, ...setup, settings: { physicalDice } }),
  /** The name of the table an invite opens (the invite is checked; nothing else is told). */
  invitation: (tableId: string, invite: string) => call<{ table: { id: string; name: string } }>('POST', `/api/tables/${encodeURIComponent(tableId)}/invitation`, { invite }),
  join: (tableId: string, invite: string, displayName: string) =>
    call<Joined>('POST', `/api/tables/${encodeURIComponent(tableId)}/join`, { invite, displayName }),
  table: (tableId: string, token: string) => call<TableInfo>('GET', `/api/tables/${encodeURIComponent(tableId)}`, undefined, token),
  state: (tableId: string, token: string) => call<{ version: number; state: unknown }>('GET', `/api/tables/${encodeURIComponent(tableId)}/state`, undefined, token),
  command: (tableId: string, token: string, envelope: CommandEnvelope) =>
    call<Ack>('POST', `/api/tables/${encodeURIComponent(tableId)}/commands`, envelope, token),
  /** GM only; every connection to the table then receives a `settings` message. */
  setSettings: (tableId: string, token: string, settings: Partial<TableSettings>) =>
    call<{ settings: TableSettings }>('PATCH', `/api/tables/${encodeURIComponent(tableId)}/settings`, settings, token),
  /** GM only: the current invite link, which the server keeps sealed to show again on another device. */
  inviteLink: (tableId: string, token: string) => call<{ kind: 'invite' } & Link>('GET', `/api/tables/${encodeURIComponent(tableId)}/links/invite`, undefined, token),
  rotate: (tableId: string, token: string, kind: 'invite' | 'observer') =>
    call<{ kind: string } & Link>('POST', `/api/tables/${encodeURIComponent(tableId)}/links/${kind}/rotate`, {}, token),
  /** The table's events as a file: the GM's is a whole backup, a player's their own view of it. */
  decisions: (tableId: string, token: string) => call<Decisions>('GET', `/api/tables/${encodeURIComponent(tableId)}/decisions`, undefined, token),
  exportTable: (tableId: string, token: string) => call<unknown>('GET', `/api/tables/${encodeURIComponent(tableId)}/export`, undefined, token),
  /** A new table from a GM's backup file, with new links for everyone. */
  importTable: (file: unknown) => call<CreatedTable>('POST', '/api/tables/import', file),
  /** The digest of each portrait the caller may see, by character id. */
  portraits: (tableId: string, token: string) => call<{ portraits: Record<string, string> }>('GET', `/api/tables/${encodeURIComponent(tableId)}/portraits`, undefined, token),
  /** The character's player or the GM uploads its portrait (PNG, JPEG or WebP, at most MAX_PORTRAIT_BYTES). */
  setPortrait: (tableId: string, token: string, characterId: string, image: Blob) => upload<{ characterId: string; digest: string }>(portraitPath(tableId, characterId), token, image),
  removePortrait: (tableId: string, token: string, characterId: string) => call<{ characterId: string; digest: null }>('DELETE', portraitPath(tableId, characterId), undefined, token),
  /** The portrait image, fetched with the token (an image element cannot send it). */
  portraitImage: async (tableId: string, token: string, characterId: string): Promise<Blob> => {
    const response = await fetch(portraitPath(tableId, characterId), { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) throw new ApiError('http_error', `The server answered ${response.status}.`, response.status);
    return response.blob();
  },
  removeParticipant: (tableId: string, token: string, participantId: string) =>
    call<{ removed: true }>('DELETE', `/api/tables/${encodeURIComponent(tableId)}/participants/${encodeURIComponent(participantId)}`, undefined, token),
};
