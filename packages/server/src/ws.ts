import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { CLIENT_MESSAGE_TYPES, clientMessageSchema, describeZodError, type ClientMessage, type ServerMessage } from './protocol';
import { JsonInputError, parseClientJson } from './json';
import { TokenBucket, type KeyedBuckets, type RateLimit } from './rate-limit';
import { CLOSE, type Caller, type Logger, type TableHub, type Viewer } from './tables';

export interface WebSocketOptions {
  path: string;
  /** Largest message handled; bigger ones are refused with `message_too_large` (connection stays open). */
  maxMessageBytes: number;
  /** Largest frame accepted at all; a bigger one closes the connection (1009). */
  maxFrameBytes: number;
  /** Messages per connection, of any type. */
  rateLimit: RateLimit;
  /** The clock `rateLimit` refills by. */
  rateClock: () => number;
  /** Commands and state requests per token, across all its connections (and HTTP commands). */
  tokenRate: KeyedBuckets;
  /** Messages of one connection waiting to be handled; more are refused with `rate_limited`. */
  maxQueuedMessages: number;
  /** Greatest JSON nesting accepted. */
  maxJsonDepth: number;
  helloTimeoutMs: number;
  heartbeatMs: number;
  /** A connection with more unsent data than this is closed (4009); the client resumes with `since`. */
  maxBufferedBytes: number;
}

export interface WebSocketEndpoint {
  readonly connectionCount: number;
  /** Closes every connection with `code` and stops accepting new ones. */
  close(code: number, reason: string): Promise<void>;
}

/**
 * Connections whose socket holds this turn's messages (corked), written out together once the
 * event loop's current turn is done: a connection that receives an ack, events and a view in one
 * turn makes one system call for all of them instead of one per message.
 */
const corked: Connection[] = [];
let flushScheduled = false;
/**
 * This turn's texts as UTF-8 bytes: a text sent to several connections (a view's changes shared by
 * its audience) is encoded once, and the sockets write those bytes as they are.
 */
const bytesThisTurn = new Map<string, Buffer>();

function flushCorked(): void {
  flushScheduled = false;
  bytesThisTurn.clear();
  const batch = corked.splice(0);
  for (const conn of batch) conn.uncork();
}

class Connection {
  open = true;
  /** The socket is corked until the end of this turn of the event loop. */
  private holding = false;
  alive = true;
  helloStarted = false;
  tableId: string | null = null;
  viewer: Viewer | null = null;
  chain: Promise<void> = Promise.resolve();
  /** Messages accepted but not yet handled. */
  queued = 0;
  readonly bucket: TokenBucket;
  helloTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly ws: WebSocket,
    private readonly socket: Duplex,
    private readonly options: WebSocketOptions,
    private readonly log: Logger,
  ) {
    this.bucket = new TokenBucket(options.rateLimit, options.rateClock);
  }

  send(message: ServerMessage): void {
    this.sendText(JSON.stringify(message));
  }

  sendText(text: string): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    if (this.ws.bufferedAmount > this.options.maxBufferedBytes) {
      this.log.warn({ tableId: this.tableId }, 'closing a connection that does not keep up');
      this.close(CLOSE.slowConsumer, 'too much unsent data; reconnect with since');
      return;
    }
    if (!this.holding) {
      this.holding = true;
      this.socket.cork();
      corked.push(this);
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flushCorked);
      }
    }
    let bytes = bytesThisTurn.get(text);
    if (bytes === undefined) bytesThisTurn.set(text, (bytes = Buffer.from(text, 'utf8')));
    this.ws.send(bytes, { binary: false });
  }

  uncork(): void {
    if (!this.holding) return;
    this.holding = false;
    this.socket.uncork();
  }

  error(code: string, message: string, extra: { field?: string; commandId?: string; retryAfterMs?: number } = {}): void {
    this.send({ type: 'error', code, message, ...extra });
  }

  close(code: number, reason: string): void {
    this.open = false;
    if (this.helloTimer) clearTimeout(this.helloTimer);
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(code, reason);
  }

  makeViewer(caller: Caller, events: boolean): Viewer {
    const conn = this;
    const viewer: Viewer = {
      actor: caller.actor,
      tokenHash: caller.tokenHash,
      events,
      get open() {
        return conn.open && conn.ws.readyState === WebSocket.OPEN;
      },
      send: (message) => conn.send(message),
      sendText: (text) => conn.sendText(text),
      close: (code, reason) => conn.close(code, reason),
    };
    return viewer;
  }
}

function byteLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return data instanceof ArrayBuffer ? data.byteLength : data.length;
}

/**
 * The commandId of a message that is not read in full (too large, over the rate limit, not JSON),
 * found in its first bytes, so the refusal still names the command it answers.
 */
function peekCommandId(data: RawData): { commandId?: string } {
  const head = (Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data))
    .subarray(0, 4096)
    .toString('utf8');
  const match = /"commandId"\s*:\s*"([A-Za-z0-9._:-]{1,128})"/.exec(head);
  return match ? { commandId: match[1]! } : {};
}

function toText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/** The table WebSocket endpoint, sharing the HTTP server's port. */
export function attachWebSocket<S, C, E>(
  server: Server,
  hub: TableHub<S, C, E>,
  log: Logger,
  options: WebSocketOptions,
): WebSocketEndpoint {
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxFrameBytes, perMessageDeflate: false });
  const connections = new Set<Connection>();
  let accepting = true;

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== options.path || !accepting || hub.isClosing) {
      socket.end(`HTTP/1.1 ${path !== options.path ? '404 Not Found' : '503 Service Unavailable'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, socket));
  };
  server.on('upgrade', onUpgrade);

  const heartbeat = setInterval(() => {
    for (const conn of connections) {
      if (!conn.alive) {
        conn.ws.terminate();
        continue;
      }
      conn.alive = false;
      conn.ws.ping();
    }
  }, options.heartbeatMs);
  heartbeat.unref();

  function onConnection(ws: WebSocket, socket: Duplex): void {
    const conn = new Connection(ws, socket, options, log);
    connections.add(conn);
    conn.helloTimer = setTimeout(() => {
      if (!conn.viewer) conn.close(CLOSE.helloTimeout, 'no hello received in time');
    }, options.helloTimeoutMs);
    ws.on('pong', () => {
      conn.alive = true;
    });
    ws.on('error', (error) => {
      log.warn({ err: { message: error.message } }, 'websocket error');
    });
    ws.on('close', () => {
      conn.open = false;
      if (conn.helloTimer) clearTimeout(conn.helloTimer);
      connections.delete(conn);
      if (conn.viewer && conn.tableId) hub.unsubscribe(conn.tableId, conn.viewer);
    });
    ws.on('message', (data, isBinary) => onMessage(conn, data, isBinary));
  }

  function onMessage(conn: Connection, data: RawData, isBinary: boolean): void {
    if (!conn.open) return;
    if (!conn.bucket.take()) {
      conn.error('rate_limited', `more than ${options.rateLimit.perSecond} messages per second (burst ${options.rateLimit.burst}); slow down`, {
        ...peekCommandId(data),
        retryAfterMs: Math.max(1, conn.bucket.retryAfterMs()),
      });
      return;
    }
    if (conn.queued >= options.maxQueuedMessages) {
      conn.error('rate_limited', `${conn.queued} messages are still waiting to be handled; wait for their answers`, {
        ...peekCommandId(data),
        retryAfterMs: 250,
      });
      return;
    }
    const size = byteLength(data);
    if (size > options.maxMessageBytes) {
      conn.error('message_too_large', `a message may hold at most ${options.maxMessageBytes} bytes; this one has ${size}`, peekCommandId(data));
      return;
    }
    if (isBinary) {
      conn.error('invalid_message', 'send JSON in text frames', peekCommandId(data));
      return;
    }
    let raw: unknown;
    try {
      raw = parseClientJson(toText(data), options.maxJsonDepth);
    } catch (error) {
      const refusal = error instanceof JsonInputError ? error : new JsonInputError('bad_json', 'the message is not valid JSON');
      conn.error(refusal.code, refusal.message, {
        ...(refusal.field === undefined ? {} : { field: refusal.field }),
        ...peekCommandId(data),
      });
      return;
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      conn.error('invalid_message', 'a message is a JSON object with a "type"', { field: 'type' });
      return;
    }
    const record = raw as Record<string, unknown>;
    const commandId =
      typeof record.commandId === 'string' && record.commandId.length <= 128 ? { commandId: record.commandId } : {};
    if (!CLIENT_MESSAGE_TYPES.includes(record.type as (typeof CLIENT_MESSAGE_TYPES)[number])) {
      conn.error('unknown_message_type', `unknown message type; expected one of ${CLIENT_MESSAGE_TYPES.join(', ')}`, {
        field: 'type',
        ...commandId,
      });
      return;
    }
    const parsed = clientMessageSchema.safeParse(raw);
    if (!parsed.success) {
      const { message, field } = describeZodError(parsed.error);
      conn.error('invalid_message', message, { ...(field === undefined ? {} : { field }), ...commandId });
      return;
    }
    const message = parsed.data;
    if ((message.type === 'command' || message.type === 'state') && conn.viewer) {
      const wait = options.tokenRate.take(conn.viewer.tokenHash);
      if (wait > 0) {
        conn.error('rate_limited', `more than ${options.tokenRate.limit.perSecond} commands per second from this link; slow down`, {
          ...commandId,
          retryAfterMs: wait,
        });
        return;
      }
    }
    conn.queued++;
    conn.chain = conn.chain
      .then(() => handle(conn, message))
      .catch((error: unknown) => {
        log.error({ err: error }, 'handling a websocket message failed');
        conn.error('internal_error', 'the message could not be processed', commandId);
      })
      .finally(() => {
        conn.queued--;
      });
  }

  async function handle(conn: Connection, message: ClientMessage): Promise<void> {
    if (!conn.open) return;
    switch (message.type) {
      case 'ping':
        conn.send(message.id === undefined ? { type: 'pong' } : { type: 'pong', id: message.id });
        return;
      case 'hello': {
        if (conn.helloStarted) {
          conn.error('already_authenticated', 'this connection already said hello', { field: 'type' });
          return;
        }
        conn.helloStarted = true;
        // The hello came in time; loading the table and waiting for its turn may take longer on a
        // node that has just taken on the clients of one that went away.
        if (conn.helloTimer) clearTimeout(conn.helloTimer);
        const result = await hub.subscribe(message.tableId, message.token, message.since, (caller) => {
          conn.tableId = message.tableId;
          conn.viewer = conn.makeViewer(caller, message.events !== false);
          return conn.viewer;
        });
        if (!result.ok) {
          conn.viewer = null;
          conn.send(result.error);
          const code = result.error.code === 'shutting_down' ? CLOSE.goingAway : CLOSE.unauthorized;
          conn.close(code, result.error.code);
        }
        return;
      }
      case 'command': {
        if (!conn.viewer || !conn.tableId) {
          conn.error('not_authenticated', 'send hello first', { commandId: message.commandId });
          return;
        }
        const { type: _type, ...envelope } = message;
        const result = await hub.commandFromViewer(conn.tableId, conn.viewer, envelope);
        conn.send(result.ok ? result.value : result.error);
        return;
      }
      case 'state': {
        if (!conn.viewer || !conn.tableId) {
          conn.error('not_authenticated', 'send hello first');
          return;
        }
        const result = await hub.viewerState(conn.tableId, conn.viewer);
        if (!result.ok) conn.send(result.error);
        return;
      }
    }
  }

  return {
    get connectionCount() {
      return connections.size;
    },
    async close(code, reason) {
      accepting = false;
      server.off('upgrade', onUpgrade);
      clearInterval(heartbeat);
      const closed = [...connections].map(
        (conn) =>
          new Promise<void>((resolve) => {
            if (conn.ws.readyState === WebSocket.CLOSED) return resolve();
            const timer = setTimeout(() => {
              conn.ws.terminate();
              resolve();
            }, 2000);
            conn.ws.once('close', () => {
              clearTimeout(timer);
              resolve();
            });
            conn.close(code, reason);
          }),
      );
      await Promise.all(closed);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
