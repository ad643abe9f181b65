/** A table's settings: chosen when it is created, changed later by the GM. */
export interface TableSettings {
  /** Players and the GM may enter results from physical dice with their commands. */
  physicalDice: boolean;
  /** The ruleset's preset the table was set up with (absent: the ruleset's first preset). */
  preset?: string;
  /** Options set differently from the preset (checked by the ruleset's `resolveOptions`). */
  options?: Record<string, unknown>;
}

export interface TableRecord {
  id: string;
  name: string;
  createdAt: string;
  /** The ruleset the table plays ("personae", "d100", "lucidity"); fixed when it is created. */
  ruleset: string;
  settings: TableSettings;
  /** Sequence number of the last event (0 for a table with no events). */
  version: number;
}

export type ParticipantRole = 'gm' | 'player';

export interface ParticipantRecord {
  id: string;
  role: ParticipantRole;
  displayName: string;
  joinedAt: string;
  /** When the GM removed them; a removed participant can no longer authenticate. */
  removedAt: string | null;
}

export interface EventRecord {
  /** Per-table sequence number, 1, 2, 3... without gaps. */
  seq: number;
  at: string;
  participantId: string | null;
  commandId: string | null;
  /** The domain event, as JSON. */
  event: unknown;
  /** `event` already serialized (JSON.stringify), when at hand: stores write it as it is. */
  json?: string;
}

/** The outcome of an applied command, kept so a retry with the same commandId returns it again. */
export interface CommandRecord {
  participantId: string;
  commandId: string;
  /** SHA-256 of the canonical JSON of the command and any entered dice. */
  commandHash: string;
  firstSeq: number | null;
  lastSeq: number | null;
  versionAfter: number;
  at: string;
}

export type Credential = { kind: 'participant'; participant: ParticipantRecord } | { kind: 'observer' };

export type AppendResult = { ok: true } | { ok: false; reason: 'conflict' | 'duplicate_command' };

export interface NewTable {
  table: TableRecord;
  inviteHash: string;
  observerHash: string;
  participants: Array<{ participant: ParticipantRecord; tokenHash: string | null }>;
  /** Events of an imported table; `table.version` must equal their count. */
  events: EventRecord[];
  /** Portraits of an imported table's characters, stored in the same transaction as its events. */
  portraits?: ReadonlyArray<{ characterId: string; portrait: Portrait }>;
}

export type LinkKind = 'invite' | 'observer';

/**
 * A short notice that a table changed in the store, sent by whichever node made the change:
 * `events` when its log grew to `version`, `setup` when its participants, links or settings changed
 * (`version` is then the table's setup version).
 */
export interface TableWake {
  kind: 'events' | 'setup';
  tableId: string;
  version: number;
}

/** Where a table's log and setup stand in the store. */
export interface TableMarks {
  version: number;
  setupVersion: number;
}

/** What a command decided while its table's row is held: its events, after the version it was given, and its record. */
export interface LockedDecision {
  events: EventRecord[];
  command: CommandRecord;
}

export interface FanoutHandlers {
  wake(wake: TableWake): void;
  /**
   * The listening connection was (re)established: notices sent while it was down are lost, so the
   * tables served must be checked against the store.
   */
  reconnected(): void;
}

/**
 * Announcing changes to every node that serves tables from the same database. Notices may be lost
 * (a listening connection can die silently); nodes check `marks` now and then to catch up.
 */
export interface Fanout {
  /**
   * Starts listening on a connection of its own; resolves once it listens, with the function that
   * stops it (closing the store stops it too).
   */
  listen(handlers: FanoutHandlers): Promise<() => Promise<void>>;
  /** Current marks of the given tables (tables that do not exist are left out). */
  marks(tableIds: string[]): Promise<Map<string, TableMarks>>;
  /**
   * The current marks of those of the given tables that moved past the marks given (a version or a
   * setup version higher): a node checks all it serves this way, and only those behind come back.
   */
  behind(known: Map<string, TableMarks>): Promise<Map<string, TableMarks>>;
  /**
   * `readEvents` for several tables in one query: for each request in order, the table's events
   * with seq > afterSeq, oldest first, at most `limit` of them. The tables other nodes announced
   * while a node was busy are caught up together.
   */
  readAfter(requests: ReadonlyArray<{ tableId: string; afterSeq: number }>, limit: number): Promise<EventRecord[][]>;
  /**
   * Appends one command while holding the table's row, for a command that lost the race for the
   * table's next version: waits for the row (other nodes' appends to the table are refused as
   * `conflict` meanwhile, not held), hands `decide` the events stored after `knownVersion`, and
   * stores what it decides against them, which no other node can then overtake. `decide` answering
   * null stores nothing (the result is null). `conflict` when the row was not had in time or the
   * node is too far behind to catch up while holding it.
   */
  appendLocked(tableId: string, knownVersion: number, decide: (missed: EventRecord[]) => Promise<LockedDecision | null>): Promise<AppendResult | null>;
  /** Fraction (0..1) of the database's notification queue in use. */
  queueUsage(): Promise<number>;
}

/** What a node reads to start serving a table: its record, its participants and the first events of its log. */
export interface TableLoad {
  table: TableRecord;
  participants: ParticipantRecord[];
  /** The log's first events, in order (at most the `eventLimit` asked for). */
  events: EventRecord[];
}

/** A character's uploaded portrait: the image as sent, its content type and a digest naming this version. */
export interface Portrait {
  readonly contentType: string;
  readonly data: Buffer;
  /** SHA-256 of the image, hex: changes whenever the image does (clients use it to refetch). */
  readonly digest: string;
}

/**
 * Everything the server keeps. Both implementations (SQLite and PostgreSQL) pass the same contract
 * tests. Token arguments are always SHA-256 digests, never the tokens themselves.
 */
export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  ping(): Promise<void>;
  createTable(input: NewTable): Promise<void>;
  getTable(tableId: string): Promise<TableRecord | null>;
  /** Every table's id and version (for the server's own backups). */
  listTables(): Promise<Array<{ id: string; version: number }>>;
  listParticipants(tableId: string): Promise<ParticipantRecord[]>;
  /**
   * `getTable`, `listParticipants` and `readEvents(id, 0, eventLimit)` of several tables in a few
   * queries for all of them; tables that do not exist are left out.
   */
  loadTables(tableIds: readonly string[], eventLimit: number): Promise<Map<string, TableLoad>>;
  /** The participant (not removed) or observer link matching the token digest. */
  authenticate(tableId: string, tokenHash: string): Promise<Credential | null>;
  /** `authenticate` for several token digests of one table in one query: the digests that match, with their credentials. */
  authenticateMany(tableId: string, tokenHashes: readonly string[]): Promise<Map<string, Credential>>;
  /** The table's name if `inviteHash` is its current invite (for the join page); null if it is not. */
  inviteTableName(tableId: string, inviteHash: string): Promise<string | null>;
  /** Adds a player if `inviteHash` is the table's current invite; false if it is not. */
  joinWithInvite(tableId: string, inviteHash: string, participant: ParticipantRecord, tokenHash: string): Promise<boolean>;
  /** Marks a participant removed and forgets their token; false if there was no such active participant. */
  removeParticipant(tableId: string, participantId: string, at: string): Promise<boolean>;
  /** Replaces an invite or observer link (the old one stops working). */
  rotateLink(tableId: string, kind: LinkKind, hash: string): Promise<void>;
  /** Replaces a participant's personal token. */
  setParticipantToken(tableId: string, participantId: string, hash: string): Promise<void>;
  /** Replaces the table's settings; false if there is no such table. */
  setSettings(tableId: string, settings: TableSettings): Promise<boolean>;
  /**
   * Appends the events of one command and its record in one transaction, if the table is still at
   * `expectedVersion` and the command was not applied before. `events[i].seq` must be
   * `expectedVersion + 1 + i`.
   */
  appendEvents(tableId: string, expectedVersion: number, events: EventRecord[], command: CommandRecord): Promise<AppendResult>;
  /** Events with seq > afterSeq in order, at most `limit` of them. */
  readEvents(tableId: string, afterSeq: number, limit?: number): Promise<EventRecord[]>;
  getCommand(tableId: string, participantId: string, commandId: string): Promise<CommandRecord | null>;
  /** Replaces a character's portrait (null removes it); false if there is no such table. */
  setPortrait(tableId: string, characterId: string, portrait: Portrait | null): Promise<boolean>;
  getPortrait(tableId: string, characterId: string): Promise<Portrait | null>;
  /** The digest of every portrait of a table, by character id. */
  listPortraits(tableId: string): Promise<Record<string, string>>;
  /** Keeps the table's current invite, sealed (see sealed.ts), so that the GM can be shown it again. */
  setSealedInvite(tableId: string, sealed: string): Promise<void>;
  getSealedInvite(tableId: string): Promise<string | null>;
  /** Present when several server processes can share this store (PostgreSQL). */
  readonly fanout?: Fanout;
  close(): Promise<void>;
}

export function assertSequence(expectedVersion: number, events: EventRecord[]): void {
  events.forEach((event, i) => {
    if (event.seq !== expectedVersion + 1 + i) {
      throw new Error(`event ${i} has seq ${event.seq}, expected ${expectedVersion + 1 + i}`);
    }
  });
}
