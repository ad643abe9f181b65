import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personaeTable } from '@personae/rules';
import { createTable, exampleSheet, http, joinTable, relaxedLimits, startServer, type CreatedTable, type Running } from './helpers';

/**
 * The Personae table's own rules of who may do what, over HTTP against the real server: undo and
 * redo (the GM anything; a player only their own last action) and the caps on characters. Every
 * refusal must leave the table exactly as it was.
 */
type Role = 'gm' | 'owner' | 'other' | 'observer' | 'none' | 'foreign';
const ROLES: Role[] = ['gm', 'owner', 'other', 'observer', 'none', 'foreign'];

interface Seated {
  t: CreatedTable;
  tokens: Record<Role, string | undefined>;
  /** A character of the owner, one of the other player, and one of the GM's. */
  mine: string;
  theirs: string;
  npc: string;
}

let srv: Running;
let foreign: CreatedTable;
let n = 0;

beforeAll(async () => {
  srv = await startServer(personaeTable, { config: { ...relaxedLimits(), maxCharacters: 5, maxCharactersPerPlayer: 2 } });
  foreign = await createTable(srv.url, { name: 'Another table' });
});
afterAll(async () => {
  await srv.close();
});

async function send(s: Seated, token: string | undefined, command: unknown) {
  const res = await http(srv.url, 'POST', `/api/tables/${s.t.tableId}/commands`, { ...(token ? { token } : {}), body: { commandId: `c${++n}`, command } });
  return { status: res.status, code: res.body?.code as string | undefined, body: res.body };
}

async function gmState(s: Seated) {
  const res = await http(srv.url, 'GET', `/api/tables/${s.t.tableId}/state`, { token: s.t.gm.token });
  return res.body as { version: number; state: any };
}

/** A table with two players and the GM, each with a character, in a non-violent encounter the GM began. */
async function seat(): Promise<Seated> {
  const t = await createTable(srv.url);
  const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
  const bo = await joinTable(srv.url, t.tableId, t.invite.token, 'Bo');
  const s: Seated = {
    t,
    tokens: { gm: t.gm.token, owner: ann.token, other: bo.token, observer: t.observer.token, none: undefined, foreign: foreign.gm.token },
    mine: '',
    theirs: '',
    npc: '',
  };
  expect((await send(s, ann.token, { type: 'add-character', sheet: exampleSheet('dwarf-iron-constitution.yaml') })).status).toBe(200);
  expect((await send(s, bo.token, { type: 'add-character', sheet: exampleSheet('desert-elf-singing-warrior.yaml') })).status).toBe(200);
  expect((await send(s, t.gm.token, { type: 'add-character', sheet: exampleSheet('merchant-privateer-scoundrel.yaml') })).status).toBe(200);
  const characters = (await gmState(s)).state.characters as Array<{ id: string; owner: string | null }>;
  s.mine = characters.find((c) => c.owner === ann.participantId)!.id;
  s.theirs = characters.find((c) => c.owner === bo.participantId)!.id;
  s.npc = characters.find((c) => c.owner === null)!.id;
  expect((await send(s, t.gm.token, { type: 'encounter', command: { type: 'escalate', actor: s.npc, to: 'non-violent' } })).status).toBe(200);
  return s;
}

/** What a refused call must not change: the GM's view of the state. */
const snapshot = async (s: Seated) => JSON.stringify(await gmState(s));

const ok = { status: 200 };
const notYours = { status: 422, code: 'not-your-action' };
const outsiders = { observer: { status: 403, code: 'forbidden' }, none: { status: 401, code: 'unauthorized' }, foreign: { status: 401, code: 'unauthorized' } };

/** The actor a role names in its undo: its own character (the GM and outsiders name "gm"). */
const actorOf = (s: Seated, role: Role) => (role === 'owner' ? s.mine : role === 'other' ? s.theirs : 'gm');

interface Case {
  name: string;
  /** Brings the table to the situation (the owner's or the GM's action last, and so on). */
  arrange(s: Seated): Promise<void>;
  command(s: Seated, role: Role, seen: number): unknown;
  expect: Record<Role, { status: number; code?: string }>;
}

/** One action in the encounter, by the owner or the GM (a move of a character they control). */
const act = (s: Seated, role: 'owner' | 'gm', actor: string) =>
  send(s, s.tokens[role], { type: 'encounter', command: { type: 'move', actor, description: `step ${n}` } }).then((r) => expect(r.status).toBe(200));

const CASES: Case[] = [
  {
    name: "undo of the owner's own last action",
    arrange: (s) => act(s, 'owner', s.mine),
    command: (s, role, seen) => ({ type: 'encounter', command: { type: 'undo', actor: actorOf(s, role) }, seen }),
    expect: { gm: ok, owner: ok, other: notYours, ...outsiders },
  },
  {
    name: "undo when the GM's action came last",
    arrange: (s) => act(s, 'gm', s.npc),
    command: (s, role, seen) => ({ type: 'encounter', command: { type: 'undo', actor: actorOf(s, role) }, seen }),
    expect: { gm: ok, owner: notYours, other: notYours, ...outsiders },
  },
  {
    name: "undo further back than the owner's last action",
    arrange: async (s) => {
      await act(s, 'owner', s.mine);
      await act(s, 'owner', s.mine);
    },
    command: (s, role, seen) => ({ type: 'encounter', command: { type: 'undo', actor: actorOf(s, role), toSequence: 1 }, seen }),
    expect: { gm: ok, owner: { status: 422, code: 'not-your-action' }, other: notYours, ...outsiders },
  },
  {
    name: "redo of the owner's own undo",
    arrange: async (s) => {
      await act(s, 'owner', s.mine);
      const { version } = await gmState(s);
      expect((await send(s, s.tokens.owner, { type: 'encounter', command: { type: 'undo', actor: s.mine }, seen: version })).status).toBe(200);
    },
    command: (s, role, seen) => ({ type: 'encounter', command: { type: 'redo', actor: actorOf(s, role) }, seen }),
    expect: { gm: ok, owner: ok, other: { status: 422, code: 'not-your-action' }, ...outsiders },
  },
];

describe('who may undo: the GM anything, a player only their own last action', () => {
  for (const c of CASES) {
    it(`${c.name}: every role`, async () => {
      for (const role of ROLES) {
        const s = await seat();
        await c.arrange(s);
        const before = await snapshot(s);
        const seen = JSON.parse(before).version as number;
        const got = await send(s, s.tokens[role], c.command(s, role, seen));
        const want = c.expect[role];
        expect({ role, status: got.status, ...(want.code ? { code: got.code } : {}) }, `${c.name} as ${role}: ${JSON.stringify(got.body)}`).toEqual({ role, ...want });
        if (want.status >= 400) expect(await snapshot(s), `${c.name} as ${role} changed the table`).toBe(before);
        else expect((await gmState(s)).version).toBeGreaterThan(seen);
      }
    });
  }

  it("a player's undo names the version it was asked from: none, or an older one, is refused", async () => {
    const s = await seat();
    await act(s, 'owner', s.mine);
    const before = await snapshot(s);
    const seen = JSON.parse(before).version as number;
    expect(await send(s, s.tokens.owner, { type: 'encounter', command: { type: 'undo', actor: s.mine } })).toMatchObject({ status: 422, code: 'seen-required' });
    expect(await send(s, s.tokens.owner, { type: 'encounter', command: { type: 'undo', actor: s.mine }, seen: seen - 1 })).toMatchObject({ status: 422, code: 'stale' });
    expect(await snapshot(s)).toBe(before);
    // Two undos asked from the same version: the first applies, the second is refused.
    const [a, b] = await Promise.all([
      send(s, s.tokens.owner, { type: 'encounter', command: { type: 'undo', actor: s.mine }, seen }),
      send(s, s.tokens.gm, { type: 'encounter', command: { type: 'undo', actor: 'gm' }, seen }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 422]);
    expect([a.code, b.code]).toContain('stale');
  });

  it('the view offers undo to the player whose action came last, and to no other player or observer', async () => {
    const s = await seat();
    await act(s, 'owner', s.mine);
    const canUndo = async (role: Role) => (await http(srv.url, 'GET', `/api/tables/${s.t.tableId}/state`, { token: s.tokens[role]! })).body.state.canUndo;
    expect(await canUndo('gm')).toBe(true);
    expect(await canUndo('owner')).toBe(true);
    expect(await canUndo('other')).toBe(false);
    expect(await canUndo('observer')).toBe(false);
    await act(s, 'gm', s.npc);
    expect(await canUndo('owner')).toBe(false);
  });
});

describe('caps on characters', () => {
  it('a player owns at most maxCharactersPerPlayer characters, and a table holds at most maxCharacters', async () => {
    const s = await seat();
    // Ann plays one; a second is allowed, a third is refused.
    expect((await send(s, s.tokens.owner, { type: 'add-character', sheet: exampleSheet('wounded-sellsword.yaml') })).status).toBe(200);
    let before = await snapshot(s);
    expect(await send(s, s.tokens.owner, { type: 'add-character', sheet: exampleSheet('post-civil-war-entrepreneur.yaml') })).toMatchObject({
      status: 422,
      code: 'too-many-characters-per-player',
      body: { field: 'owner' },
    });
    // The GM cannot hand her another one either, by adding it for her or by a change of owner.
    const annId = JSON.parse(before).state.characters.find((c: { id: string }) => c.id === s.mine).owner as string;
    expect((await send(s, s.tokens.gm, { type: 'add-character', owner: annId, sheet: exampleSheet('wounded-sellsword.yaml') })).code).toBe('too-many-characters-per-player');
    expect((await send(s, s.tokens.gm, { type: 'set-owner', id: s.npc, owner: annId })).code).toBe('too-many-characters-per-player');
    expect(await snapshot(s)).toBe(before);
    // Four at the table; the GM adds a fifth, and a sixth is refused for everyone.
    expect((await send(s, s.tokens.gm, { type: 'add-character', sheet: exampleSheet('northern-beastmaster.yaml') })).status).toBe(200);
    before = await snapshot(s);
    expect(await send(s, s.tokens.gm, { type: 'add-character', sheet: exampleSheet('post-civil-war-entrepreneur.yaml') })).toMatchObject({ status: 422, code: 'too-many-characters' });
    expect((await send(s, s.tokens.other, { type: 'add-character', sheet: exampleSheet('post-civil-war-entrepreneur.yaml') })).code).toBe('too-many-characters');
    expect(await snapshot(s)).toBe(before);
    // Room again once the GM removes one.
    expect((await send(s, s.tokens.gm, { type: 'remove-character', id: s.npc })).status).toBe(200);
    expect((await send(s, s.tokens.other, { type: 'add-character', sheet: exampleSheet('post-civil-war-entrepreneur.yaml') })).status).toBe(200);
  });

  it("the GM's hidden characters do not fill the table for a player: he is answered as at a table without them", async () => {
    const s = await seat();
    // Three seen; the GM's two hidden ones make five, and the GM can add no more.
    for (const file of ['northern-beastmaster.yaml', 'wounded-sellsword.yaml']) {
      expect((await send(s, s.tokens.gm, { type: 'add-character', sheet: exampleSheet(file), hidden: true })).status).toBe(200);
    }
    const before = await snapshot(s);
    expect(await send(s, s.tokens.gm, { type: 'add-character', sheet: exampleSheet('post-civil-war-entrepreneur.yaml') })).toMatchObject({ status: 422, code: 'too-many-characters' });
    expect(await snapshot(s)).toBe(before);
    // Bo sees three characters, as at a table where the GM holds none hidden: his second is taken.
    expect((await send(s, s.tokens.other, { type: 'add-character', sheet: exampleSheet('post-civil-war-entrepreneur.yaml') })).status).toBe(200);
  });
});
