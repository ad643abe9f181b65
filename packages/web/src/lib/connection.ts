import type { ServerMessage, WelcomeMessage as Welcome } from '@personae/server/protocol';
import { applyStatePatch } from '@personae/server/state-patch';
import { ApiError, type Ack, type Participant, type TableSettings } from './api';
import { newCommandId } from './format';
import type { EnteredPools } from './rules';

/**
 * One participant's live link to a table: the WebSocket protocol of docs/server.md with automatic
 * reconnection. After a drop it says `hello` again with `since` = the last sequence number seen, so
 * the server sends exactly what was missed; commands still waiting for their acknowledgement are sent
 * again with the same commandId, which the server applies at most once.
 */

export type ConnectionStatus = 'connecting' | 'live' | 'reconnecting' | 'refused';

export type { EventMessage, WelcomeMessage as Welcome } from '@personae/server/protocol';

interface Pending {
  envelope: { type: 'command'; commandId: string; command: unknown; dice?: EnteredPools; expectedVersion?: number };
  resolve: (ack: Ack) => void;
  reject: (error: ApiError) => void;
  sent: boolean;
}

export interface ConnectionOptions {
  tableId: string;
  token: string;
  /** ws:// or wss:// address of the server's /ws endpoint; by default the page's own server. */
  url?: string;
  /** Called after every change of status, state, participants or log. */
  onChange: () => void;
}

const BACKOFF_MS = [200, 500, 1000, 2000, 3000, 5000];
const PING_EVERY_MS = 15_000;
const PONG_WITHIN_MS = 8_000;
/** Commands sent and not yet answered on one connection, at most (the server queues 16 a connection). */
const MAX_UNANSWERED = 8;

export class TableConnection {
  status: ConnectionStatus = 'connecting';
  /** The decider's view of the table for this participant. */
  state: unknown = null;
  /** The last sequence number seen. */
  lastSeq = 0;
  welcome: Welcome | null = null;
  participants: Participant[] = [];
  /** Portraits changed since the page opened, by character id: the new digest, or null when removed. */
  portraitChanges: Record<string, string | null> = {};
  /** Why the server refused the connection, or the last connection problem. */
  problem: string | null = null;
  /** How many times in a row a connection attempt has failed. */
  attempts = 0;
  /** How many times the connection came back after a drop. */
  reconnections = 0;

  private socket: WebSocket | null = null;
  private readonly pending = new Map<string, Pending>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private pongTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly retryTimers = new Set<ReturnType<typeof setTimeout>>();
  private stateRequested = false;
  private stateDirty = false;
  private stopped = false;
  /** The sequence number the current `state` is at. */
  private stateSeq = 0;
  private waiters: { seq: number; resolve: () => void }[] = [];
  private everLive = false;
  private readonly online = () => this.reconnectNow();

  constructor(private readonly options: ConnectionOptions) {}

  start(): void {
    this.stopped = false;
    window.addEventListener('online', this.online);
    this.open();
  }

  stop(): void {
    this.stopped = true;
    window.removeEventListener('online', this.online);
    this.clearTimers();
    const s = this.socket;
    this.socket = null;
    if (s && s.readyState <= WebSocket.OPEN) s.close(1000, 'page closed');
    for (const p of this.pending.values()) p.reject(new ApiError('closed', 'The page was closed before the server answered.', 0));
    this.pending.clear();
  }

  /**
   * Send a command; resolves with the acknowledgement once its events are stored. `expectedVersion`:
   * the table version the command was asked from (an undo); a table that has moved on refuses it
   * with `conflict` instead of applying it to what came since.
   */
  /** `dice`: physical dice typed in, by the named pool each fills ("actor", "target:orc-2"); the table rolls the rest. */
  send(command: unknown, dice?: EnteredPools, expectedVersion?: number): Promise<Ack> {
    const commandId = newCommandId();
    const envelope = {
      type: 'command' as const,
      commandId,
      command,
      ...(dice && Object.keys(dice).length ? { dice } : {}),
      ...(expectedVersion !== undefined ? { expectedVersion } : {}),
    };
    return new Promise<Ack>((resolve, reject) => {
      const p: Pending = { envelope, resolve, reject, sent: false };
      this.pending.set(commandId, p);
      this.flush();
    });
  }

  /** Resolves once the view of the state includes sequence number `seq`. */
  stateAt(seq: number | null): Promise<void> {
    if (seq === null || this.stateSeq >= seq) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ seq, resolve }));
  }

  /** The table's settings changed (told by the server, or answered to the GM's own change). */
  setSettings(settings: TableSettings): void {
    if (!this.welcome) return;
    this.welcome = { ...this.welcome, table: { ...this.welcome.table, settings } };
  }

  /** Commands sent but not yet acknowledged (they are sent again after a reconnect). */
  get waiting(): number {
    return this.pending.size;
  }

  private url(): string {
    if (this.options.url) return this.options.url;
    const { protocol, host } = window.location;
    return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}/ws`;
  }

  private open(): void {
    if (this.stopped) return;
    this.clearTimers();
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      // The app keeps its state from the pushed views alone: no event messages (each change comes once).
      const hello: Record<string, unknown> = { type: 'hello', tableId: this.options.tableId, token: this.options.token, events: false };
      if (this.everLive) hello.since = this.lastSeq;
      socket.send(JSON.stringify(hello));
    };
    socket.onmessage = (e) => {
      if (socket !== this.socket) return;
      let msg: ServerMessage;
      try {
        msg = JSON.parse(String(e.data)) as ServerMessage;
      } catch {
        return;
      }
      this.receive(msg);
    };
    socket.onclose = (e) => {
      if (socket !== this.socket) return;
      this.socket = null;
      this.clearTimers();
      for (const p of this.pending.values()) p.sent = false;
      if (e.code === 4001 || e.code === 4003) {
        this.status = 'refused';
        this.problem =
          e.code === 4003
            ? 'Your access to this table was withdrawn (the GM removed you or replaced this link).'
            : 'The server does not accept this link: the table does not exist or the link was replaced.';
        for (const p of this.pending.values()) p.reject(new ApiError('unauthorized', this.problem, 401));
        this.pending.clear();
        this.options.onChange();
        return;
      }
      this.scheduleReconnect();
    };
  }

  /** Give up on the current socket at once and start reconnecting. */
  private drop(): void {
    const s = this.socket;
    this.socket = null;
    this.clearTimers();
    for (const p of this.pending.values()) p.sent = false;
    if (s) {
      s.onclose = null;
      s.onmessage = null;
      try {
        s.close(4000, 'no answer');
      } catch {
        // already closed
      }
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    this.status = this.everLive ? 'reconnecting' : 'connecting';
    const delay = BACKOFF_MS[Math.min(this.attempts, BACKOFF_MS.length - 1)]!;
    this.attempts += 1;
    this.options.onChange();
    this.timer = setTimeout(() => this.open(), delay * (0.8 + Math.random() * 0.4));
  }

  /** Try again at once (the browser says it is back online, or the person asked). */
  reconnectNow(): void {
    if (this.stopped || this.status === 'live' || this.status === 'refused') return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const s = this.socket;
    if (s && s.readyState === WebSocket.CONNECTING) return;
    this.open();
  }

  private receive(msg: ServerMessage): void {
    switch (msg.type) {
      case 'welcome': {
        // Resumed (no state): the missed events follow, then the changes to the view since `since`.
        this.welcome = msg;
        this.participants = msg.participants;
        if (msg.state !== undefined) {
          this.state = msg.state;
          this.lastSeq = msg.version;
          this.stateSeq = msg.version;
          this.wake();
        }
        if (this.everLive) this.reconnections += 1;
        this.everLive = true;
        this.status = 'live';
        this.attempts = 0;
        this.problem = null;
        this.startPing();
        this.flush();
        break;
      }
      case 'event':
        // Not asked for (hello says events: false); an older server sends them before the view.
        this.lastSeq = Math.max(this.lastSeq, msg.seq);
        break;
      case 'state':
        this.stateRequested = false;
        if (msg.version >= this.stateSeq) {
          this.state = msg.state;
          this.stateSeq = msg.version;
          this.lastSeq = Math.max(this.lastSeq, msg.version);
          this.wake();
        }
        if (this.stateDirty) {
          this.stateDirty = false;
          this.requestState();
        }
        break;
      case 'state-patch':
        // The changes from the view this client holds; if it holds another one, it asks for the whole.
        if (msg.version <= this.stateSeq) break;
        if (this.state !== null && msg.base === this.stateSeq) {
          let next: unknown;
          try {
            next = applyStatePatch(this.state, msg);
          } catch {
            this.requestState();
            break;
          }
          this.state = next;
          this.stateSeq = msg.version;
          this.lastSeq = Math.max(this.lastSeq, msg.version);
          this.wake();
        } else {
          this.requestState();
        }
        break;
      case 'participant-joined':
        this.participants = [...this.participants.filter((p) => p.id !== msg.participant.id), msg.participant];
        break;
      case 'participant-left':
        this.participants = this.participants.filter((p) => p.id !== msg.participantId);
        break;
      case 'settings':
        this.setSettings(msg.settings);
        break;
      case 'portrait':
        this.portraitChanges = { ...this.portraitChanges, [msg.characterId]: msg.digest };
        break;
      case 'ack': {
        const p = this.pending.get(msg.commandId);
        if (p) {
          this.pending.delete(msg.commandId);
          p.resolve(msg);
          this.flush();
        }
        break;
      }
      case 'error': {
        const p = msg.commandId ? this.pending.get(msg.commandId) : undefined;
        if (msg.code === 'rate_limited') {
          // Over the server's limit: the same message goes again after the delay it names.
          const delay = Math.max(50, msg.retryAfterMs ?? 1000);
          if (p) {
            p.sent = false;
            this.later(delay, () => this.flush());
          } else if (this.stateRequested) {
            this.stateRequested = false;
            this.later(delay, () => this.requestState());
          }
          return;
        }
        if (p) {
          this.pending.delete(msg.commandId!);
          p.reject(new ApiError(msg.code, msg.message, 0, msg.field));
          this.flush();
        } else {
          this.problem = msg.message;
        }
        break;
      }
      case 'pong':
        if (this.pongTimer) clearTimeout(this.pongTimer);
        this.pongTimer = null;
        return;
    }
    this.options.onChange();
  }

  private wake(): void {
    const ready = this.waiters.filter((w) => w.seq <= this.stateSeq);
    this.waiters = this.waiters.filter((w) => w.seq > this.stateSeq);
    for (const w of ready) w.resolve();
  }

  /** Ask for the current view; events arriving meanwhile ask again once the answer is in. */
  private requestState(): void {
    if (this.stateRequested) {
      this.stateDirty = true;
      return;
    }
    const s = this.socket;
    if (!s || s.readyState !== WebSocket.OPEN) return;
    this.stateRequested = true;
    s.send(JSON.stringify({ type: 'state' }));
  }

  /** Runs `fn` after `ms`, unless the connection is stopped meanwhile. */
  private later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      if (!this.stopped) fn();
    }, ms);
    this.retryTimers.add(timer);
  }

  /**
   * Sends the commands not yet sent on this connection, oldest first, keeping at most
   * MAX_UNANSWERED of them waiting for an answer: after a long disconnection the backlog goes out
   * as answers come back, within the server's per-connection limits, instead of all at once.
   */
  private flush(): void {
    const s = this.socket;
    if (!s || s.readyState !== WebSocket.OPEN || this.status !== 'live') return;
    let waiting = 0;
    for (const p of this.pending.values()) if (p.sent) waiting++;
    for (const p of this.pending.values()) {
      if (waiting >= MAX_UNANSWERED) break;
      if (p.sent) continue;
      s.send(JSON.stringify(p.envelope));
      p.sent = true;
      waiting++;
    }
  }

  private startPing(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => {
      const s = this.socket;
      if (!s || s.readyState !== WebSocket.OPEN) return;
      s.send(JSON.stringify({ type: 'ping' }));
      if (this.pongTimer) return;
      this.pongTimer = setTimeout(() => {
        // No answer: the link is dead even if the browser has not noticed. Drop it and reconnect.
        this.pongTimer = null;
        if (s === this.socket) this.drop();
      }, PONG_WITHIN_MS);
    }, PING_EVERY_MS);
  }

  private clearTimers(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    if (this.pongTimer) clearTimeout(this.pongTimer);
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
    this.timer = null;
    this.pingTimer = null;
    this.pongTimer = null;
    this.stateRequested = false;
    this.stateDirty = false;
  }
}
