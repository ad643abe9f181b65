import type { CommandRecord, EventRecord, ParticipantRecord, TableLoad, TableRecord } from './types';

// Rows as both SQL stores read them (the same column names and types), and the records they become.

export interface TableRow {
  id: string;
  name: string;
  created_at: string;
  ruleset: string;
  settings: string;
  version: number;
}
export interface ParticipantRow {
  id: string;
  role: 'gm' | 'player';
  display_name: string;
  joined_at: string;
  removed_at: string | null;
}
export interface EventRow {
  seq: number;
  at: string;
  participant_id: string | null;
  command_id: string | null;
  payload: string;
}
export interface CommandRow {
  participant_id: string;
  command_id: string;
  command_hash: string;
  first_seq: number | null;
  last_seq: number | null;
  version_after: number;
  at: string;
}

export const toTable = (r: TableRow): TableRecord => ({
  id: r.id,
  name: r.name,
  createdAt: r.created_at,
  ruleset: r.ruleset,
  settings: JSON.parse(r.settings) as TableRecord['settings'],
  version: r.version,
});
export const toParticipant = (r: ParticipantRow): ParticipantRecord => ({
  id: r.id,
  role: r.role,
  displayName: r.display_name,
  joinedAt: r.joined_at,
  removedAt: r.removed_at,
});
export const toEvent = (r: EventRow): EventRecord => ({
  seq: r.seq,
  at: r.at,
  participantId: r.participant_id,
  commandId: r.command_id,
  event: JSON.parse(r.payload) as unknown,
});
export const toCommand = (r: CommandRow): CommandRecord => ({
  participantId: r.participant_id,
  commandId: r.command_id,
  commandHash: r.command_hash,
  firstSeq: r.first_seq,
  lastSeq: r.last_seq,
  versionAfter: r.version_after,
  at: r.at,
});

/**
 * The loads of several tables from the rows of three queries (participants in their order, events
 * by seq, each with its table's id); a table without a row in `tables` is left out.
 */
export function toTableLoads(
  tables: TableRow[],
  participants: Array<ParticipantRow & { table_id: string }>,
  events: Array<EventRow & { table_id: string }>,
): Map<string, TableLoad> {
  const loads = new Map<string, TableLoad>(tables.map((r) => [r.id, { table: toTable(r), participants: [], events: [] }]));
  for (const r of participants) loads.get(r.table_id)?.participants.push(toParticipant(r));
  for (const r of events) loads.get(r.table_id)?.events.push(toEvent(r));
  return loads;
}
