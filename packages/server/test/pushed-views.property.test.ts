import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededDice } from '@personae/dice';
import '@personae/rules';
import { applyStatePatch } from '../src/state-patch';
import { registryDomains } from '../src/rulesets';
import { TableHub, type Viewer } from '../src/tables';
import type { Actor } from '../src/domain';
import type { EventRecord, ParticipantRecord, Store, TableRecord } from '../src/store';
import { exampleSheet } from './helpers';

/**
 * The views the server pushes (a whole `state`, then `state-patch` changes built from views whose
 * parts are reused between states) against the view built from nothing: the stored events folded
 * again from the start into fresh objects, so that no part remembered for the served table takes
 * part. For random sequences of Personae commands (hidden characters added and revealed, hidden
 * rolls and encounter actions, whispers, undo and redo, secret rolls revealed), after every command,
 * for the GM, three players (one of them on two connections, one who never acts) and an observer:
 * players the domain puts in one audience get one view built for whichever of them came first.
 */

const AT = '2026-01-01T00:00:00.000Z';
const PEOPLE: ParticipantRecord[] = [
  { id: 'p_gm', role: 'gm', displayName: 'GM', joinedAt: AT, removedAt: null },
  { id: 'p_1', role: 'player', displayName: 'Ann', joinedAt: AT, removedAt: null },
  { id: 'p_2', role: 'player', displayName: 'Bo', joinedAt: AT, removedAt: null },
  { id: 'p_3', role: 'player', displayName: 'Cy', joinedAt: AT, removedAt: null },
];
const SEATS: Actor[] = [
  { role: 'gm', participantId: 'p_gm' },
  { role: 'player', participantId: 'p_1' },
  { role: 'player', participantId: 'p_2' },
  { role: 'player', participantId: 'p_2' },
  { role: 'observer', participantId: 'observer' },
  // Never sends a command: shares its view with the other players while the domain says they see the same.
  { role: 'player', participantId: 'p_3' },
];
const SHEETS = ['dwarf-iron-constitution.yaml', 'merchant-privateer-scoundrel.yaml', 'wounded-sellsword.yaml'].map(exampleSheet);

/** A table served by a hub over a store that keeps its events in memory. */
function servedTable(seed: number) {
  const record: TableRecord = { id: 't', name: 'Property', createdAt: AT, ruleset: 'personae', settings: { physicalDice: false }, version: 0 };
  const events: EventRecord[] = [];
  const store = {
    kind: 'sqlite',
    getTable: async () => record,
    listParticipants: async () => PEOPLE,
    readEvents: async (_id: string, after: number, limit: number) => events.filter((e) => e.seq > after).slice(0, limit),
    loadTables: async (ids: string[], limit: number) => new Map(ids.filter((id) => id === record.id).map((id) => [id, { table: record, participants: PEOPLE, events: events.slice(0, limit) }])),
    getCommand: async () => null,
    appendEvents: async (_id: string, _expected: number, records: EventRecord[]) => {
      events.push(...records);
      return { ok: true };
    },
  } as unknown as Store;
  const hub = new TableHub(store, registryDomains(), { info() {}, warn() {}, error() {} }, { dice: seededDice(seed), tableCommandRate: { burst: 1e9, perSecond: 1e9 } });
  const held = SEATS.map(() => ({ version: -1, state: undefined as unknown, base: -1 }));
  const viewers = SEATS.map((actor, i): Viewer => {
    const take = (m: any) => {
      const h = held[i]!;
      if (m.type === 'state') Object.assign(h, { version: m.version, state: JSON.parse(JSON.stringify(m.state)) });
      else if (m.type === 'state-patch') {
        expect(m.base, 'a patch applies to the view the connection holds').toBe(h.version);
        Object.assign(h, { version: m.version, state: applyStatePatch(h.state, m) });
      }
    };
    return { actor, tokenHash: `h${i}`, open: true, send: take, sendText: (text) => take(JSON.parse(text)), close() {} };
  });
  return { hub, events, held, viewers };
}

/** One step of play, made concrete against the table as it is when the step comes. */
const step = fc.record({
  kind: fc.constantFrom('add', 'add', 'visibility', 'owner', 'roll', 'roll', 'say', 'escalate', 'attack', 'end-turn', 'undo', 'redo', 'secret-reveal', 'reveal', 'remove'),
  seat: fc.integer({ min: 0, max: 3 }),
  a: fc.nat(5),
  b: fc.nat(5),
  hidden: fc.boolean(),
});
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

/** The GM's commands, sent by the GM in most steps (by a player now and then, to be refused). */
const GM_KINDS = new Set(['visibility', 'owner', 'undo', 'redo', 'secret-reveal', 'reveal', 'remove']);

/**
 * Every sequence starts in play: the dwarf of player p_1, a merchant hidden from the players, and
 * an encounter between them turned violent.
 */
const PRELUDE: Array<{ seat: number; command: (ids: string[]) => object }> = [
  { seat: 0, command: () => ({ type: 'add-character', sheet: SHEETS[0], owner: 'p_1' }) },
  { seat: 0, command: () => ({ type: 'add-character', sheet: SHEETS[1], hidden: true }) },
  { seat: 1, command: (ids) => ({ type: 'encounter', command: { type: 'escalate', actor: ids[0], to: 'non-violent' } }) },
  { seat: 1, command: (ids) => ({ type: 'encounter', command: { type: 'escalate', actor: ids[0], to: 'violent' } }) },
];

function commandFor(s: Step, ids: string[], version: number, seat: Actor, turn: string | undefined): object {
  const id = (n: number) => ids[n % Math.max(1, ids.length)] ?? 'nobody';
  switch (s.kind) {
    case 'add':
      return { type: 'add-character', sheet: SHEETS[s.a % SHEETS.length], hidden: s.hidden, ...(seat.role === 'gm' && s.b % 2 === 0 ? { owner: 'p_1' } : {}) };
    case 'visibility':
      return { type: 'set-visibility', id: id(s.a), hidden: s.hidden };
    case 'owner':
      return { type: 'set-owner', id: id(s.a), owner: s.b % 3 === 0 ? null : `p_${1 + (s.b % 2)}` };
    case 'roll':
      return { type: 'roll', actor: { name: 'Roller', dice: 1 + s.a }, reactor: { name: 'Opposition', dice: 1 + s.b }, hidden: s.hidden };
    case 'say':
      return { type: 'say', text: `words ${s.a}`, to: [null, 'gm', 'p_1', 'p_2'][s.b % 4] };
    case 'escalate':
      return { type: 'encounter', hidden: s.hidden, command: { type: 'escalate', actor: id(s.a), to: s.b % 2 === 0 ? 'non-violent' : 'violent' } };
    case 'attack':
      return { type: 'encounter', hidden: s.hidden, command: { type: 'attack', actor: s.a < 4 && turn ? turn : id(s.a), target: id(s.b) } };
    case 'end-turn':
      return { type: 'encounter', command: { type: 'end-turn', actor: s.a < 4 && turn ? turn : id(s.a) } };
    case 'undo':
    case 'redo':
      return { type: 'encounter', command: { type: s.kind, actor: 'gm' }, seen: version };
    case 'secret-reveal':
      return { type: 'secret-reveal', reveal: ['gm', 'scene', 'session'][s.a % 3] };
    case 'reveal':
      return { type: 'reveal' };
    case 'remove':
      return { type: 'remove-character', id: id(s.a) };
  }
}

describe('pushed views', () => {
  it('property: after every command each connection holds the view built from the stored events folded anew', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 40 }), fc.nat(1000), async (steps, seed) => {
        const { hub, events, held, viewers } = servedTable(seed);
        const t = await (hub as unknown as { get(id: string): Promise<{ viewers: Set<Viewer>; state: any; decider: any; version: number }> }).get('t');
        for (const v of viewers) t.viewers.add(v);
        const fresh = registryDomains().decider('personae', {});
        let n = 0;
        const plays = [...PRELUDE.map((p) => ({ seat: p.seat, command: p.command })), ...steps.map((s) => {
          const seatIndex = GM_KINDS.has(s.kind) && s.b > 0 ? 0 : s.seat;
          return { seat: seatIndex, command: (ids: string[]) => commandFor(s, ids, t.version, SEATS[seatIndex]!, t.state.encounter.now?.combat?.turn.actor) };
        })];
        for (const play of plays) {
          const ids = Object.keys(t.state.characters);
          await hub.commandFromViewer('t', viewers[play.seat]!, { commandId: `c${++n}`, command: play.command(ids) });
          if (events.length === 0) continue;
          let state = fresh.initialState();
          for (const rec of events) state = fresh.evolve(state, JSON.parse(JSON.stringify(rec.event)));
          SEATS.forEach((actor, i) => {
            expect(held[i]!.version).toBe(events.length);
            expect(held[i]!.state, `${actor.role} ${actor.participantId} after ${n} commands`).toEqual(JSON.parse(JSON.stringify(fresh.viewState(state, actor))));
          });
        }
      }),
      { numRuns: 40, seed: 20261126 },
    );
  }, 120_000);
});
