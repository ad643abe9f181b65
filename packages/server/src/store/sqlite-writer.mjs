// The SQLite store's writer, run in a worker thread so that syncing the log to disk never blocks
// the server's event loop. It is plain JavaScript so that it loads the same way under every
// runner (node with tsx, vitest) without a TypeScript loader in the worker.
//
// Group commit: every write request that arrives while the previous batch is being committed is
// taken into the next batch, which runs as one transaction (one sync to disk). Each request is a
// savepoint inside it, so a request that fails is undone alone. Results are posted back only after
// the batch has committed.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const db = new Database(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma(`synchronous = ${workerData.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
db.pragma('foreign_keys = ON');
db.pragma('busy_timeout = 5000');

// Schema 3: events and commands moved from tables clustered on their key (WITHOUT ROWID) to rowid
// tables with the same key as a unique index. A store made before keeps its rows: the old table is
// renamed aside, the schema makes the new one, the rows are copied in key order and the old table
// dropped, all in the one transaction with the schema, so a failure leaves the store as it was.
const storedSql = (name) => db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?").pluck().get(name);
const clustered = ['events', 'commands'].filter((name) => /WITHOUT\s+ROWID/i.test(storedSql(name) ?? ''));
const keyOrder = { events: 'table_id, seq', commands: 'table_id, participant_id, command_id' };
db.transaction(() => {
  for (const name of clustered) db.exec(`ALTER TABLE ${name} RENAME TO ${name}_schema2`);
  db.exec(workerData.schema);
  for (const name of clustered) {
    const columns = db.prepare(`PRAGMA table_info(${name}_schema2)`).all().map((c) => c.name).join(', ');
    db.exec(`INSERT INTO ${name} (${columns}) SELECT ${columns} FROM ${name}_schema2 ORDER BY ${keyOrder[name]}`);
    db.exec(`DROP TABLE ${name}_schema2`);
  }
  // Schema 2: every table names its ruleset; tables made before rulesets existed are Personae tables.
  if (!db.prepare('PRAGMA table_info(tables)').all().some((c) => c.name === 'ruleset')) {
    db.exec("ALTER TABLE tables ADD COLUMN ruleset TEXT NOT NULL DEFAULT 'personae'");
  }
  // Schema 4: a table's version is its last event's seq, read from the events' (table, seq) index; the
  // version column each append rewrote is dropped.
  if (db.prepare('PRAGMA table_info(tables)').all().some((c) => c.name === 'version')) {
    db.exec('ALTER TABLE tables DROP COLUMN version');
  }
  db.exec("UPDATE store_meta SET value = '4' WHERE key = 'schema_version'");
})();

const q = {
  insertTable: db.prepare(
    'INSERT INTO tables (id, name, created_at, ruleset, settings, invite_hash, observer_hash) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ),
  insertParticipant: db.prepare(
    `INSERT INTO participants (table_id, id, role, display_name, token_hash, joined_at, removed_at, position)
     VALUES (?, ?, ?, ?, ?, ?, ?, (SELECT COUNT(*) FROM participants WHERE table_id = ?))`,
  ),
  inviteByHash: db.prepare('SELECT id FROM tables WHERE id = ? AND invite_hash = ?'),
  removeParticipant: db.prepare(
    'UPDATE participants SET removed_at = ?, token_hash = NULL WHERE table_id = ? AND id = ? AND removed_at IS NULL',
  ),
  rotateInvite: db.prepare('UPDATE tables SET invite_hash = ? WHERE id = ?'),
  rotateObserver: db.prepare('UPDATE tables SET observer_hash = ? WHERE id = ?'),
  setSettings: db.prepare('UPDATE tables SET settings = ? WHERE id = ?'),
  hasTable: db.prepare('SELECT 1 FROM tables WHERE id = ?'),
  putPortrait: db.prepare(
    `INSERT INTO portraits (table_id, character_id, content_type, digest, data) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (table_id, character_id) DO UPDATE SET content_type = excluded.content_type, digest = excluded.digest, data = excluded.data`,
  ),
  putSealedInvite: db.prepare(
    `INSERT INTO sealed_invites (table_id, sealed) VALUES (?, ?) ON CONFLICT (table_id) DO UPDATE SET sealed = excluded.sealed`,
  ),
  dropPortrait: db.prepare('DELETE FROM portraits WHERE table_id = ? AND character_id = ?'),
  setToken: db.prepare('UPDATE participants SET token_hash = ? WHERE table_id = ? AND id = ? AND removed_at IS NULL'),
  version: db.prepare('SELECT coalesce(max(seq), 0) FROM events WHERE table_id = ?').pluck(),
  insertEvent: db.prepare(
    'INSERT INTO events (table_id, seq, at, participant_id, command_id, payload) VALUES (?, ?, ?, ?, ?, ?)',
  ),
  insertCommand: db.prepare(
    `INSERT INTO commands (table_id, participant_id, command_id, command_hash, first_seq, last_seq, version_after, at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  hasCommand: db.prepare('SELECT 1 FROM commands WHERE table_id = ? AND participant_id = ? AND command_id = ?'),
};

/** Events arrive with their payload already serialized to JSON text. */
function insertEvents(tableId, events) {
  for (const e of events) q.insertEvent.run(tableId, e.seq, e.at, e.participantId, e.commandId, e.payload);
}

function insertParticipant(tableId, p, tokenHash) {
  q.insertParticipant.run(tableId, p.id, p.role, p.displayName, tokenHash, p.joinedAt, p.removedAt, tableId);
}

/**
 * Events of a long log (an import) arrive in parts, so that no single message holds the server's
 * event loop while it is copied; they wait here until the createTable that names them.
 */
const staged = new Map();

const ops = {
  stageEvents: (key, events) => {
    const list = staged.get(key);
    if (list) list.push(...events);
    else staged.set(key, [...events]);
    return null;
  },
  dropStaged: (key) => {
    staged.delete(key);
    return null;
  },
  createTable: db.transaction((input) => {
    const t = input.table;
    q.insertTable.run(t.id, t.name, t.createdAt, t.ruleset, JSON.stringify(t.settings), input.inviteHash, input.observerHash);
    for (const { participant, tokenHash } of input.participants) insertParticipant(t.id, participant, tokenHash);
    if (input.stagedKey !== undefined) {
      const events = staged.get(input.stagedKey) ?? [];
      staged.delete(input.stagedKey);
      if (events.length !== t.version) throw new Error(`${events.length} staged events for a table at version ${t.version}`);
      insertEvents(t.id, events);
    } else {
      insertEvents(t.id, input.events);
    }
    // An imported table's portraits belong to the same transaction: a failed import leaves none.
    for (const { characterId, portrait } of input.portraits ?? []) q.putPortrait.run(t.id, characterId, portrait.contentType, portrait.digest, Buffer.from(portrait.data));
    return null;
  }),
  joinWithInvite: db.transaction((tableId, inviteHash, participant, tokenHash) => {
    if (!q.inviteByHash.get(tableId, inviteHash)) return false;
    insertParticipant(tableId, participant, tokenHash);
    return true;
  }),
  removeParticipant: db.transaction((tableId, participantId, at) => q.removeParticipant.run(at, tableId, participantId).changes === 1),
  rotateLink: db.transaction((tableId, kind, hash) => {
    (kind === 'invite' ? q.rotateInvite : q.rotateObserver).run(hash, tableId);
    return null;
  }),
  setParticipantToken: db.transaction((tableId, participantId, hash) => {
    q.setToken.run(hash, tableId, participantId);
    return null;
  }),
  setSettings: db.transaction((tableId, settings) => q.setSettings.run(settings, tableId).changes === 1),
  setSealedInvite: db.transaction((tableId, sealed) => {
    q.putSealedInvite.run(tableId, sealed);
  }),
  setPortrait: db.transaction((tableId, characterId, portrait) => {
    if (!q.hasTable.get(tableId)) return false;
    if (portrait) q.putPortrait.run(tableId, characterId, portrait.contentType, portrait.digest, Buffer.from(portrait.data));
    else q.dropPortrait.run(tableId, characterId);
    return true;
  }),
  appendEvents: db.transaction((tableId, expectedVersion, events, c) => {
    if (q.hasCommand.get(tableId, c.participantId, c.commandId)) return { ok: false, reason: 'duplicate_command' };
    // The check and the append run in this one writer's transaction, so nothing appends in between;
    // the events' (table, seq) key refuses a seq stored twice besides.
    if (!q.hasTable.get(tableId) || q.version.get(tableId) !== expectedVersion) return { ok: false, reason: 'conflict' };
    insertEvents(tableId, events);
    q.insertCommand.run(tableId, c.participantId, c.commandId, c.commandHash, c.firstSeq, c.lastSeq, c.versionAfter, c.at);
    return { ok: true };
  }),
};

const describe = (error) => ({ message: error instanceof Error ? error.message : String(error), code: error?.code });

const runBatch = db.transaction((items) =>
  items.map(({ id, op, args }) => {
    try {
      const fn = ops[op];
      if (!fn) throw new Error(`unknown store operation ${op}`);
      return { id, ok: true, value: fn(...args) };
    } catch (error) {
      return { id, ok: false, error: describe(error) };
    }
  }),
);

let queue = [];
let scheduled = false;

function flush() {
  scheduled = false;
  const items = queue;
  queue = [];
  if (items.length === 0) return;
  let results;
  try {
    results = runBatch(items);
  } catch (error) {
    results = items.map(({ id }) => ({ id, ok: false, error: describe(error) }));
  }
  parentPort.postMessage({ results });
}

parentPort.on('message', ({ requests }) => {
  for (const request of requests) {
    if (request.op === 'close') {
      flush();
      db.close();
      parentPort.postMessage({ results: [{ id: request.id, ok: true, value: null }] });
      return;
    }
    queue.push(request);
  }
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
});

parentPort.postMessage({ ready: true });
