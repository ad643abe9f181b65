import { describe, expect, it } from 'vitest';
import { seededDice } from '@personae/dice';
import '@personae/rules';
import { registryDomains, type TableDomains } from '../src/rulesets';
import { TableHub, type Viewer } from '../src/tables';
import { hashToken } from '../src/tokens';
import type { Actor } from '../src/domain';
import type { Credential, EventRecord, ParticipantRecord, Store, TableRecord } from '../src/store';
import { exampleSheet } from './helpers';

/**
 * The clients of a table that moved to this node say hello together: each gets the view of its
 * audience, built once for all of that audience while the state stays the same, and built again
 * once it changes.
 */

const AT = '2026-01-01T00:00:00.000Z';
const SEATS: Actor[] = [
  { role: 'gm', participantId: 'p_gm' },
  { role: 'player', participantId: 'p_1' },
  { role: 'player', participantId: 'p_2' },
  { role: 'player', participantId: 'p_3' },
  { role: 'observer', participantId: 'observer' },
];
const PEOPLE: ParticipantRecord[] = SEATS.filter((a) => a.role !== 'observer').map((a) => ({
  id: a.participantId,
  role: a.role as ParticipantRecord['role'],
  displayName: a.participantId,
  joinedAt: AT,
  removedAt: null,
}));
const tokenOf = (i: number) => `token-${i}`;

function servedTable() {
  const record: TableRecord = { id: 't', name: 'Welcomes', createdAt: AT, ruleset: 'personae', settings: { physicalDice: false }, version: 0 };
  const events: EventRecord[] = [];
  const credentials = new Map<string, Credential>(
    SEATS.map((actor, i) => [
      hashToken(tokenOf(i)),
      actor.role === 'observer' ? { kind: 'observer' } : { kind: 'participant', participant: PEOPLE.find((p) => p.id === actor.participantId)! },
    ]),
  );
  const store = {
    kind: 'sqlite',
    getTable: async () => record,
    listParticipants: async () => PEOPLE,
    readEvents: async (_id: string, after: number, limit: number) => events.filter((e) => e.seq > after).slice(0, limit),
    loadTables: async (ids: string[], limit: number) =>
      new Map(ids.filter((id) => id === record.id).map((id) => [id, { table: record, participants: PEOPLE, events: events.slice(0, limit) }])),
    authenticateMany: async (_id: string, hashes: string[]) => new Map(hashes.flatMap((h) => (credentials.has(h) ? [[h, credentials.get(h)!]] : []))),
    getCommand: async () => null,
    appendEvents: async (_id: string, _expected: number, records: EventRecord[]) => {
      events.push(...records);
      return { ok: true };
    },
  } as unknown as Store;
  // Counts the views the hub builds.
  const built: Actor[] = [];
  const registry = registryDomains();
  const domains: TableDomains = {
    ids: () => registry.ids(),
    check: (ruleset, setup) => registry.check(ruleset, setup),
    decider(ruleset, setup) {
      const inner = registry.decider(ruleset, setup);
      return {
        ...inner,
        viewState(state: unknown, actor: Actor) {
          built.push(actor);
          return inner.viewState(state, actor);
        },
      } as typeof inner;
    },
  };
  const hub = new TableHub(store, domains, { info() {}, warn() {}, error() {} }, { dice: seededDice(7), tableCommandRate: { burst: 1e9, perSecond: 1e9 } });
  return { hub, events, built };
}

/** A connection that keeps every message it is sent. */
function connection(actor: Actor, i: number) {
  const messages: any[] = [];
  const viewer: Viewer = {
    actor,
    tokenHash: hashToken(tokenOf(i)),
    open: true,
    send: (m) => messages.push(JSON.parse(JSON.stringify(m))),
    sendText: (text) => messages.push(JSON.parse(text)),
    close() {},
  };
  return { viewer, messages };
}

/** Every seat says hello at once; returns what each connection was sent. */
async function helloAll(hub: TableHub<unknown, unknown, unknown>, since?: number) {
  const conns = SEATS.map((actor, i) => connection(actor, i));
  const results = await Promise.all(conns.map((c, i) => hub.subscribe('t', tokenOf(i), since, () => c.viewer)));
  for (const r of results) expect(r.ok).toBe(true);
  return conns;
}

describe('welcome views', () => {
  it('builds the view of each audience once for the hellos that come together, and again once the state changes', async () => {
    const { hub, events, built } = servedTable();
    const gm = connection(SEATS[0]!, 0);
    // A character hidden from the players, so that the GM's view and theirs differ.
    const added = await hub.commandFromViewer('t', gm.viewer, { commandId: 'c1', command: { type: 'add-character', sheet: exampleSheet('wounded-sellsword.yaml'), hidden: true } });
    expect(added.ok).toBe(true);
    expect(events.length).toBeGreaterThan(0);
    const fresh = registryDomains().decider('personae', {});
    let state = fresh.initialState();
    for (const rec of events) state = fresh.evolve(state, JSON.parse(JSON.stringify(rec.event)));

    built.length = 0;
    const first = await helloAll(hub);
    // The GM, the players (one audience while none of them holds anything hidden) and the observer.
    expect(built.map((a) => a.role).sort()).toEqual(['gm', 'observer', 'player']);
    SEATS.forEach((actor, i) => {
      const welcome = first[i]!.messages.find((m) => m.type === 'welcome');
      expect(welcome.version).toBe(events.length);
      expect(welcome.state, `${actor.role} ${actor.participantId}`).toEqual(JSON.parse(JSON.stringify(fresh.viewState(state, actor))));
    });
    expect(JSON.stringify(first[1]!.messages)).not.toContain('Sellsword');

    // Resuming at the version in memory: the same views serve, none is built.
    built.length = 0;
    const resumed = await helloAll(hub, events.length);
    expect(built).toEqual([]);
    for (const c of resumed) expect(c.messages.map((m) => m.type)).toEqual(['welcome', 'state-patch']);

    // A new state: the next hello gets a view of it, built anew.
    const said = await hub.commandFromViewer('t', gm.viewer, { commandId: 'c2', command: { type: 'say', text: 'hello there' } });
    expect(said.ok).toBe(true);
    built.length = 0;
    const late = connection(SEATS[2]!, 2);
    expect((await hub.subscribe('t', tokenOf(2), undefined, () => late.viewer)).ok).toBe(true);
    expect(built).toHaveLength(1);
    const welcome = late.messages.find((m) => m.type === 'welcome');
    expect(welcome.version).toBe(events.length);
    expect(JSON.stringify(welcome.state)).toContain('hello there');
  });
});
