import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretDecider } from './fixtures/secret-decider';
import { createTable, http, joinTable, relaxedLimits, sleep, startServer, TestClient, type CreatedTable, type Running } from './helpers';

/**
 * Every role against every HTTP route and WebSocket message type, table-driven. A refused call
 * must answer with the expected status and code and leave the table exactly as it was.
 */

type Role = 'gm' | 'owner' | 'other' | 'observer' | 'none' | 'foreign';
const ROLES: Role[] = ['gm', 'owner', 'other', 'observer', 'none', 'foreign'];

interface Seated {
  t: CreatedTable;
  owner: { participantId: string; token: string };
  other: { participantId: string; token: string };
  tokens: Record<Role, string | undefined>;
}

let srv: Running;
let foreign: CreatedTable;

beforeAll(async () => {
  srv = await startServer(secretDecider, { config: relaxedLimits() });
  foreign = await createTable(srv.url, { name: 'Another table' });
});
afterAll(async () => {
  await srv.close();
});

/** A table with a GM, a player who owns the character "ash", another player and one roll. */
async function seat(): Promise<Seated> {
  const t = await createTable(srv.url);
  const owner = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
  const other = await joinTable(srv.url, t.tableId, t.invite.token, 'Bo');
  const command = (commandId: string, cmd: unknown) =>
    http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, { token: t.gm.token, body: { commandId, command: cmd } });
  expect((await command('s1', { type: 'create', characterId: 'ash', name: 'Ash', secret: 'fears water', owner: owner.participantId })).status).toBe(200);
  expect((await command('s2', { type: 'roll', count: 2 })).status).toBe(200);
  return {
    t,
    owner,
    other,
    tokens: { gm: t.gm.token, owner: owner.token, other: other.token, observer: t.observer.token, none: undefined, foreign: foreign.gm.token },
  };
}

/** Everything about the table that a refused call must not change, as the GM sees it. */
async function snapshot(s: Seated) {
  const [info, state, events] = await Promise.all([
    http(srv.url, 'GET', `/api/tables/${s.t.tableId}`, { token: s.t.gm.token }),
    http(srv.url, 'GET', `/api/tables/${s.t.tableId}/state`, { token: s.t.gm.token }),
    http(srv.url, 'GET', `/api/tables/${s.t.tableId}/events`, { token: s.t.gm.token }),
  ]);
  // The observer link and both players' tokens still work.
  const observer = await http(srv.url, 'GET', `/api/tables/${s.t.tableId}`, { token: s.t.observer.token });
  const players = await Promise.all(
    [s.owner.token, s.other.token].map((token) => http(srv.url, 'GET', `/api/tables/${s.t.tableId}`, { token }).then((r) => r.status)),
  );
  return { info: info.body, state: state.body, events: events.body, observer: observer.status, players };
}

interface Outcome {
  status: number;
  code?: string;
}

interface Action {
  name: string;
  run(s: Seated, token: string | undefined): Promise<Outcome>;
  /** The answer per role: a 2xx status means allowed. */
  expect: Record<Role, Outcome>;
}

const unauthorized: Outcome = { status: 401, code: 'unauthorized' };
const forbidden: Outcome = { status: 403, code: 'forbidden' };
const ok: Outcome = { status: 200 };
const readable: Record<Role, Outcome> = { gm: ok, owner: ok, other: ok, observer: ok, none: unauthorized, foreign: unauthorized };
const gmOnly = (allowed: Outcome = ok): Record<Role, Outcome> => ({
  gm: allowed,
  owner: forbidden,
  other: forbidden,
  observer: forbidden,
  none: unauthorized,
  foreign: unauthorized,
});

/** A command the domain keeps for the GM: players are refused by the decider, not the server. */
const gmOnlyInDomain: Record<Role, Outcome> = {
  ...gmOnly(),
  owner: { status: 422, code: 'gm_only' },
  other: { status: 422, code: 'gm_only' },
};

async function call(method: string, path: string, token: string | undefined, body?: unknown): Promise<Outcome> {
  const res = await http(srv.url, method, path, { ...(token ? { token } : {}), ...(body === undefined ? {} : { body }) });
  return { status: res.status, ...(res.body?.code ? { code: res.body.code } : {}) };
}

function commandAction(name: string, command: unknown, expected: Record<Role, Outcome>): Action {
  return {
    name: `POST commands ${name}`,
    run: (s, token) => call('POST', `/api/tables/${s.t.tableId}/commands`, token, { commandId: `m-${name.replace(/\W+/g, '-')}`, command }),
    expect: expected,
  };
}

const HTTP_ACTIONS: Action[] = [
  { name: 'GET table', run: (s, token) => call('GET', `/api/tables/${s.t.tableId}`, token), expect: readable },
  { name: 'GET state', run: (s, token) => call('GET', `/api/tables/${s.t.tableId}/state`, token), expect: readable },
  { name: 'GET events', run: (s, token) => call('GET', `/api/tables/${s.t.tableId}/events?since=0`, token), expect: readable },
  { name: 'GET export', run: (s, token) => call('GET', `/api/tables/${s.t.tableId}/export`, token), expect: readable },
  { name: 'GET decisions', run: (s, token) => call('GET', `/api/tables/${s.t.tableId}/decisions`, token), expect: gmOnly() },
  commandAction('roll', { type: 'roll', count: 1 }, { gm: ok, owner: ok, other: ok, observer: forbidden, none: unauthorized, foreign: unauthorized }),
  commandAction('rename own', { type: 'rename', characterId: 'ash', name: 'Ash II' }, {
    gm: ok,
    owner: ok,
    other: { status: 422, code: 'not_owner' },
    observer: forbidden,
    none: unauthorized,
    foreign: unauthorized,
  }),
  commandAction('gm-note', { type: 'gm-note', text: 'the bridge is out' }, gmOnlyInDomain),
  commandAction('undo', { type: 'undo' }, gmOnlyInDomain),
  {
    name: 'PATCH settings',
    run: (s, token) => call('PATCH', `/api/tables/${s.t.tableId}/settings`, token, { physicalDice: true }),
    expect: gmOnly(),
  },
  {
    name: 'DELETE participant',
    run: (s, token) => call('DELETE', `/api/tables/${s.t.tableId}/participants/${s.other.participantId}`, token),
    expect: gmOnly(),
  },
  ...(['invite', 'observer', 'gm'] as const).map(
    (kind): Action => ({
      name: `POST rotate ${kind}`,
      run: (s, token) => call('POST', `/api/tables/${s.t.tableId}/links/${kind}/rotate`, token),
      expect: gmOnly(),
    }),
  ),
  {
    name: 'POST join with the role token as invite',
    run: (s, token) => call('POST', `/api/tables/${s.t.tableId}/join`, undefined, { invite: token ?? 'nothing', displayName: 'Mallory' }),
    expect: { gm: unauthorized, owner: unauthorized, other: unauthorized, observer: unauthorized, none: unauthorized, foreign: unauthorized },
  },
];

async function wsSession(s: Seated, token: string | undefined) {
  const client = await TestClient.connect(srv.wsUrl);
  const welcome = await client.hello(s.t.tableId, token ?? '');
  return { client, welcome };
}

/** WebSocket message types: the answer a role gets, as an error code or the message type. */
const WS_ACTIONS: Array<{ name: string; run(s: Seated, token: string | undefined): Promise<string>; expect: Record<Role, string> }> = [
  {
    name: 'hello',
    async run(s, token) {
      const { client, welcome } = await wsSession(s, token);
      client.close();
      return welcome.type === 'error' ? welcome.code : welcome.type;
    },
    expect: { gm: 'welcome', owner: 'welcome', other: 'welcome', observer: 'welcome', none: 'invalid_message', foreign: 'unauthorized' },
  },
  {
    name: 'command roll',
    async run(s, token) {
      const { client, welcome } = await wsSession(s, token);
      try {
        if (welcome.type === 'error') {
          // A refused hello closes the connection; a command on a fresh connection is refused too.
          const again = await TestClient.connect(srv.wsUrl);
          const answer = await again.command('w-roll', { type: 'roll', count: 1 });
          again.close();
          return answer.code;
        }
        const answer = await client.command('w-roll', { type: 'roll', count: 1 });
        return answer.type === 'error' ? answer.code : answer.type;
      } finally {
        client.close();
      }
    },
    expect: { gm: 'ack', owner: 'ack', other: 'ack', observer: 'forbidden', none: 'not_authenticated', foreign: 'not_authenticated' },
  },
  {
    name: 'state',
    async run(s, token) {
      const { client, welcome } = await wsSession(s, token);
      try {
        const target = welcome.type === 'error' ? await TestClient.connect(srv.wsUrl) : client;
        target.send({ type: 'state' });
        const answer = await target.waitFor((m) => m.type === 'state' || m.type === 'error');
        if (target !== client) target.close();
        return answer.type === 'error' ? answer.code : answer.type;
      } finally {
        client.close();
      }
    },
    expect: { gm: 'state', owner: 'state', other: 'state', observer: 'state', none: 'not_authenticated', foreign: 'not_authenticated' },
  },
];

describe('authorization matrix', () => {
  for (const action of HTTP_ACTIONS) {
    it(`HTTP ${action.name}: every role`, async () => {
      for (const role of ROLES) {
        const s = await seat();
        const before = await snapshot(s);
        const got = await action.run(s, s.tokens[role]);
        const want = action.expect[role];
        expect({ role, ...got }, `${action.name} as ${role}`).toMatchObject({ role, ...want });
        if (want.status >= 400) expect(await snapshot(s), `${action.name} as ${role} changed the table`).toEqual(before);
      }
    });
  }

  for (const action of WS_ACTIONS) {
    it(`WebSocket ${action.name}: every role`, async () => {
      for (const role of ROLES) {
        const s = await seat();
        const before = await snapshot(s);
        const got = await action.run(s, s.tokens[role]);
        expect({ role, got }, `${action.name} as ${role}`).toEqual({ role, got: action.expect[role] });
        if (!['welcome', 'ack', 'state'].includes(got)) expect(await snapshot(s), `${action.name} as ${role} changed the table`).toEqual(before);
      }
    });
  }

  it('players see their own character\u2019s secret, not another player\u2019s; observers see none', async () => {
    const s = await seat();
    const secretOf = async (role: Role) =>
      (await http(srv.url, 'GET', `/api/tables/${s.t.tableId}/state`, { token: s.tokens[role]! })).body.state.characters.ash.secret;
    expect(await secretOf('gm')).toBe('fears water');
    expect(await secretOf('owner')).toBe('fears water');
    expect(await secretOf('other')).toBeNull();
    expect(await secretOf('observer')).toBeNull();
    const exportOf = async (role: Role) => (await http(srv.url, 'GET', `/api/tables/${s.t.tableId}/export`, { token: s.tokens[role]! })).text;
    expect(await exportOf('gm')).toContain('fears water');
    expect(await exportOf('other')).not.toContain('fears water');
    expect(await exportOf('observer')).not.toContain('fears water');
  });

  it('a removed player or a replaced observer link saying hello at the same moment is refused or disconnected, never left connected', async () => {
    // The token is checked while the hello waits for its turn at the table; a removal or a new
    // link that takes its turn first must still keep the hello out.
    for (let round = 0; round < 6; round++) {
      const s = await seat();
      const tokens = [s.tokens.owner!, s.tokens.observer!, s.tokens.owner!, s.tokens.observer!];
      const sockets = await Promise.all(tokens.map(() => TestClient.connect(srv.wsUrl)));
      // The removal and the new link are asked for first, the hellos right behind them.
      const changes = Promise.all([
        http(srv.url, 'DELETE', `/api/tables/${s.t.tableId}/participants/${s.owner.participantId}`, { token: s.t.gm.token }),
        http(srv.url, 'POST', `/api/tables/${s.t.tableId}/links/observer/rotate`, { token: s.t.gm.token }),
      ]);
      const hellos = sockets.map((c, i) => ({ c, answer: c.hello(s.t.tableId, tokens[i]!) }));
      const [removed, rotated] = await changes;
      expect([removed.status, rotated.status]).toEqual([200, 200]);
      for (const { c, answer } of hellos) {
        const m = await answer;
        if (m.type === 'welcome') expect((await Promise.race([c.closed, sleep(3000).then(() => null)]))?.code, 'a welcomed hello is closed').toBe(4003);
        else expect(m).toMatchObject({ type: 'error', code: 'unauthorized' });
      }
      // And a hello after them is refused outright.
      for (const token of [s.tokens.owner!, s.tokens.observer!]) {
        const late = await TestClient.connect(srv.wsUrl);
        expect(await late.hello(s.t.tableId, token)).toMatchObject({ type: 'error', code: 'unauthorized' });
        late.close();
      }
    }
  });
});
