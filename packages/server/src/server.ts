import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import rateLimitPlugin from '@fastify/rate-limit';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { addAcceptHandles } from './accept';
import { startBackups, type Backups } from './backups';
import type { AnyDecider } from './domain';
import { buildExport, prepareImport } from './export';
import { checkImportInWorker } from './import-job';
import { textLogStream, type LogFormat } from './log-format';
import {
  createTableSchema,
  describeZodError,
  httpCommandSchema,
  invitationSchema,
  joinSchema,
  settingsPatchSchema,
  type CreatedTableBody,
  type ErrorBody,
  type JoinedBody,
} from './protocol';
import { JsonInputError, MAX_JSON_DEPTH, parseClientJson, parseClientJsonInSlices } from './json';
import { KeyedBuckets, type RateLimit } from './rate-limit';
import { findStaticFile, notModified, openStaticFile } from './static';
import { DEFAULT_RULESET, registryDomains, singleDomain, type TableDomains } from './rulesets';
import { openStore, type Store } from './store';
import { CLOSE, failure, HUB_DEFAULTS, TableHub, type Failure, type Outcome } from './tables';
import { checkPortrait, MAX_PORTRAIT_BYTES, portraitTooLarge } from './portraits';
import { loadSealer, sealerWithKey, type Sealer } from './sealed';
import { hashToken, newId, newToken } from './tokens';
import { attachWebSocket, type WebSocketEndpoint } from './ws';

export interface ServerConfig {
  /** TCP port; 0 picks a free one. Default 8080. */
  port?: number;
  /** Interface to listen on. Default 0.0.0.0 (every interface). */
  host?: string;
  /** Directory of the SQLite database when no `databaseUrl` is given, and of the link key (sealed.ts). Default ./data. */
  dataDir?: string;
  /**
   * Key sealing the invite links the GM may be shown again (base64 of 32 bytes; LINK_KEY). Without it
   * the key is the data directory's `link-key`, made on first use; nodes sharing one database need the
   * same key. A server given its store (and no data directory) keeps no invite to show again.
   */
  linkKey?: string;
  /** Minutes between the server's own backups of changed tables (0: none; default 60). See backups.ts. */
  backupEveryMinutes?: number;
  /** Backups kept per table (default 24). */
  backupKeep?: number;
  /** Where backups go (default DATA_DIR/backups). */
  backupDir?: string;
  /** PostgreSQL connection string; selects the PostgreSQL store. */
  databaseUrl?: string;
  /** PostgreSQL schema. Default "public". */
  databaseSchema?: string;
  /** application_name of the connection that listens for other nodes. Default "personae-listener". */
  databaseListenerName?: string;
  /** Where the listening connection connects, when not to `databaseUrl`. */
  databaseListenerUrl?: string;
  /** PostgreSQL: least milliseconds between two group commits (default 4; appends made between wait for the next). */
  databaseCommitSpacingMs?: number;
  /** PostgreSQL: 'append' (default), a notice per append; 'batch', one per group commit (see PostgresStoreOptions.notices). */
  databaseNotices?: 'append' | 'batch';
  /**
   * SQLite: 'full' (default) syncs the log to disk before a command is acknowledged, so it survives
   * a power loss; 'normal' survives a crash of the process but not of the machine.
   */
  sqliteSynchronous?: 'full' | 'normal';
  /** SQLite: least milliseconds between two group commits (default 4; writes made between wait for the next). */
  sqliteCommitSpacingMs?: number;
  /** A store to use instead of opening one from the settings above (the caller closes it). */
  store?: Store;
  /**
   * Serve tables together with other server processes on the same PostgreSQL database: listen for
   * their changes and pass them on to this node's clients. Default: on with PostgreSQL (SQLite serves
   * from one process only).
   */
  cluster?: boolean;
  /** With `cluster`: how often the tables served are compared with the database. Default 500 ms. */
  clusterCheckMs?: number;
  /** Serve the web app's files from this directory (optional). */
  staticDir?: string;
  /** Base of the links handed out (e.g. https://table.example.org); default: from the request's Host. */
  publicUrl?: string;
  /** Largest WebSocket message or HTTP body handled. Default 64 KiB. */
  maxMessageBytes?: number;
  /** Largest WebSocket frame accepted before the connection is closed. Default 1 MiB. */
  maxFrameBytes?: number;
  /** Largest import file. Default 32 MiB. */
  maxImportBytes?: number;
  /** Messages per WebSocket connection, of any type. Default burst 20, 10 per second. */
  rateLimit?: RateLimit;
  /**
   * Commands and state requests per token, across all its WebSocket connections and HTTP commands
   * together. Default burst 20, 10 per second.
   */
  commandRate?: RateLimit;
  /** Messages of one connection waiting to be handled before more are refused. Default 16. */
  maxQueuedMessages?: number;
  /** Deepest JSON nesting accepted in a body or message. Default 64. */
  maxJsonDepth?: number;
  /** Time a client has to send a whole HTTP request, body included. Default 30 s. */
  requestTimeoutMs?: number;
  /** Time a client has to send an HTTP request's headers. Default 10 s. */
  headersTimeoutMs?: number;
  /** An HTTP connection with no traffic for this long is closed (WebSockets have their heartbeat). Default 60 s. */
  idleTimeoutMs?: number;
  /** Open TCP connections (HTTP and WebSocket) from one address. Default 64. */
  maxConnectionsPerAddress?: number;
  /**
   * Connections the kernel holds for the server until it accepts them (the listen backlog; Linux
   * caps it at `net.core.somaxconn`). Default 4096: when a node goes away its clients all reconnect
   * to the others at once, and a connection refused a place waits 1, 2, 4, 8… s to try again.
   */
  listenBacklog?: number;
  /**
   * Handles on the listening socket, each polled on every turn of the event loop, which accepts one
   * connection per handle and turn (see accept.ts): a busy node taking over the clients of one that
   * went away accepts them this many times faster. Default 8; 1 keeps the server's own handle only.
   */
  acceptHandles?: number;
  /** New tables per address: at most `max` in `windowMs`. Default 60 per minute. */
  createRate?: WindowLimit;
  /** Imports per address. Default 5 per minute. */
  importRate?: WindowLimit;
  /** Joins through an invite per address. Default 60 per minute. */
  joinRate?: WindowLimit;
  /** Portrait uploads and removals per address. Default 30 per minute. */
  portraitRate?: WindowLimit;
  /** Players and GM at one table. Default 32. */
  maxParticipants?: number;
  /** Commands one table accepts from all its participants together. Default burst 60, 30 per second. */
  tableCommandRate?: RateLimit;
  /**
   * The monotonic milliseconds the message and command rates (`rateLimit`, `commandRate`,
   * `tableCommandRate`) refill by. Default `performance.now`; a test passes a clock it moves itself.
   */
  rateClock?: () => number;
  /** Characters at one table (the domain refuses one more). Default 100. */
  maxCharacters?: number;
  /** Characters one player owns at one table. Default 8. */
  maxCharactersPerPlayer?: number;
  /** Time a new WebSocket has to send hello. Default 10 s. */
  helloTimeoutMs?: number;
  /** WebSocket ping interval; a connection that misses one pong is dropped. Default 30 s. */
  heartbeatMs?: number;
  /** Unsent bytes after which a slow connection is closed. Default 8 MiB. */
  maxBufferedBytes?: number;
  /** pino log level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'silent'. Default 'info'. */
  logLevel?: string;
  /** Where log lines go (default stdout). */
  logStream?: { write(line: string): void };
  /** JSON lines (`json`) or short lines of text (`text`, the default); see log-format.ts. Ignored with logStream. */
  logFormat?: LogFormat;
}

export interface WindowLimit {
  max: number;
  windowMs: number;
}

export const DEFAULTS = {
  port: 8080,
  host: '0.0.0.0',
  dataDir: './data',
  backupEveryMinutes: 60,
  backupKeep: 24,
  maxMessageBytes: 64 * 1024,
  maxFrameBytes: 1024 * 1024,
  maxImportBytes: 32 * 1024 * 1024,
  rateLimit: { burst: 20, perSecond: 10 },
  commandRate: { burst: 20, perSecond: 10 },
  maxQueuedMessages: 16,
  maxJsonDepth: MAX_JSON_DEPTH,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  idleTimeoutMs: 60_000,
  maxConnectionsPerAddress: 64,
  listenBacklog: 4096,
  acceptHandles: 8,
  createRate: { max: 60, windowMs: 60_000 },
  importRate: { max: 5, windowMs: 60_000 },
  joinRate: { max: 60, windowMs: 60_000 },
  portraitRate: { max: 30, windowMs: 60_000 },
  maxParticipants: HUB_DEFAULTS.maxParticipants,
  tableCommandRate: HUB_DEFAULTS.tableCommandRate,
  maxCharacters: HUB_DEFAULTS.maxCharacters,
  maxCharactersPerPlayer: HUB_DEFAULTS.maxCharactersPerPlayer,
  helloTimeoutMs: 10_000,
  heartbeatMs: 30_000,
  maxBufferedBytes: 8 * 1024 * 1024,
  clusterCheckMs: 500,
} as const;

export interface TableServer {
  readonly app: FastifyInstance;
  readonly store: Store;
  /** The server's own backups (see backups.ts). */
  readonly backups: Backups;
  /** Starts listening; resolves with the bound address. */
  listen(): Promise<{ host: string; port: number; url: string }>;
  /** Graceful stop: refuse new work, finish queued commands, close sockets, close the store. */
  close(): Promise<void>;
}

function bearer(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1];
}

function sendOutcome<T>(reply: FastifyReply, outcome: Outcome<T>, status = 200): FastifyReply {
  if (!outcome.ok) return reply.code(outcome.status).send(outcome.error);
  return reply.code(status).send(outcome.value);
}

function sendFailure(reply: FastifyReply, f: Failure): FastifyReply {
  return reply.code(f.status).send(f.error);
}

function validate<T extends z.ZodType>(schema: T, body: unknown, commandId?: unknown): Outcome<z.infer<T>> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return { ok: true, value: parsed.data };
  const { message, field } = describeZodError(parsed.error);
  const extra: Partial<ErrorBody> = field === undefined ? {} : { field };
  if (typeof commandId === 'string' && commandId.length <= 128) extra.commandId = commandId;
  return failure('invalid_message', message, extra);
}

/**
 * Builds the table server. It hosts every ruleset registered with the core registry (each table plays
 * the one it was created with), or the one domain given, as the default ruleset. Opens (and migrates)
 * the store; call `listen()` to serve.
 */
export async function createServer(config: ServerConfig, domain?: AnyDecider | TableDomains): Promise<TableServer> {
  const domains: TableDomains = domain === undefined ? registryDomains() : 'decide' in domain ? singleDomain(domain) : domain;
  const maxMessageBytes = config.maxMessageBytes ?? DEFAULTS.maxMessageBytes;
  const rateLimit = config.rateLimit ?? DEFAULTS.rateLimit;
  const rateClock = config.rateClock ?? (() => performance.now());
  const tokenRate = new KeyedBuckets(config.commandRate ?? DEFAULTS.commandRate, rateClock);
  const maxJsonDepth = config.maxJsonDepth ?? DEFAULTS.maxJsonDepth;
  const requestTimeout = config.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs;
  const app = Fastify({
    logger: {
      level: config.logLevel ?? 'info',
      redact: { paths: ['req.headers.authorization', 'token', 'invite', '*.token'], censor: '[hidden]' },
      ...(config.logStream ? { stream: config.logStream } : config.logFormat === 'json' ? {} : { stream: textLogStream() }),
    },
    // Two entries per HTTP request help a log collector, not a person reading the terminal.
    logController: new LogController({ disableRequestLogging: config.logFormat !== 'json' && config.logStream === undefined }),
    bodyLimit: maxMessageBytes,
    requestTimeout,
    connectionTimeout: config.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs,
    http: {
      headersTimeout: Math.min(config.headersTimeoutMs ?? DEFAULTS.headersTimeoutMs, requestTimeout),
      requestTimeout,
      // How often Node looks for requests over their time; its default (30 s) would let a slow
      // request run far past the limit.
      connectionsCheckingInterval: Math.max(100, Math.min(1000, requestTimeout / 2)),
    },
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  });
  app.removeContentTypeParser('text/plain');
  // Bodies are parsed with a bound on nesting and without "__proto__" keys (see json.ts).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, body === '' ? undefined : parseClientJson(body as string, maxJsonDepth));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  const log = app.log;
  limitConnectionsPerAddress(app, config.maxConnectionsPerAddress ?? DEFAULTS.maxConnectionsPerAddress, log);
  const store = config.store ?? (await openStore(config));
  const keyDir = config.dataDir ?? (config.store ? null : DEFAULTS.dataDir);
  const sealer: Sealer | null = config.linkKey ? sealerWithKey(Buffer.from(config.linkKey, 'base64')) : keyDir ? loadSealer(keyDir) : null;
  /** Keeps the invite sealed so that the GM can be shown it again on another device. */
  const keepInvite = async (tableId: string, invite: string) => {
    if (sealer) await store.setSealedInvite(tableId, sealer.seal(tableId, invite));
  };
  const hub = new TableHub(store, domains, log, {
    maxParticipants: config.maxParticipants ?? DEFAULTS.maxParticipants,
    tableCommandRate: config.tableCommandRate ?? DEFAULTS.tableCommandRate,
    rateClock,
    limits: {
      maxCharacters: config.maxCharacters ?? DEFAULTS.maxCharacters,
      maxCharactersPerPlayer: config.maxCharactersPerPlayer ?? DEFAULTS.maxCharactersPerPlayer,
    },
  });
  const cluster = config.cluster ?? store.fanout !== undefined;
  if (cluster) {
    if (!store.fanout) throw new Error('cluster needs the PostgreSQL store (DATABASE_URL)');
    try {
      await hub.joinCluster(store.fanout, config.clusterCheckMs ?? DEFAULTS.clusterCheckMs);
    } catch (error) {
      if (!config.store) await store.close();
      throw error;
    }
  }
  const sweeper = setInterval(() => hub.sweep(), 60_000);
  sweeper.unref();
  const backups = startBackups(
    store,
    {
      dir: config.backupDir ?? join(config.dataDir ?? DEFAULTS.dataDir, 'backups'),
      everyMs: (config.backupEveryMinutes ?? DEFAULTS.backupEveryMinutes) * 60_000,
      keep: config.backupKeep ?? DEFAULTS.backupKeep,
    },
    log,
  );

  // Security headers on every answer; the policy allows the web app's own files and nothing else
  // (no framing, no plugins, no other origins). Styles may be inline: React sets style attributes.
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // blob: for uploaded portraits, fetched with the viewer's token and shown from memory.
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // The server also runs on plain HTTP in a local network: asking browsers to upgrade would break it.
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'no-referrer' },
  });

  // Throttles per address for the routes that create things; refused before the body is read.
  await app.register(rateLimitPlugin, {
    global: false,
    errorResponseBuilder: (_req, context) => ({
      statusCode: 429,
      code: 'rate_limited',
      message: `more than ${context.max} of these requests from one address in a short time; retry in ${Math.ceil(context.ttl / 1000)} s`,
      retryAfterMs: context.ttl,
    }),
  });
  const throttle = (limit: WindowLimit) => ({ config: { rateLimit: { max: limit.max, timeWindow: limit.windowMs } } });

  const linkBase = (req: FastifyRequest) => config.publicUrl?.replace(/\/$/, '') ?? `${req.protocol}://${req.host}`;
  const links = {
    table: (req: FastifyRequest, tableId: string, token: string) => `${linkBase(req)}/table/${tableId}#token=${token}`,
    join: (req: FastifyRequest, tableId: string, token: string) => `${linkBase(req)}/join/${tableId}#invite=${token}`,
    watch: (req: FastifyRequest, tableId: string, token: string) => `${linkBase(req)}/watch/${tableId}#token=${token}`,
  };

  const handleError = (error: { code?: string; statusCode?: number; message: string; retryAfterMs?: number }, req: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof JsonInputError) {
      return sendFailure(reply, failure(error.code, error.message, error.field === undefined ? {} : { field: error.field }));
    }
    if (error.code === 'rate_limited') {
      return sendFailure(reply, failure('rate_limited', error.message, { retryAfterMs: error.retryAfterMs ?? 1000 }));
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendFailure(reply, failure('message_too_large', 'the request body is too large'));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError) {
      return sendFailure(reply, failure('bad_json', 'the request body is not valid JSON'));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return sendFailure(reply, failure('invalid_message', 'send the body as application/json', {}, 415));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendFailure(reply, failure('invalid_message', error.message, {}, error.statusCode));
    }
    req.log.error({ err: error }, 'request failed');
    return sendFailure(reply, failure('internal_error', 'the request could not be processed'));
  };
  app.setErrorHandler(handleError);

  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0] ?? '/';
    return sendFailure(reply, failure('not_found', `no route ${req.method} ${path}`));
  });

  // The web app: GET and HEAD of any path the API does not claim. Text files go out compressed with
  // brotli or gzip when the browser accepts it, compressed as they are read. The compression plugin
  // lives in a scope of its own, so the API's routes are not touched by it.
  const staticDir = config.staticDir;
  if (staticDir) {
    await app.register(async (scope) => {
      // Brotli at quality 5 costs about what gzip does and makes the app's largest chunk 5 % smaller
      // than gzip; higher qualities cost far more time per request for little more.
      await scope.register(compress, {
        global: false,
        encodings: ['br', 'gzip'],
        brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } },
      });
      scope.route({
        // One route for both, so that HEAD answers with the file's own length (and no body).
        method: ['GET', 'HEAD'],
        url: '/*',
        handler: async (req, reply) => {
          const path = req.url.split('?')[0] ?? '/';
          const file = path.startsWith('/api/') || path === '/api' ? null : await findStaticFile(staticDir, path);
          if (!file) return sendFailure(reply, failure('not_found', `no route ${req.method} ${path}`));
          reply
            .header('content-type', file.contentType)
            .header('cache-control', file.cacheControl)
            .header('etag', file.etag)
            .header('last-modified', file.lastModified)
            .header('vary', 'accept-encoding');
          if (notModified(file, req.headers)) return reply.code(304).send();
          reply.header('content-length', file.size);
          if (req.method === 'HEAD') return reply.send();
          return reply.compress(openStaticFile(file));
        },
      });
    });
  }

  app.get('/api/health', async (_req, reply) => {
    if (hub.isClosing) return reply.code(503).send({ status: 'shutting_down' });
    try {
      await store.ping();
      const queue = cluster && store.fanout ? { notificationQueueUsage: await store.fanout.queueUsage() } : {};
      return reply.send({ status: 'ok', store: store.kind, connections: ws.connectionCount, ...queue });
    } catch {
      return reply.code(503).send({ status: 'unavailable', store: store.kind });
    }
  });

  app.post('/api/tables', throttle(config.createRate ?? DEFAULTS.createRate), async (req, reply) => {
    if (hub.isClosing) return sendFailure(reply, failure('shutting_down', 'the server is shutting down'));
    const input = validate(createTableSchema, req.body);
    if (!input.ok) return sendFailure(reply, input);
    const ruleset = input.value.ruleset ?? DEFAULT_RULESET;
    const setup = {
      ...(input.value.preset !== undefined ? { preset: input.value.preset } : {}),
      ...(input.value.options !== undefined ? { options: input.value.options } : {}),
    };
    const checked = domains.check(ruleset, setup);
    if (!checked.ok) return sendFailure(reply, failure('invalid_setup', checked.message, { field: checked.field }));
    const now = new Date().toISOString();
    const gmToken = newToken('gm');
    const invite = newToken('invite');
    const observer = newToken('observer');
    const tableId = newId('t_');
    const gmId = newId('p_');
    await store.createTable({
      table: {
        id: tableId,
        name: input.value.name,
        createdAt: now,
        ruleset,
        settings: { physicalDice: input.value.settings?.physicalDice ?? false, ...setup },
        version: 0,
      },
      inviteHash: hashToken(invite),
      observerHash: hashToken(observer),
      participants: [
        {
          participant: { id: gmId, role: 'gm', displayName: input.value.gmName ?? 'GM', joinedAt: now, removedAt: null },
          tokenHash: hashToken(gmToken),
        },
      ],
      events: [],
    });
    await keepInvite(tableId, invite);
    req.log.info({ tableId, ruleset }, 'table created');
    return reply.code(201).send({
      tableId,
      ruleset,
      gm: { participantId: gmId, token: gmToken, link: links.table(req, tableId, gmToken) },
      invite: { token: invite, link: links.join(req, tableId, invite) },
      observer: { token: observer, link: links.watch(req, tableId, observer) },
    } satisfies CreatedTableBody);
  });

  // An import may be tens of megabytes: its route reads the body as text and parses it in slices
  // (json.ts, parseClientJsonInSlices), so that other requests are answered meanwhile.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    scope.post(
      '/api/tables/import',
      { bodyLimit: config.maxImportBytes ?? DEFAULTS.maxImportBytes, ...throttle(config.importRate ?? DEFAULTS.importRate) },
      async (req, reply) => {
        if (hub.isClosing) return sendFailure(reply, failure('shutting_down', 'the server is shutting down'));
        const text = typeof req.body === 'string' ? req.body : '';
        // The registry's rulesets are checked in a worker thread (import-job.ts); a domain given to
        // createServer itself (a test, a small tool) is checked here, in slices.
        const prepared =
          domain === undefined
            ? await checkImportInWorker({ text, maxDepth: maxJsonDepth, rulesets: domains.ids() })
            : await prepareImport(!/\S/.test(text) ? undefined : await parseClientJsonInSlices(text, 'events', maxJsonDepth), domains);
        if (!prepared.ok) return sendFailure(reply, prepared);
        const p = prepared.value;
        // The portraits are stored in the same transaction as the events: a failed import leaves nothing.
        const portraits = p.portraits.map(({ characterId, portrait }) => ({ characterId, portrait: { ...portrait, data: Buffer.from(portrait.data, 'base64') } }));
        await store.createTable({ ...p.newTable, portraits });
        const tableId = p.newTable.table.id;
        await keepInvite(tableId, p.invite);
        req.log.info({ tableId, events: p.newTable.events.length }, 'table imported');
        return reply.code(201).send({
          tableId,
          gm: { participantId: p.gm.participantId, token: p.gm.token, link: links.table(req, tableId, p.gm.token) },
          invite: { token: p.invite, link: links.join(req, tableId, p.invite) },
          observer: { token: p.observer, link: links.watch(req, tableId, p.observer) },
          players: p.players.map((pl) => ({ ...pl, link: links.table(req, tableId, pl.token) })),
        });
      },
    );
  });

  // The join page names the table: only for the current invite, and nothing but the name.
  app.post<{ Params: { tableId: string } }>('/api/tables/:tableId/invitation', throttle(config.joinRate ?? DEFAULTS.joinRate), async (req, reply) => {
    const input = validate(invitationSchema, req.body);
    if (!input.ok) return sendFailure(reply, input);
    const name = await store.inviteTableName(req.params.tableId, hashToken(input.value.invite));
    if (name === null) return sendFailure(reply, failure('unauthorized', 'the invite link is not valid (it may have been replaced)'));
    return reply.send({ table: { id: req.params.tableId, name } });
  });

  app.post<{ Params: { tableId: string } }>('/api/tables/:tableId/join', throttle(config.joinRate ?? DEFAULTS.joinRate), async (req, reply) => {
    const input = validate(joinSchema, req.body);
    if (!input.ok) return sendFailure(reply, input);
    const joined = await hub.join(req.params.tableId, input.value.invite, input.value.displayName);
    if (!joined.ok) return sendFailure(reply, joined);
    const { participant, token } = joined.value;
    return reply.code(201).send({
      participantId: participant.id,
      role: participant.role,
      displayName: participant.displayName,
      token,
      link: links.table(req, req.params.tableId, token),
    } satisfies JoinedBody);
  });

  app.get<{ Params: { tableId: string } }>('/api/tables/:tableId', async (req, reply) =>
    sendOutcome(reply, await hub.info(req.params.tableId, bearer(req))),
  );

  app.get<{ Params: { tableId: string } }>('/api/tables/:tableId/state', async (req, reply) =>
    sendOutcome(reply, await hub.state(req.params.tableId, bearer(req))),
  );

  app.get<{ Params: { tableId: string }; Querystring: { since?: string; limit?: string } }>(
    '/api/tables/:tableId/events',
    async (req, reply) => {
      const since = Number(req.query.since ?? 0);
      const limit = Number(req.query.limit ?? 500);
      if (!Number.isInteger(since) || since < 0) {
        return sendFailure(reply, failure('invalid_message', 'since must be a whole number >= 0', { field: 'since' }));
      }
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
        return sendFailure(reply, failure('invalid_message', 'limit must be a whole number from 1 to 1000', { field: 'limit' }));
      }
      return sendOutcome(reply, await hub.events(req.params.tableId, bearer(req), since, limit));
    },
  );

  app.post<{ Params: { tableId: string } }>('/api/tables/:tableId/commands', async (req, reply) => {
    const token = bearer(req);
    const commandId = (req.body as { commandId?: unknown } | null)?.commandId;
    const wait = token ? tokenRate.take(hashToken(token)) : 0;
    if (wait > 0) {
      return sendFailure(
        reply,
        failure('rate_limited', `more than ${tokenRate.limit.perSecond} commands per second from this link; slow down`, {
          retryAfterMs: wait,
          ...(typeof commandId === 'string' && commandId.length <= 128 ? { commandId } : {}),
        }),
      );
    }
    const envelope = validate(httpCommandSchema, req.body, commandId);
    if (!envelope.ok) return sendFailure(reply, envelope);
    return sendOutcome(reply, await hub.command(req.params.tableId, token, envelope.value));
  });

  app.delete<{ Params: { tableId: string; participantId: string } }>(
    '/api/tables/:tableId/participants/:participantId',
    async (req, reply) => sendOutcome(reply, await hub.remove(req.params.tableId, bearer(req), req.params.participantId)),
  );

  app.patch<{ Params: { tableId: string } }>('/api/tables/:tableId/settings', async (req, reply) => {
    const patch = validate(settingsPatchSchema, req.body);
    if (!patch.ok) return sendFailure(reply, patch);
    return sendOutcome(reply, await hub.updateSettings(req.params.tableId, bearer(req), patch.value));
  });

  app.post<{ Params: { tableId: string; kind: string } }>('/api/tables/:tableId/links/:kind/rotate', async (req, reply) => {
    const kind = req.params.kind;
    if (kind !== 'invite' && kind !== 'observer' && kind !== 'gm') {
      return sendFailure(reply, failure('not_found', 'links are "invite", "observer" or "gm"', { field: 'kind' }));
    }
    const rotated = await hub.rotate(req.params.tableId, bearer(req), kind);
    if (!rotated.ok) return sendFailure(reply, rotated);
    const token = rotated.value.token;
    if (kind === 'invite') await keepInvite(req.params.tableId, token);
    const make = kind === 'invite' ? links.join : kind === 'observer' ? links.watch : links.table;
    return reply.send({ kind, token, link: make(req, req.params.tableId, token) });
  });

  // Portraits: an image body, at most MAX_PORTRAIT_BYTES, checked by its own first bytes (portraits.ts).
  await app.register(async (scope) => {
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_PORTRAIT_BYTES }, (_req, body, done) => done(null, body));
    scope.setErrorHandler((error: { code?: string; message: string }, req, reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendFailure(reply, failure('image_too_large', portraitTooLarge(), { field: 'portrait' }, 413));
      return handleError(error, req, reply);
    });
    type Route = { Params: { tableId: string; characterId: string } };
    const path = '/api/tables/:tableId/characters/:characterId/portrait';
    // One count per address for uploads and removals together (a route's own throttle counts only that route).
    const portraitRate = config.portraitRate ?? DEFAULTS.portraitRate;
    const portraitThrottle = { onRequest: app.rateLimit({ max: portraitRate.max, timeWindow: portraitRate.windowMs }) };
    scope.put<Route>(path, portraitThrottle, async (req, reply) => {
      const checked = checkPortrait(req.body, req.headers['content-type']);
      if (!checked.ok) return sendFailure(reply, checked);
      return sendOutcome(reply, await hub.setPortrait(req.params.tableId, bearer(req), req.params.characterId, checked.value));
    });
    scope.delete<Route>(path, portraitThrottle, async (req, reply) => sendOutcome(reply, await hub.setPortrait(req.params.tableId, bearer(req), req.params.characterId, null)));
    scope.get<Route>(path, async (req, reply) => {
      const found = await hub.portrait(req.params.tableId, bearer(req), req.params.characterId);
      if (!found.ok) return sendFailure(reply, found);
      // Served as the image it was checked to be, never sniffed as anything else, never run as a page.
      reply.header('content-type', found.value.contentType);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('content-security-policy', "default-src 'none'; sandbox");
      reply.header('cache-control', 'private, no-cache');
      reply.header('etag', `"${found.value.digest}"`);
      return reply.send(found.value.data);
    });
  });

  app.get<{ Params: { tableId: string } }>('/api/tables/:tableId/portraits', async (req, reply) => sendOutcome(reply, await hub.portraits(req.params.tableId, bearer(req))));

  // The GM sees the current invite again, on any device: it is kept sealed (sealed.ts), never in the clear.
  app.get<{ Params: { tableId: string } }>('/api/tables/:tableId/links/invite', async (req, reply) => {
    const tableId = req.params.tableId;
    const gm = await hub.withCaller(tableId, bearer(req), async (caller): Promise<Outcome<null>> => (caller.actor.role === 'gm' ? { ok: true, value: null } : failure('forbidden', 'only the GM can see the invite link')));
    if (!gm.ok) return sendFailure(reply, gm);
    const sealed = sealer ? await store.getSealedInvite(tableId) : null;
    const token = sealed === null ? null : sealer!.open(tableId, sealed);
    if (!token) return sendFailure(reply, failure('not_found', 'this server cannot show the invite link again (it was made before the server kept it, or under another link key): replace the invite link to get one it keeps', { field: 'invite' }));
    return reply.send({ kind: 'invite', token, link: links.join(req, tableId, token) });
  });

  // The GM's read-only re-judge of the log under other rules reads the decisions as recorded.
  app.get<{ Params: { tableId: string } }>('/api/tables/:tableId/decisions', async (req, reply) => sendOutcome(reply, await hub.decisions(req.params.tableId, bearer(req))));

  app.get<{ Params: { tableId: string } }>('/api/tables/:tableId/export', async (req, reply) => {
    const exported = await hub.exportEvents(req.params.tableId, bearer(req));
    if (!exported.ok) return sendFailure(reply, exported);
    const file = buildExport(exported.value);
    const slug = file.table.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'table';
    reply.header('content-disposition', `attachment; filename="${slug}-${file.table.id}.json"`);
    return reply.send(file);
  });

  const ws: WebSocketEndpoint = attachWebSocket(app.server, hub, log, {
    path: '/ws',
    maxMessageBytes,
    maxFrameBytes: config.maxFrameBytes ?? DEFAULTS.maxFrameBytes,
    rateLimit,
    rateClock,
    tokenRate,
    maxQueuedMessages: config.maxQueuedMessages ?? DEFAULTS.maxQueuedMessages,
    maxJsonDepth,
    helloTimeoutMs: config.helloTimeoutMs ?? DEFAULTS.helloTimeoutMs,
    heartbeatMs: config.heartbeatMs ?? DEFAULTS.heartbeatMs,
    maxBufferedBytes: config.maxBufferedBytes ?? DEFAULTS.maxBufferedBytes,
  });

  let closing: Promise<void> | null = null;
  let closeAcceptHandles: () => Promise<void> = async () => undefined;

  return {
    app,
    store,
    backups,
    async listen() {
      const backlog = config.listenBacklog ?? DEFAULTS.listenBacklog;
      await app.listen({ port: config.port ?? DEFAULTS.port, host: config.host ?? DEFAULTS.host, backlog });
      const handles = Math.floor(config.acceptHandles ?? DEFAULTS.acceptHandles);
      closeAcceptHandles = await addAcceptHandles(app.server, Math.max(0, handles - 1), backlog, log);
      const address = app.server.address() as AddressInfo;
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return { host: address.address, port: address.port, url: `http://${host}:${address.port}` };
    },
    close() {
      closing ??= (async () => {
        clearInterval(sweeper);
        await backups.stop();
        const drained = hub.drain();
        await closeAcceptHandles();
        const httpClosed = app.close();
        await drained;
        await ws.close(CLOSE.goingAway, 'server shutting down');
        await httpClosed;
        await hub.leaveCluster();
        if (!config.store) await store.close();
      })();
      return closing;
    },
  };
}

/** Closes a new TCP connection at once when its address already holds `max` open ones (HTTP and WebSocket alike). */
function limitConnectionsPerAddress(app: FastifyInstance, max: number, log: { warn(obj: object, msg?: string): void }): void {
  const open = new Map<string, number>();
  app.server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = open.get(address) ?? 0;
    if (count >= max) {
      log.warn({ address, open: count }, 'too many connections from one address');
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

