import { cryptoDice, type DiceSource } from '@personae/dice';
import { poolDice, refusalOf, type Actor, type AnyDecider, type HostLimits } from './domain';
import { failure, type Failure, type Outcome } from './outcome';
import { setupOf, type TableDomains } from './rulesets';
import { Gather } from './gather';
import {
  statusFor,
  type AckMessage,
  type CommandEnvelope,
  type ErrorBody,
  type EventMessage,
  type ParticipantView,
  type ServerMessage,
  type TableInfoBody,
} from './protocol';
import type {
  AppendResult,
  CommandRecord,
  EventRecord,
  Fanout,
  LinkKind,
  Credential,
  ParticipantRecord,
  Portrait,
  Store,
  TableLoad,
  TableMarks,
  TableRecord,
  TableSettings,
  TableWake,
} from './store/types';
import type { ExportedEvent } from './export';
import { exportPortraits } from './portraits';
import { TokenBucket, type RateLimit } from './rate-limit';
import { canonicalJson, hashToken, newId, newToken, sha256Hex } from './tokens';
import { diffState, jsonWith, sameDiff, statePatchText, type KnownTexts } from './state-patch';
import { survivesJson } from './json';
import { TimeSlice } from './yield';

/** Someone watching a table: a WebSocket connection. */
export interface Viewer {
  readonly actor: Actor;
  /** Digest of the token the viewer authenticated with. */
  readonly tokenHash: string;
  /** False once the connection is closed or its access was revoked. */
  readonly open: boolean;
  /** False when the viewer asked for views alone: it is sent no event messages. */
  readonly events?: boolean;
  send(message: ServerMessage): void;
  /** Sends a message already serialized to JSON. */
  sendText(text: string): void;
  close(code: number, reason: string): void;
}

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export { failure, type Failure, type Outcome } from './outcome';


/** WebSocket close codes the server uses (4000-4999 is the range for applications). */
export const CLOSE = {
  goingAway: 1001,
  unauthorized: 4001,
  revoked: 4003,
  helloTimeout: 4008,
  slowConsumer: 4009,
} as const;


/** An authenticated caller of an HTTP request or WebSocket hello. */
export interface Caller {
  actor: Actor;
  displayName: string | null;
  tokenHash: string;
}

interface LoadedTable<S> {
  record: TableRecord;
  /** The table's domain: its ruleset's decider, built for the table's setup. */
  decider: AnyDecider;
  participants: Map<string, ParticipantRecord>;
  state: S;
  version: number;
  /** State after seq N for every N that is a multiple of the checkpoint interval. */
  checkpoints: Map<number, S>;
  /**
   * The newest events with the state after each, oldest first (at most RECENT_EVENTS): a client
   * resuming with a recent `since` is caught up from memory, without reading and folding the log.
   */
  recent: Array<{ rec: EventRecord; state: S }>;
  viewers: Set<Viewer>;
  tail: Promise<void>;
  pending: number;
  lastUsed: number;
  /**
   * Set when the memory may be behind the store: an append failed in a way that leaves it unsure, or
   * another node added events. The next operation in the table's queue catches up first.
   */
  stale: boolean;
  /** Counts changes of participants, links and settings in the store (when several nodes serve tables). */
  setupVersion: number;
  /** A catch-up is already waiting in the queue. */
  catchUpQueued: boolean;
  /** The highest version other nodes announced for the table: a catch-up reads at least up to it. */
  announced: number;
  /**
   * The version this node's append in flight would bring the table to. A notice up to it is this
   * node's own append (or one that beats it, which the append then learns as a lost race): no read.
   */
  appending: number | null;
  /**
   * Counts removals and replaced links done here and setup changes read from the store: a token
   * checked before its operation's turn is checked again if this moved meanwhile.
   */
  credentialChanges: number;
  /** Commands per second the whole table accepts, whoever sends them. */
  commands: TokenBucket;
  /** Token digests to check against the store, in one query for all that wait. */
  tokens: Gather<Credential>;
  /**
   * Views of `state` built for hellos, by audience: the clients of a table that moved here from a
   * node that went away all say hello at once, and most of them see the same view. Replaced as soon
   * as the state in memory or the decider is another.
   */
  welcomeViews: { state: S; decider: AnyDecider; byAudience: Map<string, unknown> } | null;
}

export interface HubOptions {
  /** Keep the table state every N events, to redact catch-up without replaying from the start. */
  checkpointEvery?: number;
  /** Forget tables nobody watched for this long (ms). */
  idleMs?: number;
  dice?: DiceSource;
  /** Players and GM a table may hold at once; joins beyond it are refused with `table_full`. */
  maxParticipants?: number;
  /** Commands a table accepts, from all its participants together. */
  tableCommandRate?: RateLimit;
  /** The clock `tableCommandRate` refills by; `performance.now` by default. */
  rateClock?: () => number;
  /** Bounds on what one table holds, passed to the domain's `decide`. */
  limits?: HostLimits;
}

const PAGE = 1000;

/** Tables caught up by one query at most, when several nodes serve them. */
const READ_BATCH = 500;

/** Tables loaded by one batch of queries at most (each brings up to PAGE events). */
const LOAD_BATCH = 100;

/** Events kept in memory per table with their states, for clients resuming from a recent `since`. */
const RECENT_EVENTS = 128;

/**
 * An append that lost the race to another node is decided again while it has been trying for less
 * than APPEND_RETRY_MS and fewer than MAX_APPEND_TRIES times. The time matters more than the count:
 * a node working off a backlog of commands for a table wins race after race (its copy is current,
 * the loser must read first), until its backlog is done.
 */
const MAX_APPEND_TRIES = 200;
const APPEND_RETRY_MS = 60_000;

/**
 * Appends deciding while holding their table's row, at most, per node: each holds a connection of
 * the pool for as long as it waits for the row and decides.
 */
const MAX_ROWS_HELD = 3;

/** A command decided against the table in memory, ready to store. */
interface Decision<S> {
  records: EventRecord[];
  statesAfter: S[];
  state: S;
  now: string;
  command: CommandRecord;
  /** What was written of the events' parts already, for the views to reuse. */
  texts: KnownTexts;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const HUB_DEFAULTS = {
  maxParticipants: 32,
  tableCommandRate: { burst: 60, perSecond: 30 },
  maxCharacters: 100,
  maxCharactersPerPlayer: 8,
} as const;

/**
 * The tables this process serves. Every operation on a table runs in that table's queue, one after
 * another: commands are decided against the latest state and appended with gap-free sequence
 * numbers, and a catch-up after reconnect cannot interleave with a new event.
 */
export class TableHub<S, C, E> {
  private readonly loaded = new Map<string, Promise<LoadedTable<S> | null>>();
  /** The tables of `loaded` that finished loading. */
  private readonly served = new Map<string, LoadedTable<S>>();
  /**
   * What other nodes announced for tables of `loaded` still loading: a notice that comes after the
   * load read the store would otherwise be lost, and the table stay behind until the next check.
   */
  private readonly announcedWhileLoading = new Map<string, TableMarks>();
  /** The view each viewer received last: the next view goes to it as the changes from this one. */
  private readonly sentViews = new WeakMap<Viewer, { version: number; view: unknown }>();
  private fanout: Fanout | null = null;
  private stopListening: (() => Promise<void>) | null = null;
  private checkTimer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private checkAgain = false;
  private readonly checkpointEvery: number;
  private readonly idleMs: number;
  private readonly dice: DiceSource;
  private readonly maxParticipants: number;
  private readonly tableCommandRate: RateLimit;
  private readonly rateClock: () => number;
  private readonly limits: HostLimits;
  private closing = false;
  /**
   * Welcomes share the event loop's turn budget with the sliced loops: a table loaded for hundreds
   * of waiting clients (a node taking on a lost node's tables) would otherwise welcome them all in
   * one turn, and the node accepts new connections only between turns (see accept.ts).
   */
  private readonly welcomes = new TimeSlice();
  /** Appends holding their table's row in the store now (see MAX_ROWS_HELD). */
  private rowsHeld = 0;
  /**
   * Catch-up reads of tables other nodes wrote to, keyed "afterSeq tableId": the tables announced
   * while a read runs are read together in the next one, in one query.
   */
  private readonly newEvents = new Gather<EventRecord[]>((keys) => this.readNewBatch(keys), READ_BATCH);
  /** Tables to load, read from the store in a few queries for all that wait. */
  private readonly loads = new Gather<{ load: TableLoad; marks: TableMarks | undefined }>((ids) => this.loadBatch(ids), LOAD_BATCH);

  constructor(
    private readonly store: Store,
    private readonly domains: TableDomains,
    private readonly log: Logger,
    options: HubOptions = {},
  ) {
    this.checkpointEvery = options.checkpointEvery ?? 256;
    this.idleMs = options.idleMs ?? 10 * 60_000;
    this.dice = options.dice ?? cryptoDice();
    this.maxParticipants = options.maxParticipants ?? HUB_DEFAULTS.maxParticipants;
    this.tableCommandRate = options.tableCommandRate ?? HUB_DEFAULTS.tableCommandRate;
    this.rateClock = options.rateClock ?? (() => performance.now());
    this.limits = options.limits ?? { maxCharacters: HUB_DEFAULTS.maxCharacters, maxCharactersPerPlayer: HUB_DEFAULTS.maxCharactersPerPlayer };
  }

  // ----- loading and the per-table queue -----

  private get(tableId: string): Promise<LoadedTable<S> | null> {
    let entry = this.loaded.get(tableId);
    if (!entry) {
      entry = this.load(tableId);
      this.loaded.set(tableId, entry);
      entry.then(
        (t) => {
          if (t) return;
          this.announcedWhileLoading.delete(tableId);
          if (this.loaded.get(tableId) === entry) this.loaded.delete(tableId);
        },
        () => {
          this.announcedWhileLoading.delete(tableId);
          if (this.loaded.get(tableId) === entry) this.loaded.delete(tableId);
        },
      );
    }
    return entry;
  }

  /**
   * Reads the tables asked for together. A node taking on the tables of one that went away is asked
   * for hundreds at once: a few queries for each batch, not three or four for each table.
   */
  private async loadBatch(tableIds: string[]): Promise<Map<string, { load: TableLoad; marks: TableMarks | undefined }>> {
    // Read before the setup itself, so that a change made meanwhile shows up as a newer mark.
    const marks = this.fanout ? await this.fanout.marks(tableIds) : null;
    const loads = await this.store.loadTables(tableIds, PAGE);
    return new Map([...loads].map(([id, load]) => [id, { load, marks: marks?.get(id) }]));
  }

  private async load(tableId: string): Promise<LoadedTable<S> | null> {
    const found = await this.loads.get(tableId);
    if (!found) return null;
    const { table: record, participants, events } = found.load;
    const decider = this.domains.decider(record.ruleset, setupOf(record.settings));
    const initial = decider.initialState() as S;
    const t: LoadedTable<S> = {
      record,
      decider,
      participants: new Map(participants.map((p) => [p.id, p])),
      state: initial,
      version: 0,
      checkpoints: new Map([[0, initial]]),
      recent: [],
      viewers: new Set(),
      tail: Promise.resolve(),
      pending: 0,
      lastUsed: Date.now(),
      stale: false,
      setupVersion: found.marks?.setupVersion ?? 0,
      catchUpQueued: false,
      announced: 0,
      appending: null,
      credentialChanges: 0,
      commands: new TokenBucket(this.tableCommandRate, this.rateClock),
      tokens: new Gather<Credential>((hashes) => this.store.authenticateMany(tableId, hashes)),
      welcomeViews: null,
    };
    await this.applyFromStore(t, false, events);
    this.served.set(tableId, t);
    const early = this.announcedWhileLoading.get(tableId);
    if (early) {
      this.announcedWhileLoading.delete(tableId);
      this.onWake({ kind: 'events', tableId, version: early.version });
      this.onWake({ kind: 'setup', tableId, version: early.setupVersion });
    }
    return t;
  }

  /**
   * Reads events the memory does not have yet, folds them in and (if asked) sends them to viewers.
   * Returns the first event read, if any. `firstPage`: the events after `t.version` already read (at
   * most PAGE of them, as a read of the store would bring).
   */
  private async applyFromStore(t: LoadedTable<S>, broadcast: boolean, firstPage?: EventRecord[]): Promise<EventRecord | null> {
    let first: EventRecord | null = null;
    // A long log is folded in slices, letting other tables' requests run in between.
    const slice = new TimeSlice();
    // Read again while a notice that came during the read announced more than it found (the read
    // may have begun before that append committed), so that a burst of notices costs one catch-up.
    for (let before = -1; t.version > before && (before < 0 || t.version < t.announced); ) {
      before = t.version;
      let next = firstPage ? Promise.resolve(firstPage) : this.readNew(t.record.id, t.version);
      firstPage = undefined;
      for (;;) {
        const page = await next;
        first ??= page[0] ?? null;
        // The next page is read (a round trip to PostgreSQL) while this one is folded.
        if (page.length === PAGE) {
          next = this.store.readEvents(t.record.id, page[page.length - 1]!.seq, PAGE);
          // Awaited below unless folding this page throws first; then its failure is not the one to report.
          next.catch(() => undefined);
        }
        const statesAfter: S[] = [];
        for (const rec of page) {
          if (rec.seq !== t.version + 1) throw new Error(`table ${t.record.id}: event ${rec.seq} follows ${t.version}`);
          t.state = t.decider.evolve(t.state, rec.event as E);
          t.version = rec.seq;
          if (t.version % this.checkpointEvery === 0) t.checkpoints.set(t.version, t.state);
          remember(t, rec, t.state);
          statesAfter.push(t.state);
          await slice.check();
        }
        // The viewers get the page's events and then one view of the state after the last of them.
        if (broadcast && page.length > 0) this.broadcast(t, page, statesAfter);
        if (page.length < PAGE) break;
      }
    }
    t.record = { ...t.record, version: t.version };
    t.stale = false;
    return first;
  }

  /** The first page of a table's events after `afterSeq`: with other nodes, in a query shared with the other tables that wait. */
  private async readNew(tableId: string, afterSeq: number): Promise<EventRecord[]> {
    if (!this.fanout) return this.store.readEvents(tableId, afterSeq, PAGE);
    return (await this.newEvents.get(`${afterSeq} ${tableId}`)) ?? [];
  }

  private async readNewBatch(keys: string[]): Promise<Map<string, EventRecord[]>> {
    const requests = keys.map((key) => {
      const space = key.indexOf(' ');
      return { afterSeq: Number(key.slice(0, space)), tableId: key.slice(space + 1) };
    });
    const pages = await this.fanout!.readAfter(requests, PAGE);
    return new Map(keys.map((key, i) => [key, pages[i]!]));
  }

  private run<T>(t: LoadedTable<S>, fn: () => Promise<T>): Promise<T> {
    t.pending++;
    const result = t.tail.then(async () => {
      t.lastUsed = Date.now();
      if (t.stale) await this.applyFromStore(t, true);
      return fn();
    });
    t.tail = result.then(
      () => undefined,
      () => undefined,
    );
    result.then(
      () => t.pending--,
      () => t.pending--,
    );
    return result;
  }

  /** Runs `fn` in the table's queue after authenticating `token` there (so a removal cannot race it). */
  async withCaller<T>(
    tableId: string,
    token: string | undefined,
    fn: (caller: Caller, t: LoadedTable<S>) => Promise<Outcome<T>>,
  ): Promise<Outcome<T>> {
    if (this.closing) return failure('shutting_down', 'the server is shutting down');
    const t = await this.get(tableId);
    if (!t) return failure('table_not_found', `no table "${tableId}"`);
    // The store is asked while the operation waits for its turn (the clients of a table that moved
    // here from a node that died all say hello at once), and asked again in its turn if a removal or
    // replaced link came first. A change made on another node reaches this one as a setup notice,
    // whose check of every connected viewer's token runs after this operation.
    const tokenHash = token ? hashToken(token) : null;
    const checkedAt = t.credentialChanges;
    const early = tokenHash ? this.authenticate(t, tokenHash) : null;
    early?.catch(() => undefined);
    return this.run(t, async () => {
      let caller = early ? await early : null;
      if (tokenHash && t.credentialChanges !== checkedAt) caller = await this.authenticate(t, tokenHash);
      if (!caller) return failure('unauthorized', 'the link or token is not valid for this table (it may have been replaced)');
      return fn(caller, t);
    });
  }

  private async authenticate(t: LoadedTable<S>, tokenHash: string): Promise<Caller | null> {
    const credential = await t.tokens.get(tokenHash);
    if (!credential) return null;
    if (credential.kind === 'observer') return { actor: { role: 'observer', participantId: 'observer' }, displayName: null, tokenHash };
    const p = credential.participant;
    return { actor: { role: p.role, participantId: p.id }, displayName: p.displayName, tokenHash };
  }

  // ----- subscribing -----

  /**
   * Authenticates a WebSocket hello, sends the welcome and then either the viewer's state or every
   * event after `since`, and adds the viewer to the table; all in the table's queue, so the viewer
   * receives each event exactly once.
   */
  async subscribe(
    tableId: string,
    token: string,
    since: number | undefined,
    makeViewer: (caller: Caller) => Viewer,
  ): Promise<Outcome<Viewer>> {
    return this.withCaller(tableId, token, async (caller, t) => {
      await this.welcomes.check();
      // A client coming from another node may have seen events this node has not read yet.
      if (since !== undefined && since > t.version && this.fanout) await this.applyFromStore(t, true);
      const viewer = makeViewer(caller);
      if (!viewer.open) return failure('unauthorized', 'the connection closed');
      const catchUp = since !== undefined && since <= t.version;
      let state: unknown;
      if (!catchUp) {
        const view = this.welcomeView(t, caller.actor);
        if (!view.ok) return view;
        state = view.value;
      }
      viewer.send({
        type: 'welcome',
        tableId: t.record.id,
        table: { name: t.record.name, ruleset: t.record.ruleset, settings: t.record.settings },
        you: { participantId: caller.actor.participantId, role: caller.actor.role, displayName: caller.displayName },
        participants: participantViews(t),
        version: t.version,
        ...(catchUp ? {} : { state }),
        ...(since !== undefined && since > t.version ? { resync: true as const } : {}),
      });
      if (catchUp) {
        const atSince = await this.replay(t, since, t.version, (rec, after) => {
          if (viewer.events !== false) viewer.send(this.eventMessage(t, rec, caller.actor, after));
        });
        this.sendResumedView(t, viewer, since, atSince);
      } else {
        this.sentViews.set(viewer, { version: t.version, view: state });
      }
      t.viewers.add(viewer);
      return { ok: true, value: viewer };
    });
  }

  unsubscribe(tableId: string, viewer: Viewer): void {
    void this.loaded.get(tableId)?.then((t) => t?.viewers.delete(viewer));
  }

  /** Current view of the state for the caller. */
  state(tableId: string, token: string | undefined): Promise<Outcome<{ version: number; state: unknown }>> {
    return this.withCaller(tableId, token, async (caller, t) => {
      const view = this.view(t, caller.actor);
      return view.ok ? { ok: true, value: { version: t.version, state: view.value } } : view;
    });
  }

  /**
   * The state request of a connected viewer: the view is sent from the table's queue, so that the
   * changes pushed after the next events apply to it.
   */
  async viewerState(tableId: string, viewer: Viewer): Promise<Outcome<{ version: number }>> {
    const t = await this.get(tableId);
    if (!t) return failure('table_not_found', `no table "${tableId}"`);
    return this.run(t, async () => {
      if (!viewer.open) return failure('unauthorized', 'access was revoked');
      const view = this.view(t, viewer.actor);
      if (!view.ok) return view;
      viewer.send({ type: 'state', version: t.version, state: view.value });
      this.sentViews.set(viewer, { version: t.version, view: view.value });
      return { ok: true, value: { version: t.version } };
    });
  }

  /** Table metadata for a caller. */
  info(tableId: string, token: string | undefined) {
    return this.withCaller(tableId, token, async (caller, t) => ({
      ok: true as const,
      value: {
        table: { id: t.record.id, name: t.record.name, ruleset: t.record.ruleset, createdAt: t.record.createdAt, settings: t.record.settings },
        version: t.version,
        you: { participantId: caller.actor.participantId, role: caller.actor.role, displayName: caller.displayName },
        participants: participantViews(t),
      } satisfies TableInfoBody,
    }));
  }

  /** Events after `since` as the caller may see them, at most `limit`. */
  events(tableId: string, token: string | undefined, since: number, limit: number) {
    return this.withCaller(tableId, token, async (caller, t) => {
      const until = Math.min(t.version, since + limit);
      const events: EventMessage[] = [];
      if (since < until) await this.replay(t, since, until, (rec, after) => events.push(this.eventMessage(t, rec, caller.actor, after)));
      return { ok: true as const, value: { version: t.version, events, hasMore: until < t.version } };
    });
  }

  private view(t: LoadedTable<S>, actor: Actor): Outcome<unknown> {
    try {
      return { ok: true, value: t.decider.viewState(t.state, actor) };
    } catch (error) {
      this.log.error({ err: error, tableId: t.record.id }, 'viewState failed');
      return failure('internal_error', 'the table state could not be shown');
    }
  }

  /**
   * The view of the state in memory for a viewer saying hello, shared with the others of its
   * audience who say hello before the state changes (views are never changed once built: pushed
   * views are shared the same way).
   */
  private welcomeView(t: LoadedTable<S>, actor: Actor): Outcome<unknown> {
    const key = this.audienceOf(t, t.state, actor);
    if (key === null) return this.view(t, actor);
    if (t.welcomeViews?.state !== t.state || t.welcomeViews.decider !== t.decider) {
      t.welcomeViews = { state: t.state, decider: t.decider, byAudience: new Map() };
    }
    const views = t.welcomeViews.byAudience;
    if (views.has(key)) return { ok: true, value: views.get(key) };
    const view = this.view(t, actor);
    if (view.ok) views.set(key, view.value);
    return view;
  }

  /**
   * Who sees the same view as `actor` (the domain's `audience`; without it, each role and
   * participant alone). Null when the domain fails to tell: the viewer then shares with no one.
   */
  private audienceOf(t: LoadedTable<S>, state: S, actor: Actor): string | null {
    try {
      return t.decider.audience ? t.decider.audience(state, actor) : `${actor.role}:${actor.participantId}`;
    } catch (error) {
      this.log.error({ err: error, tableId: t.record.id }, 'audience failed; the viewer gets a view of its own');
      return null;
    }
  }

  /**
   * A resuming viewer, after the events it missed: its view now, as the changes from its view at
   * `since` (a `state-patch` with that base), so that it keeps its state without asking for the
   * whole. The whole view goes instead when the state at `since` is not at hand.
   */
  private sendResumedView(t: LoadedTable<S>, viewer: Viewer, since: number, atSince: S | undefined): void {
    const now = this.welcomeView(t, viewer.actor);
    // Without a view the client asks for the state itself, as after a failed push.
    if (!now.ok) return;
    let text: string | null = null;
    // A viewer that missed nothing (the usual case for clients of a node that went away) holds the
    // view of the very state in memory: no changes, and no second view to build to find that out.
    if (atSince === t.state) text = statePatchText(t.version, since, {});
    else if (atSince !== undefined) {
      try {
        const diff = diffState(t.decider.viewState(atSince, viewer.actor), now.value);
        if (diff) text = statePatchText(t.version, since, diff);
      } catch (error) {
        this.log.error({ err: error, tableId: t.record.id }, 'viewState failed; the resumed viewer gets the whole view');
      }
    }
    viewer.sendText(text ?? JSON.stringify({ type: 'state', version: t.version, state: now.value } satisfies ServerMessage));
    this.sentViews.set(viewer, { version: t.version, view: now.value });
  }

  /**
   * Replays from the nearest checkpoint at or before `since` and visits every event in (since, until].
   * Returns the state at `since` when it was met on the way (always, unless the events came from
   * memory starting just after `since`).
   */
  private async replay(t: LoadedTable<S>, since: number, until: number, visit: (rec: EventRecord, stateAfter: S) => void): Promise<S | undefined> {
    if (since === t.version && until === t.version) return t.state;
    const oldest = t.recent[0]?.rec.seq;
    if (oldest !== undefined && oldest <= since + 1 && until <= t.version) {
      let atSince = t.checkpoints.get(since);
      for (const { rec, state } of t.recent) {
        if (rec.seq === since) atSince = state;
        else if (rec.seq > since && rec.seq <= until) visit(rec, state);
      }
      return atSince;
    }
    let base = Math.floor(since / this.checkpointEvery) * this.checkpointEvery;
    let state: S | undefined = t.checkpoints.get(base);
    if (state === undefined) {
      base = 0;
      state = t.decider.initialState() as S;
    }
    let folded: S = state;
    let atSince: S | undefined = base === since ? folded : undefined;
    let seq = base;
    const slice = new TimeSlice();
    while (seq < until) {
      const page = await this.store.readEvents(t.record.id, seq, Math.min(PAGE, until - seq));
      if (page.length === 0) throw new Error(`table ${t.record.id}: event log ends at ${seq}, expected ${until}`);
      for (const rec of page) {
        folded = t.decider.evolve(folded, rec.event) as S;
        if (rec.seq === since) atSince = folded;
        else if (rec.seq > since) visit(rec, folded);
        seq = rec.seq;
        await slice.check();
      }
    }
    return atSince;
  }

  private eventMessage(t: LoadedTable<S>, rec: EventRecord, viewer: Actor, stateAfter: S): EventMessage {
    let visible: E | null;
    try {
      visible = t.decider.redactEvent(rec.event as E, viewer, stateAfter);
    } catch (error) {
      this.log.error({ err: error, seq: rec.seq }, 'redactEvent failed; the event is withheld');
      visible = null;
    }
    if (visible === null || visible === undefined) return { type: 'event', seq: rec.seq, event: null };
    const message: EventMessage = { type: 'event', seq: rec.seq, at: rec.at, event: visible };
    if (rec.commandId !== null && rec.participantId === viewer.participantId) message.commandId = rec.commandId;
    return message;
  }

  /** `texts`: what was written of the records' events already (by decide), for the views to reuse. */
  private broadcast(t: LoadedTable<S>, records: EventRecord[], statesAfter: S[], texts: KnownTexts = new Map()): void {
    const viewers: Viewer[] = [];
    for (const viewer of t.viewers) {
      if (viewer.open) viewers.push(viewer);
      else t.viewers.delete(viewer);
    }
    // Viewers who take views alone (as the web app does) cost the events nothing.
    if (viewers.some((viewer) => viewer.events !== false)) {
      records.forEach((rec, i) => {
        // Each distinct redacted event is serialized once, and its message once more for the viewers
        // it names the command of, for all the viewers who get it.
        const texts: EventTexts = new Map();
        if (rec.json !== undefined) texts.set(rec.event, { event: rec.json });
        for (const viewer of viewers) if (viewer.events !== false) viewer.sendText(eventText(this.eventMessage(t, rec, viewer.actor, statesAfter[i]!), texts));
      });
    }
    this.pushViews(t, viewers, statesAfter[statesAfter.length - 1], texts);
  }

  /**
   * After new events, each viewer gets its own view of the new state, so clients keep their state
   * from what is pushed instead of asking again. The view is built once per audience (the domain's
   * `audience`; without it, per role and participant): viewers the domain says see the same view
   * share it, its comparison with the view they hold, and the text of the changes.
   */
  private pushViews(t: LoadedTable<S>, viewers: Viewer[], state: S | undefined, texts: KnownTexts = new Map()): void {
    if (state === undefined || viewers.length === 0) return;
    const version = t.version;
    const views = new Map<unknown, BuiltView | null>();
    // The changes serialized so far, whoever they were for: viewers of different views whose views
    // changed in the same way (a new log entry all of them see, the new version) share one text.
    const made: Array<{ base: number; diff: NonNullable<ReturnType<typeof diffState>>; text: string }> = [];
    for (const viewer of viewers) {
      // A viewer whose audience cannot be told shares its view with no one (it is its own key).
      const key: unknown = this.audienceOf(t, state, viewer.actor) ?? viewer;
      let built = views.get(key);
      if (built === undefined) {
        built = null;
        try {
          built = { view: t.decider.viewState(state, viewer.actor), full: null, patchBase: undefined, patch: null, patches: null };
        } catch (error) {
          this.log.error({ err: error, tableId: t.record.id }, 'viewState failed; the viewer asks for the state instead');
        }
        views.set(key, built);
      }
      if (built === null) {
        this.sentViews.delete(viewer);
        continue;
      }
      // Viewers holding the same earlier view (all of one participant's connections, as a rule)
      // share one serialization of the changes.
      const base = this.sentViews.get(viewer);
      let text: string | null = null;
      if (base && base.version < version) {
        text = built.patchBase === base.view ? built.patch : (built.patches?.get(base.view) ?? null);
        if (text === null) {
          const diff = diffState(base.view, built.view);
          if (diff) {
            for (const m of made) {
              if (m.base === base.version && sameDiff(m.diff, diff)) {
                text = m.text;
                break;
              }
            }
            if (text === null) {
              text = statePatchText(version, base.version, diff, texts);
              made.push({ base: base.version, diff, text });
            }
            // As a rule all the viewers of one view held the same view before: one field for it, a map for the others.
            if (built.patch === null) {
              built.patchBase = base.view;
              built.patch = text;
            } else (built.patches ??= new Map()).set(base.view, text);
          }
        }
      }
      text ??= built.full ??= JSON.stringify({ type: 'state', version, state: built.view } satisfies ServerMessage);
      viewer.sendText(text);
      // The viewer's record is updated where it is: no new object per viewer and command to outlive the turn.
      if (base) {
        base.version = version;
        base.view = built.view;
      } else this.sentViews.set(viewer, { version, view: built.view });
    }
  }

  /** Tells every viewer of one participant who joined or left (a change, not the whole list). */
  private broadcastParticipantChange(t: LoadedTable<S>, message: ServerMessage): void {
    const text = JSON.stringify(message);
    for (const viewer of t.viewers) if (viewer.open) viewer.sendText(text);
  }

  // ----- commands -----

  /** Executes one command from an authenticated WebSocket viewer. */
  async commandFromViewer(tableId: string, viewer: Viewer, envelope: CommandEnvelope): Promise<Outcome<AckMessage>> {
    if (this.closing) return failure('shutting_down', 'the server is shutting down', { commandId: envelope.commandId });
    const t = await this.get(tableId);
    if (!t) return failure('table_not_found', `no table "${tableId}"`);
    return this.run(t, async () => {
      if (!viewer.open) return failure('unauthorized', 'access was revoked', { commandId: envelope.commandId });
      return this.execute(t, viewer.actor, envelope);
    });
  }

  /** Executes one command sent over HTTP with a bearer token. */
  command(tableId: string, token: string | undefined, envelope: CommandEnvelope): Promise<Outcome<AckMessage>> {
    return this.withCaller(tableId, token, async (caller, t) => this.execute(t, caller.actor, envelope));
  }

  private async execute(t: LoadedTable<S>, actor: Actor, envelope: CommandEnvelope): Promise<Outcome<AckMessage>> {
    const { commandId } = envelope;
    const fail = (code: string, message: string, extra: Partial<ErrorBody> = {}, status?: number) =>
      failure(code, message, { commandId, ...extra }, status);
    if (this.closing) return fail('shutting_down', 'the server is shutting down');
    if (actor.role === 'observer') return fail('forbidden', 'observers can watch the table but not change it');
    const participant = t.participants.get(actor.participantId);
    if (!participant || participant.removedAt !== null) return fail('unauthorized', 'you are no longer at this table');
    if (!t.commands.take()) {
      return fail('rate_limited', `this table accepts at most ${this.tableCommandRate.perSecond} commands per second`, {
        retryAfterMs: t.commands.retryAfterMs(),
      });
    }

    const commandHash = sha256Hex(canonicalJson({ command: envelope.command, dice: envelope.dice ?? null }));
    // The answer for a commandId that was applied before: its original ack, or a refusal if the id
    // now names a different command.
    const earlier = async (): Promise<Outcome<AckMessage> | null> => {
      const previous = await this.store.getCommand(t.record.id, actor.participantId, commandId);
      if (!previous) return null;
      if (previous.commandHash !== commandHash) {
        return fail('command_id_reused', `commandId "${commandId}" was already used for a different command`);
      }
      return { ok: true, value: ackFor(previous, true) };
    };
    // A retry usually succeeds or fails the same way the first attempt did, so the store is asked
    // about earlier attempts only when the command is refused (here) or turns out to be a duplicate
    // while being stored (below): the common path costs no extra read.
    const started = Date.now();
    // The actor may have been removed while the command waited to be decided again.
    const gone = (): Failure | null => {
      const still = t.participants.get(actor.participantId);
      return !still || still.removedAt !== null ? fail('unauthorized', 'you are no longer at this table') : null;
    };
    const decideRecord = (): Outcome<Decision<S>> => {
      const decided = this.decide(t, actor, envelope, fail);
      if (!decided.ok) return decided;
      const { records, now } = decided.value;
      const command: CommandRecord = {
        participantId: actor.participantId,
        commandId,
        commandHash,
        firstSeq: records.length ? t.version + 1 : null,
        lastSeq: records.length ? t.version + records.length : null,
        versionAfter: t.version + records.length,
        at: now,
      };
      return { ok: true, value: { ...decided.value, command } };
    };
    for (let attempt = 1; ; attempt++) {
      // After a lost race the command is decided again while holding the table's row, so that no
      // other node can overtake it again (issue 14: writers racing on one table), as long as few
      // rows are held here at once; otherwise it catches up and races again.
      const holdRow = attempt > 1 && this.fanout !== null && this.rowsHeld < MAX_ROWS_HELD;
      let appended: AppendResult | null;
      const held: { decision?: Outcome<Decision<S>>; left?: Failure } = {};
      try {
        if (holdRow) {
          this.rowsHeld++;
          try {
            appended = await this.fanout!.appendLocked(t.record.id, t.version, async (missed) => {
              await this.applyFromStore(t, true, missed);
              const left = gone();
              if (left) {
                held.left = left;
                return null;
              }
              held.decision = decideRecord();
              if (!held.decision.ok) return null;
              t.appending = held.decision.value.command.versionAfter;
              return { events: held.decision.value.records, command: held.decision.value.command };
            });
          } finally {
            this.rowsHeld--;
          }
        } else {
          held.decision = decideRecord();
          if (!held.decision.ok) return (await earlier()) ?? held.decision;
          t.appending = held.decision.value.command.versionAfter;
          appended = await this.store.appendEvents(t.record.id, t.version, held.decision.value.records, held.decision.value.command);
        }
      } catch (error) {
        // The transaction may or may not have committed: catch up from the store before the next step.
        this.catchUp(t);
        this.log.error({ err: error, tableId: t.record.id }, 'appending events failed');
        return fail('internal_error', 'the command could not be stored; retry it with the same commandId');
      } finally {
        t.appending = null;
      }
      if (appended === null) {
        if (held.left) return held.left;
        const refused = held.decision as Failure;
        return (await earlier()) ?? refused;
      }
      if (appended.ok) {
        const { records, statesAfter, state, command, texts } = (held.decision as { value: Decision<S> }).value;
        if (attempt > 1) this.raced(t, attempt - 1, started, 'stored');
        return { ok: true, value: this.applied(t, records, statesAfter, state, command, texts) };
      }
      if (appended.reason === 'duplicate_command') {
        const answer = await earlier();
        if (answer) return answer;
      }
      t.stale = true;
      // Another node appended to this table first (or, holding the row, it was not had in time). A
      // command that named the version it was meant for is refused; any other is decided again,
      // with fresh dice, against the events it missed.
      if (envelope.expectedVersion !== undefined || attempt >= MAX_APPEND_TRIES || Date.now() - started >= APPEND_RETRY_MS) {
        // The viewers still get the events that won, whose notice this append's turn passed over.
        this.catchUp(t);
        this.raced(t, attempt, started, 'conflict');
        return fail('conflict', 'the table changed while the command was being stored; retry it', { currentVersion: t.version });
      }
      // The next attempt holds the row and catches up there, unless rows are not free to hold.
      if (this.fanout !== null && this.rowsHeld < MAX_ROWS_HELD && !holdRow) continue;
      await sleep(Math.random() * Math.min(200, 5 * 2 ** attempt));
      try {
        await this.applyFromStore(t, true);
      } catch (error) {
        this.log.error({ err: error, tableId: t.record.id }, 'reading events failed');
        return fail('internal_error', 'the command could not be stored; retry it with the same commandId');
      }
      const left = gone();
      if (left) return left;
    }
  }

  /** One line per command that lost the race for its table's next version at least once (bench/cluster.ts counts them). */
  private raced(t: LoadedTable<S>, lost: number, started: number, outcome: 'stored' | 'conflict'): void {
    this.log.info({ tableId: t.record.id, lost, ms: Date.now() - started, outcome }, 'append raced');
  }

  /** Takes an appended command's events into the memory and sends them to the viewers. */
  private applied(t: LoadedTable<S>, records: EventRecord[], statesAfter: S[], state: S, command: CommandRecord, texts: KnownTexts): AckMessage {
    t.state = state;
    t.version += records.length;
    t.record = { ...t.record, version: t.version };
    records.forEach((rec, i) => {
      if (rec.seq % this.checkpointEvery === 0) t.checkpoints.set(rec.seq, statesAfter[i]!);
      remember(t, rec, statesAfter[i]!);
    });
    this.broadcast(t, records, statesAfter, texts);
    return ackFor(command, false);
  }

  /** Checks and decides a command against the current state, without storing anything. */
  private decide(
    t: LoadedTable<S>,
    actor: Actor,
    envelope: CommandEnvelope,
    fail: (code: string, message: string, extra?: Partial<ErrorBody>, status?: number) => Failure,
  ): Outcome<{ records: EventRecord[]; statesAfter: S[]; state: S; now: string; texts: KnownTexts }> {
    if (envelope.expectedVersion !== undefined && envelope.expectedVersion !== t.version) {
      return fail('conflict', `the table is at version ${t.version}, not ${envelope.expectedVersion}`, {
        currentVersion: t.version,
      });
    }
    const parsed = t.decider.parseCommand(envelope.command);
    if (!parsed.ok) {
      const { code, message, field } = parsed.error;
      return fail(code, message, field === undefined ? {} : { field: `command.${field}`.replace(/\.$/, '') }, statusFor(code, 'parse'));
    }

    // The one way physical dice enter: the envelope's named pools; the ruleset checks whose they are.
    const dice = poolDice(envelope.dice ?? {}, this.dice);
    const now = new Date().toISOString();
    let events: E[];
    try {
      events = t.decider.decide(t.state, parsed.command, { actor, dice, now, settings: t.record.settings, participants: presentIds(t), limits: this.limits });
      dice.finish();
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal) {
        const { code, message, ...where } = refusal;
        return fail(code, message, where, statusFor(code, 'decide'));
      }
      this.log.error({ err: error, tableId: t.record.id }, 'decide failed');
      return fail('internal_error', 'the command could not be processed');
    }

    const statesAfter: S[] = [];
    let state = t.state;
    try {
      if (!Array.isArray(events)) throw new TypeError('decide did not return an array');
      const texts: KnownTexts = new Map();
      const records: EventRecord[] = events.map((event, i) => {
        // Serialized once: the store writes this text and viewers receive it, and the texts of its
        // parts (a roll's result) go into the views' log entries that hold them. The state in memory
        // must be the one folded from the stored copy, so an event that would not read back equal
        // from its text is replaced by its copy read back.
        const json = jsonWith(event, texts, true);
        if (json === undefined) throw new TypeError('an event is not JSON');
        const kept = survivesJson(event) ? event : (JSON.parse(json) as unknown);
        return { seq: t.version + 1 + i, at: now, participantId: actor.participantId, commandId: envelope.commandId, event: kept, json };
      });
      for (const rec of records) {
        state = t.decider.evolve(state, rec.event as E);
        statesAfter.push(state);
      }
      return { ok: true, value: { records, statesAfter, state, now, texts } };
    } catch (error) {
      this.log.error({ err: error, tableId: t.record.id }, 'the domain produced an event it cannot apply');
      return fail('internal_error', 'the command could not be processed');
    }
  }

  // ----- participants and links -----

  /** Adds a player through the invite link. */
  async join(tableId: string, invite: string, displayName: string) {
    if (this.closing) return failure('shutting_down', 'the server is shutting down');
    const t = await this.get(tableId);
    if (!t) return failure('table_not_found', `no table "${tableId}"`);
    return this.run(t, async (): Promise<Outcome<{ participant: ParticipantRecord; token: string }>> => {
      let present = 0;
      for (const p of t.participants.values()) if (p.removedAt === null) present++;
      if (present >= this.maxParticipants) {
        return failure('table_full', `this table already has ${present} participants, the most it holds`);
      }
      const participant: ParticipantRecord = {
        id: newId('p_'),
        role: 'player',
        displayName,
        joinedAt: new Date().toISOString(),
        removedAt: null,
      };
      const token = newToken('player');
      if (!(await this.store.joinWithInvite(tableId, hashToken(invite), participant, hashToken(token)))) {
        return failure('unauthorized', 'the invite link is not valid (it may have been replaced)');
      }
      t.participants.set(participant.id, participant);
      this.broadcastParticipantChange(t, {
        type: 'participant-joined',
        participant: { id: participant.id, role: participant.role, displayName: participant.displayName },
      });
      return { ok: true, value: { participant, token } };
    });
  }

  /** The GM removes a player: their token stops working and their connections close now. */
  remove(tableId: string, token: string | undefined, participantId: string) {
    return this.withCaller(tableId, token, async (caller, t): Promise<Outcome<{ removed: true }>> => {
      if (caller.actor.role !== 'gm') return failure('forbidden', 'only the GM can remove participants');
      const target = t.participants.get(participantId);
      if (!target || target.removedAt !== null) return failure('participant_not_found', `no participant "${participantId}" at this table`);
      if (target.role === 'gm') return failure('cannot_remove_gm', 'the GM cannot be removed');
      const at = new Date().toISOString();
      if (!(await this.store.removeParticipant(tableId, participantId, at))) {
        return failure('participant_not_found', `no participant "${participantId}" at this table`);
      }
      t.participants.set(participantId, { ...target, removedAt: at });
      t.credentialChanges++;
      for (const viewer of t.viewers) {
        if (viewer.actor.participantId === participantId) {
          viewer.close(CLOSE.revoked, 'removed from the table');
          t.viewers.delete(viewer);
        }
      }
      this.broadcastParticipantChange(t, { type: 'participant-left', participantId });
      return { ok: true, value: { removed: true } };
    });
  }

  /** The GM replaces the invite, observer or GM link; connections that used the old one close. */
  rotate(tableId: string, token: string | undefined, kind: LinkKind | 'gm') {
    return this.withCaller(tableId, token, async (caller, t): Promise<Outcome<{ token: string }>> => {
      if (caller.actor.role !== 'gm') return failure('forbidden', 'only the GM can replace links');
      const fresh = newToken(kind === 'gm' ? 'gm' : kind);
      if (kind === 'gm') await this.store.setParticipantToken(tableId, caller.actor.participantId, hashToken(fresh));
      else await this.store.rotateLink(tableId, kind, hashToken(fresh));
      t.credentialChanges++;
      const affected = (v: Viewer) =>
        kind === 'observer' ? v.actor.role === 'observer' : kind === 'gm' && v.actor.participantId === caller.actor.participantId;
      for (const viewer of t.viewers) {
        if (affected(viewer)) {
          viewer.close(CLOSE.revoked, `the ${kind} link was replaced`);
          t.viewers.delete(viewer);
        }
      }
      return { ok: true, value: { token: fresh } };
    });
  }

  // ----- settings -----

  /**
   * The GM changes the table's settings. Every connected viewer gets the new settings at once;
   * commands after this one are checked against them.
   */
  updateSettings(tableId: string, token: string | undefined, patch: Partial<TableSettings>) {
    return this.withCaller(tableId, token, async (caller, t): Promise<Outcome<{ settings: TableSettings }>> => {
      if (caller.actor.role !== 'gm') return failure('forbidden', "only the GM can change the table's settings");
      const settings: TableSettings = { ...t.record.settings, ...patch };
      if (sameSettings(settings, t.record.settings)) return { ok: true, value: { settings } };
      const setupChanged = !sameSetup(settings, t.record.settings);
      if (setupChanged) {
        // The ruleset's preset and options shape how every event is folded, so they are chosen
        // before play; afterwards a ruleset changes its options through its own logged commands.
        if (t.version > 0) {
          const field = patch.preset !== undefined ? 'preset' : 'options';
          return failure('setup_fixed', `${field}: the preset and options are fixed once the table has events (it has ${t.version}); change options with the ruleset's own commands`, { field });
        }
        const checked = this.domains.check(t.record.ruleset, setupOf(settings));
        if (!checked.ok) return failure('invalid_setup', checked.message, { field: checked.field });
      }
      if (!(await this.store.setSettings(tableId, settings))) return failure('table_not_found', `no table "${tableId}"`);
      t.record = { ...t.record, settings };
      if (setupChanged) this.resetDomain(t);
      const message: ServerMessage = { type: 'settings', settings };
      const text = JSON.stringify(message);
      for (const viewer of t.viewers) if (viewer.open) viewer.sendText(text);
      return { ok: true, value: { settings } };
    });
  }

  /**
   * Builds the table's domain again after its preset or options changed (only while it has no
   * events) and sends every viewer the new view.
   */
  private resetDomain(t: LoadedTable<S>): void {
    if (t.version > 0) {
      this.log.warn({ tableId: t.record.id, version: t.version }, 'the setup changed on a table with events; the new setup applies after a reload');
      return;
    }
    t.decider = this.domains.decider(t.record.ruleset, setupOf(t.record.settings));
    t.state = t.decider.initialState() as S;
    t.checkpoints = new Map([[0, t.state]]);
    t.recent = [];
    const viewers = [...t.viewers].filter((v) => v.open);
    this.pushViews(t, viewers, t.state);
  }

  // ----- portraits -----

  /** What the caller may do with a character's portrait, as the table's domain says. */
  private portraitAccess(t: LoadedTable<S>, characterId: string, actor: Actor): Outcome<'edit' | 'see'> {
    const access = t.decider.characterAccess;
    if (!access) return failure('not_supported', `the ${t.record.ruleset} ruleset's characters have no portraits`, { field: 'characterId' }, 404);
    const may = access(t.state, characterId, actor);
    // A hidden character is answered as one that does not exist.
    if (!may) return failure('not_found', `no character "${characterId}" at this table`, { field: 'characterId' });
    return { ok: true, value: may };
  }

  /** The digest of every portrait the caller may see, by character id. */
  portraits(tableId: string, token: string | undefined) {
    return this.withCaller(tableId, token, async (caller, t): Promise<Outcome<{ portraits: Record<string, string> }>> => {
      const all = t.decider.characterAccess ? await this.store.listPortraits(tableId) : {};
      const portraits = Object.fromEntries(Object.entries(all).filter(([id]) => this.portraitAccess(t, id, caller.actor).ok));
      return { ok: true, value: { portraits } };
    });
  }

  portrait(tableId: string, token: string | undefined, characterId: string) {
    return this.withCaller(tableId, token, async (caller, t): Promise<Outcome<Portrait>> => {
      const may = this.portraitAccess(t, characterId, caller.actor);
      if (!may.ok) return may;
      const portrait = await this.store.getPortrait(tableId, characterId);
      return portrait ? { ok: true, value: portrait } : failure('not_found', `character "${characterId}" has no uploaded portrait`, { field: 'characterId' });
    });
  }

  /**
   * The character's owner or the GM sets its portrait (null removes it). Every connected viewer who
   * may see the character hears of it at once.
   */
  setPortrait(tableId: string, token: string | undefined, characterId: string, portrait: Portrait | null) {
    return this.withCaller(tableId, token, async (caller, t): Promise<Outcome<{ characterId: string; digest: string | null }>> => {
      const may = this.portraitAccess(t, characterId, caller.actor);
      if (!may.ok) return may;
      if (may.value !== 'edit') return failure('forbidden', `only the GM or the player of character "${characterId}" may change its portrait`, { field: 'characterId' });
      if (!(await this.store.setPortrait(tableId, characterId, portrait))) return failure('table_not_found', `no table "${tableId}"`);
      const digest = portrait?.digest ?? null;
      const text = JSON.stringify({ type: 'portrait', characterId, digest } satisfies ServerMessage);
      for (const viewer of t.viewers) if (viewer.open && this.portraitAccess(t, characterId, viewer.actor).ok) viewer.sendText(text);
      return { ok: true, value: { characterId, digest } };
    });
  }

  // ----- export -----

  /** Every event of the table as stored, oldest first, up to its version now. */
  private async wholeLog(tableId: string, version: number): Promise<EventRecord[]> {
    const events: EventRecord[] = [];
    let seq = 0;
    while (seq < version) {
      const page = await this.store.readEvents(tableId, seq, Math.min(PAGE, version - seq));
      if (page.length === 0) break;
      events.push(...page);
      seq = page[page.length - 1]!.seq;
    }
    return events;
  }

  /**
   * The table's recorded decisions for the GM's re-judge under other rules: its ruleset and setup, and
   * every event as decided, with the dice it carries. Read only; refused to anyone but the GM, since the
   * events hold what players and observers are not shown.
   */
  decisions(tableId: string, token: string | undefined) {
    return this.withCaller(tableId, token, async (caller, t) => {
      if (caller.actor.role !== 'gm') return failure('forbidden', "only the GM can read the table's recorded decisions");
      const events = await this.wholeLog(tableId, t.version);
      return {
        ok: true as const,
        value: {
          kind: 'decisions' as const,
          ruleset: t.record.ruleset,
          setup: setupOf(t.record.settings),
          version: t.version,
          events: events.map((e) => ({ seq: e.seq, event: e.event })),
        },
      };
    });
  }

  /** The whole log for the GM; for anyone else only what they may see. */
  exportEvents(tableId: string, token: string | undefined) {
    return this.withCaller(tableId, token, async (caller, t) => {
      const events: ExportedEvent[] = [];
      const full = caller.actor.role === 'gm';
      if (full) {
        events.push(...(await this.wholeLog(tableId, t.version)));
      } else {
        await this.replay(t, 0, t.version, (rec, after) => {
          const message = this.eventMessage(t, rec, caller.actor, after);
          events.push({
            seq: rec.seq,
            at: message.event === null ? null : rec.at,
            participantId: message.event === null ? null : rec.participantId,
            commandId: message.event === null || rec.participantId !== caller.actor.participantId ? null : rec.commandId,
            event: message.event,
          });
        });
      }
      return {
        ok: true as const,
        value: {
          table: { ...t.record, version: t.version },
          participants: [...t.participants.values()],
          events,
          // Portraits of the characters the caller may see (all of them for the GM); none where the ruleset has none.
          portraits: t.decider.characterAccess ? await exportPortraits(this.store, tableId, (id) => this.portraitAccess(t, id, caller.actor).ok) : {},
          redactedFor: full ? null : caller.actor,
        },
      };
    });
  }

  // ----- several nodes on one database -----

  /**
   * Serves tables together with the other nodes that use the same store: listens for their notices
   * and, every `checkMs` and whenever the listening connection is new, compares the tables served
   * here with the store to catch up on notices that were lost.
   */
  async joinCluster(fanout: Fanout, checkMs: number): Promise<void> {
    if (this.fanout) throw new Error('already serving with other nodes');
    this.fanout = fanout;
    this.stopListening = await fanout.listen({
      wake: (wake) => this.onWake(wake),
      reconnected: () => void this.checkTables('reconnected'),
    });
    this.checkTimer = setInterval(() => void this.checkTables('periodic'), checkMs);
    this.checkTimer.unref();
  }

  private onWake(wake: TableWake): void {
    const t = this.served.get(wake.tableId);
    if (!t) {
      if (!this.loaded.has(wake.tableId)) return;
      const early = this.announcedWhileLoading.get(wake.tableId) ?? { version: 0, setupVersion: 0 };
      if (wake.kind === 'events') early.version = Math.max(early.version, wake.version);
      else early.setupVersion = Math.max(early.setupVersion, wake.version);
      this.announcedWhileLoading.set(wake.tableId, early);
      return;
    }
    if (wake.kind === 'events') {
      t.announced = Math.max(t.announced, wake.version);
      // The notice of this node's own append often comes before the append's answer.
      if (wake.version > t.version && !(t.appending !== null && wake.version <= t.appending)) this.catchUp(t);
    } else if (wake.version > t.setupVersion) {
      void this.refreshSetup(t, wake.version);
    }
  }

  /**
   * Marks the table behind the store. With viewers it catches up now (sending them the new events);
   * without, the next operation on it does.
   */
  private catchUp(t: LoadedTable<S>): void {
    t.stale = true;
    if (t.viewers.size === 0 || t.catchUpQueued) return;
    t.catchUpQueued = true;
    this.run(t, async () => {
      t.catchUpQueued = false;
    }).catch((error: unknown) => {
      t.catchUpQueued = false;
      this.log.warn({ err: error, tableId: t.record.id }, 'catching up from the store failed');
    });
  }

  /**
   * Reads the participants and settings again after another node changed them; viewers whose token
   * no longer authenticates (removed, or their link replaced) are disconnected.
   */
  private refreshSetup(t: LoadedTable<S>, setupVersion: number): Promise<void> {
    return this.run(t, async () => {
      if (setupVersion <= t.setupVersion) return;
      const [record, participants] = await Promise.all([this.store.getTable(t.record.id), this.store.listParticipants(t.record.id)]);
      if (!record) return;
      t.setupVersion = setupVersion;
      t.credentialChanges++;
      if (!sameSettings(record.settings, t.record.settings)) {
        const setupChanged = !sameSetup(record.settings, t.record.settings);
        t.record = { ...t.record, settings: record.settings };
        if (setupChanged) this.resetDomain(t);
        const text = JSON.stringify({ type: 'settings', settings: record.settings } satisfies ServerMessage);
        for (const viewer of t.viewers) if (viewer.open) viewer.sendText(text);
      }
      const before = new Map(participantViews(t).map((p) => [p.id, p]));
      t.participants = new Map(participants.map((p) => [p.id, p]));
      const after = participantViews(t);
      for (const p of after) if (!before.has(p.id)) this.broadcastParticipantChange(t, { type: 'participant-joined', participant: p });
      for (const id of before.keys()) {
        if (!after.some((p) => p.id === id)) this.broadcastParticipantChange(t, { type: 'participant-left', participantId: id });
      }
      const open = [...t.viewers].filter((viewer) => viewer.open);
      const valid = await Promise.all(open.map((viewer) => t.tokens.get(viewer.tokenHash)));
      open.forEach((viewer, i) => {
        if (valid[i]) return;
        viewer.close(CLOSE.revoked, 'access was revoked');
        t.viewers.delete(viewer);
      });
    }).catch((error: unknown) => {
      this.log.warn({ err: error, tableId: t.record.id }, 'reading the table setup failed');
    });
  }

  /** Compares every table served here with the store and catches up where notices were missed. */
  checkTables(reason: 'periodic' | 'reconnected'): Promise<void> {
    if (!this.fanout || this.closing) return Promise.resolve();
    if (this.checking) {
      this.checkAgain = true;
      return this.checking;
    }
    const fanout = this.fanout;
    this.checking = (async () => {
      do {
        this.checkAgain = false;
        try {
          if (this.served.size === 0) continue;
          const known = new Map([...this.served].map(([id, t]) => [id, { version: t.version, setupVersion: t.setupVersion }]));
          const marks = await fanout.behind(known);
          const behind: Array<Promise<number>> = [];
          for (const [id, m] of marks) {
            const t = this.served.get(id);
            if (!t) continue;
            if (m.setupVersion > t.setupVersion) void this.refreshSetup(t, m.setupVersion);
            if (m.version <= t.version) continue;
            t.announced = Math.max(t.announced, m.version);
            if (t.viewers.size === 0) {
              t.stale = true;
              continue;
            }
            // A catch-up already waiting in the table's queue reads up to the store's version.
            if (t.catchUpQueued) continue;
            t.catchUpQueued = true;
            behind.push(
              this.run(t, async () => {
                t.catchUpQueued = false;
                // A notice's catch-up may have come first.
                if (t.version >= m.version) return 0;
                const first = await this.applyFromStore(t, true);
                return first ? Date.now() - Date.parse(first.at) : 0;
              }).catch(() => {
                t.catchUpQueued = false;
                return 0;
              }),
            );
          }
          // The next check does not wait for these: a table with a long queue must not hold back
          // finding the others behind.
          if (behind.length > 0) {
            const tables = behind.length;
            void Promise.all(behind).then((lags) => this.log.info({ reason, tables, maxLagMs: Math.max(...lags) }, 'caught up on missed notices'));
          }
        } catch (error) {
          this.log.warn({ err: error, reason }, 'checking tables against the store failed');
        }
      } while (this.checkAgain && !this.closing);
    })().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  // ----- lifecycle -----

  /** Forgets tables that nobody watches and nothing waits on. */
  sweep(now = Date.now()): void {
    for (const [id, entry] of this.loaded) {
      void entry.then((t) => {
        if (t && t.viewers.size === 0 && t.pending === 0 && now - t.lastUsed > this.idleMs && this.loaded.get(id) === entry) {
          this.loaded.delete(id);
          this.served.delete(id);
        }
      });
    }
  }

  /** Refuses new work and waits until every queued operation has finished. */
  async drain(): Promise<void> {
    this.closing = true;
    if (this.checkTimer) clearInterval(this.checkTimer);
    await this.checking;
    for (;;) {
      const tables = (await Promise.all([...this.loaded.values()].map((p) => p.catch(() => null)))).filter(
        (t): t is LoadedTable<S> => t !== null,
      );
      const busy = tables.filter((t) => t.pending > 0);
      if (busy.length === 0) return;
      await Promise.all(busy.map((t) => t.tail));
    }
  }

  /** Stops listening to the other nodes (after `drain`). */
  async leaveCluster(): Promise<void> {
    if (this.checkTimer) clearInterval(this.checkTimer);
    await this.stopListening?.();
    this.stopListening = null;
  }

  get isClosing(): boolean {
    return this.closing;
  }
}

function ackFor(command: CommandRecord, duplicate: boolean): AckMessage {
  return {
    type: 'ack',
    commandId: command.commandId,
    firstSeq: command.firstSeq,
    lastSeq: command.lastSeq,
    version: command.versionAfter,
    ...(duplicate ? { duplicate: true as const } : {}),
  };
}

function sameSettings(a: TableSettings, b: TableSettings): boolean {
  return a.physicalDice === b.physicalDice && sameSetup(a, b);
}

function sameSetup(a: TableSettings, b: TableSettings): boolean {
  return a.preset === b.preset && canonicalJson(a.options ?? {}) === canonicalJson(b.options ?? {});
}

function participantViews(t: LoadedTable<unknown>): ParticipantView[] {
  return [...t.participants.values()]
    .filter((p) => p.removedAt === null)
    .map((p) => ({ id: p.id, role: p.role, displayName: p.displayName }));
}

function presentIds(t: LoadedTable<unknown>): Set<string> {
  const ids = new Set<string>();
  for (const p of t.participants.values()) if (p.removedAt === null) ids.add(p.id);
  return ids;
}

/**
 * The texts made for the viewers of one event record, by redacted event object: the event's JSON,
 * and the message without and with the command's id (the one sent to the viewers who sent it).
 */
/**
 * A view built for one audience in one turn: its whole text once asked for, and the texts of its
 * changes from the views its viewers held (the first in fields of its own, any other in a map).
 */
interface BuiltView {
  view: unknown;
  full: string | null;
  patchBase: unknown;
  patch: string | null;
  patches: Map<unknown, string> | null;
}

type EventTexts = Map<unknown, { event: string; plain?: string; own?: string }>;

/** An event message as JSON text, taken from `texts` or made and added there. */
function eventText(message: EventMessage, texts: EventTexts): string {
  if (message.event === null) return JSON.stringify(message);
  let known = texts.get(message.event);
  if (known === undefined) {
    known = { event: JSON.stringify(message.event) };
    texts.set(message.event, known);
  }
  const own = message.commandId !== undefined;
  const made = own ? known.own : known.plain;
  if (made !== undefined) return made;
  const commandId = own ? `,"commandId":${JSON.stringify(message.commandId)}` : '';
  const text = `{"type":"event","seq":${message.seq},"at":${JSON.stringify(message.at)},"event":${known.event}${commandId}}`;
  if (own) known.own = text;
  else known.plain = text;
  return text;
}

function remember<S>(t: LoadedTable<S>, rec: EventRecord, state: S): void {
  // The text decide made is not kept: the store and the viewers have had it.
  t.recent.push({ rec: rec.json === undefined ? rec : { seq: rec.seq, at: rec.at, participantId: rec.participantId, commandId: rec.commandId, event: rec.event }, state });
  if (t.recent.length > RECENT_EVENTS) t.recent.shift();
}
