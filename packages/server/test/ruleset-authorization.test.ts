import { readFileSync } from 'node:fs';
import '@personae/d100';
import '@personae/lucidity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createTable, http, joinTable, relaxedLimits, startServer, TestClient, type CreatedTable, type Running } from './helpers';

/**
 * The authorization matrix for the d100 and Lucidity tables (authorization.test.ts holds the
 * transport's, table-authorization.test.ts the Personae table's): every role against each
 * ruleset's commands, over HTTP and the WebSocket, on a table where the owner and the other player
 * each control a character and the GM a hidden one. A refusal leaves the table exactly as it was.
 */
const example = (path: string) => parse(readFileSync(new URL(`../../../examples/${path}`, import.meta.url), 'utf8')) as Record<string, unknown>;

type Role = 'gm' | 'owner' | 'other' | 'observer' | 'none' | 'foreign';
const ROLES: Role[] = ['gm', 'owner', 'other', 'observer', 'none', 'foreign'];
type Outcome = { status: number; code?: string };

let srv: Running;
let foreign: CreatedTable;
beforeAll(async () => {
  srv = await startServer(undefined, { config: relaxedLimits() });
  foreign = await createTable(srv.url, { name: 'Another table', ruleset: 'd100' });
});
afterAll(async () => {
  await srv.close();
});

interface Seated {
  t: CreatedTable;
  tokens: Record<Role, string | undefined>;
  ids: Record<'owner' | 'other', string>;
  /** The owner's and the other player's characters, in their seats' id spaces. */
  chars: Record<'ann1' | 'bo1', string>;
}

interface Ruleset {
  id: 'd100' | 'lucidity';
  /** Adds the owner's "ann1", the other player's "bo1" and the GM's hidden "foe1". */
  setUp(send: (token: string, command: unknown) => Promise<Outcome>, s: Seated): Promise<void>;
  actions: Array<{ name: string; command(s: Seated): unknown; expect: Record<Role, Outcome> }>;
  /** An action of the owner's character, allowed before the encounter starts. */
  ownerAction(s: Seated): unknown;
  /** A player's new character, under the id asked for. */
  playerAdd(id: string): unknown;
}

const ok: Outcome = { status: 200 };
const outsiders = { observer: { status: 403, code: 'forbidden' }, none: { status: 401, code: 'unauthorized' }, foreign: { status: 401, code: 'unauthorized' } };
const everyone = { gm: ok, owner: ok, other: ok, ...outsiders };
const gmOnly = (code: string): Record<Role, Outcome> => ({ gm: ok, owner: { status: 422, code }, other: { status: 422, code }, ...outsiders });
const noSuch = (code: string): Record<Role, Outcome> => ({ ...gmOnly(code), gm: { status: 422, code } });
const ownerOnly = (code: string): Record<Role, Outcome> => ({ gm: ok, owner: ok, other: { status: 422, code }, ...outsiders });

const bandit = { name: 'Bandit', attributes: { STR: 1, DEX: 1, AWA: 0 }, defense: 11, protection: 2, health: 9, weapons: [{ name: 'Club', damage: '1d6' }] };
const RULESETS: Ruleset[] = [
  {
    id: 'd100',
    async setUp(send, s) {
      expect(await send(s.tokens.owner!, { type: 'add-character', id: 'ann1', sheet: example('d100/evoker-makoto.yaml') })).toEqual(ok);
      expect(await send(s.tokens.other!, { type: 'add-character', id: 'bo1', sheet: example('d100/evoker-yukari.yaml') })).toEqual(ok);
      expect(await send(s.tokens.gm!, { type: 'add-character', id: 'foe1', sheet: example('d100/shadow-pixie.yaml') })).toEqual(ok);
    },
    actions: [
      { name: 'add-character (a party sheet)', command: () => ({ type: 'add-character', id: 'new1', sheet: example('d100/evoker-yukari.yaml') }), expect: everyone },
      { name: 'add-character (a hidden shadow)', command: () => ({ type: 'add-character', id: 'new1', sheet: example('d100/shadow-pixie.yaml') }), expect: gmOnly('gm-only') },
      { name: 'add-character for the owner', command: (s) => ({ type: 'add-character', id: 'new1', sheet: example('d100/evoker-yukari.yaml'), controller: s.ids.owner }), expect: { ...everyone, other: { status: 422, code: 'not-your-character' } } },
      { name: 'set-controller', command: (s) => ({ type: 'set-controller', id: s.chars.bo1, controller: s.ids.owner }), expect: gmOnly('gm-only') },
      { name: 'set-options', command: () => ({ type: 'set-options', preset: 'seed' }), expect: gmOnly('gm-only') },
      { name: 'test by the owner\u2019s character', command: (s) => ({ type: 'test', who: s.chars.ann1, score: 'perception' }), expect: ownerOnly('not-your-character') },
      { name: 'test by the GM\u2019s hidden character', command: () => ({ type: 'test', who: 'foe1', score: 'perception' }), expect: gmOnly('unknown-character') },
      { name: 'start', command: () => ({ type: 'start' }), expect: gmOnly('gm-only') },
      // A player naming a hidden character is answered as if it did not exist.
      { name: 'test by a character that does not exist', command: () => ({ type: 'test', who: 'nobody', score: 'perception' }), expect: noSuch('unknown-character') },
    ],
    ownerAction: (s) => ({ type: 'test', who: s.chars.ann1, score: 'perception' }),
    playerAdd: (id) => ({ type: 'add-character', id, sheet: example('d100/evoker-makoto.yaml') }),
  },
  {
    id: 'lucidity',
    async setUp(send, s) {
      expect(await send(s.tokens.owner!, { type: 'add', id: 'ann1', side: 'party', sheet: example('lucidity/characters/ana-vell.yaml') })).toEqual(ok);
      expect(await send(s.tokens.other!, { type: 'add', id: 'bo1', side: 'party', sheet: example('lucidity/characters/orrin-moss.yaml') })).toEqual(ok);
      expect(await send(s.tokens.gm!, { type: 'add', id: 'foe1', side: 'foe', hidden: true, statBlock: bandit })).toEqual(ok);
    },
    actions: [
      { name: 'add (a party sheet)', command: () => ({ type: 'add', id: 'new1', side: 'party', sheet: example('lucidity/characters/ana-vell.yaml') }), expect: everyone },
      { name: 'add (a foe)', command: () => ({ type: 'add', id: 'new1', side: 'foe', statBlock: bandit }), expect: gmOnly('lucidity.forbidden') },
      { name: 'roll by the owner\u2019s combatant', command: (s) => ({ type: 'roll', actor: s.chars.ann1, attribute: 'AWA', target: 12 }), expect: ownerOnly('lucidity.forbidden') },
      { name: 'roll by the GM\u2019s hidden combatant', command: () => ({ type: 'roll', actor: 'foe1', attribute: 'AWA', target: 12 }), expect: gmOnly('lucidity.unknown-combatant') },
      { name: 'reveal', command: () => ({ type: 'reveal', id: 'foe1' }), expect: gmOnly('lucidity.unknown-combatant') },
      { name: 'award-xp', command: (s) => ({ type: 'award-xp', id: s.chars.ann1, amount: 5 }), expect: gmOnly('lucidity.forbidden') },
      { name: 'set-controller', command: (s) => ({ type: 'set-controller', id: s.chars.bo1, controller: s.ids.owner }), expect: gmOnly('lucidity.forbidden') },
      { name: 'start', command: () => ({ type: 'start' }), expect: gmOnly('lucidity.forbidden') },
      // A player naming a hidden combatant is answered as if it did not exist.
      { name: 'roll by a combatant that does not exist', command: () => ({ type: 'roll', actor: 'nobody', attribute: 'AWA', target: 12 }), expect: noSuch('lucidity.unknown-combatant') },
    ],
    ownerAction: (s) => ({ type: 'roll', actor: s.chars.ann1, attribute: 'AWA', target: 12 }),
    playerAdd: (id) => ({ type: 'add', id, side: 'party', sheet: example('lucidity/characters/ana-vell.yaml') }),
  },
];

let n = 0;
async function sendHttp(s: Seated, token: string | undefined, command: unknown): Promise<Outcome> {
  const res = await http(srv.url, 'POST', `/api/tables/${s.t.tableId}/commands`, { ...(token ? { token } : {}), body: { commandId: `a${++n}`, command } });
  return { status: res.status, ...(res.status >= 400 ? { code: res.body?.code } : {}) };
}

/** The same command over a WebSocket, as the outcome HTTP would give (ack: 200). */
async function sendWs(s: Seated, token: string | undefined, command: unknown): Promise<Outcome> {
  const client = await TestClient.connect(srv.wsUrl);
  try {
    const welcome = await client.hello(s.t.tableId, token ?? '');
    if (welcome.type === 'error') return { status: 401, code: 'unauthorized' };
    const answer = await client.command(`w${++n}`, command);
    if (answer.type === 'ack') return ok;
    return { status: answer.code === 'forbidden' ? 403 : 422, code: answer.code };
  } finally {
    client.close();
  }
}

async function snapshot(s: Seated) {
  const [state, events] = await Promise.all([
    http(srv.url, 'GET', `/api/tables/${s.t.tableId}/state`, { token: s.t.gm.token }),
    http(srv.url, 'GET', `/api/tables/${s.t.tableId}/events?since=0`, { token: s.t.gm.token }),
  ]);
  return { state: state.body, events: events.body };
}

async function seatAt(rs: Ruleset): Promise<Seated> {
  const t = await createTable(srv.url, { name: `Matrix ${rs.id}`, ruleset: rs.id });
  const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
  const bo = await joinTable(srv.url, t.tableId, t.invite.token, 'Bo');
  const s: Seated = {
    t,
    tokens: { gm: t.gm.token, owner: ann.token, other: bo.token, observer: t.observer.token, none: undefined, foreign: foreign.gm.token },
    ids: { owner: ann.participantId, other: bo.participantId },
    chars: { ann1: `${ann.participantId}:ann1`, bo1: `${bo.participantId}:bo1` },
  };
  await rs.setUp((token, command) => sendHttp(s, token, command), s);
  return s;
}

describe.each(RULESETS)('authorization matrix of a $id table', (rs) => {
  const seat = () => seatAt(rs);

  for (const action of rs.actions) {
    it(`${action.name}: every role, over HTTP and the WebSocket`, async () => {
      for (const [via, send] of [['HTTP', sendHttp], ['WebSocket', sendWs]] as const) {
        for (const role of ROLES) {
          const s = await seat();
          const before = await snapshot(s);
          const got = await send(s, s.tokens[role], action.command(s));
          const want = action.expect[role];
          expect({ via, role, ...got }, `${action.name} as ${role} over ${via}`).toEqual({ via, role, ...want });
          if (want.status >= 400) expect(await snapshot(s), `${action.name} as ${role} over ${via} changed the table`).toEqual(before);
        }
      }
    }, 120_000);
  }
});

describe.each(RULESETS)('undo at a $id table names the version it was asked from', (rs) => {
  const undo = (seen?: number) => ({ type: 'undo', ...(seen === undefined ? {} : { seen }) });
  const stale: Outcome = { status: 422, code: 'stale' };

  it('none, or an older one, is refused; of two undos asked from one view only the first applies', async () => {
    const s = await seatAt(rs);
    const gm = s.tokens.gm!;
    const before = await snapshot(s);
    const seen = before.state.version as number;
    expect(await sendHttp(s, gm, undo())).toEqual({ status: 422, code: 'seen-required' });
    expect(await sendWs(s, gm, undo(seen - 1))).toEqual(stale);
    expect(await snapshot(s)).toEqual(before);
    // The owner acts after the GM looked: the GM's undo from the older view is refused, the action stays.
    expect(await sendHttp(s, s.tokens.owner, rs.ownerAction(s))).toEqual(ok);
    const acted = await snapshot(s);
    expect(await sendHttp(s, gm, undo(seen))).toEqual(stale);
    expect(await snapshot(s)).toEqual(acted);
    // Two GM tabs press Undo on the same view at once, over two connections: one undo applies.
    const now = acted.state.version as number;
    const answers = await Promise.all([sendWs(s, gm, undo(now)), sendWs(s, gm, undo(now))]);
    expect(answers).toContainEqual(ok);
    expect(answers).toContainEqual(stale);
    const after = await snapshot(s);
    expect(after.state.version).toBe(now + 1);
    // What was taken back is the owner's action and nothing more.
    if (rs.id === 'd100') {
      expect(after.state.state.log).toEqual(before.state.state.log);
      expect(acted.state.state.log).not.toEqual(before.state.state.log);
    } else {
      expect(after.events.events.at(-1).event).toEqual({ type: 'undone', data: { target: now } });
      expect(after.events.events.find((e: { seq: number }) => e.seq === now).event.type).toBe('rolled');
    }
  }, 60_000);
});

describe.each(RULESETS)("a player's new character at a $id table tells nothing of hidden ones", (rs) => {
  it("the id of the GM's hidden character, a free id and a player's own are answered alike, each in the player's seat's space", async () => {
    const s = await seatAt(rs);
    const ids = (x: Awaited<ReturnType<typeof snapshot>>) => ((x.state.state.characters ?? x.state.state.combatants) as { id: string; controller?: string | null }[]).map((c) => [c.id, c.controller ?? null]);
    // "foe1" is the GM's hidden character; "ann1" is the owner's, and the other player's "ann1" is free.
    expect(await sendHttp(s, s.tokens.owner, rs.playerAdd('foe1'))).toEqual(ok);
    expect(await sendWs(s, s.tokens.owner, rs.playerAdd('free1'))).toEqual(ok);
    expect(await sendWs(s, s.tokens.other, rs.playerAdd('foe1'))).toEqual(ok);
    expect(await sendHttp(s, s.tokens.other, rs.playerAdd('ann1'))).toEqual(ok);
    const gm = await snapshot(s);
    expect(ids(gm)).toEqual(
      expect.arrayContaining([
        ['foe1', null],
        [`${s.ids.owner}:foe1`, s.ids.owner],
        [`${s.ids.owner}:free1`, s.ids.owner],
        [`${s.ids.other}:foe1`, s.ids.other],
        [`${s.ids.other}:ann1`, s.ids.other],
      ]),
    );
    // Only the player's own characters can hold an id in their space; no one may choose an id in one.
    expect(await sendHttp(s, s.tokens.owner, rs.playerAdd('free1'))).toMatchObject({ status: 422 });
    for (const token of [s.tokens.owner, s.tokens.gm]) expect(await sendWs(s, token, rs.playerAdd(`${s.ids.other}:x`))).toEqual({ status: 422, code: 'bad-id' });
    expect(await snapshot(s)).toEqual(gm);
  }, 60_000);
});
