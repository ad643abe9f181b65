import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import '@personae/d100';
import '@personae/lucidity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createServer, type TableServer } from '../src/server';
import { createTable, http, joinTable, openTestStore, relaxedLimits, type CreatedTable, type TestStore } from './helpers';

/**
 * Property-based fuzzing of the d100 and Lucidity tables' commands over the real server (the
 * transport and the Personae table are fuzzed in fuzz.test.ts): every command type with hostile
 * fields and prototype-key ids, from the GM, a player and an observer. Nothing answers 5xx, a
 * refusal changes nothing, and every view still loads afterwards, after a restart too.
 */
const example = (path: string) => parse(readFileSync(new URL(`../../../examples/${path}`, import.meta.url), 'utf8')) as Record<string, unknown>;
const PROTO_WORDS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

const leaf = fc.oneof(
  fc.constantFrom(...PROTO_WORDS, 'ann1', 'foe1', 'party', 'foe', 'right', 'melee'),
  fc.constantFrom('', 'x'.repeat(3000), NaN, Infinity, -1, 0, 1, 7, 100, 2 ** 53 + 1, 0.5, true, false, null),
  fc.string({ maxLength: 12 }),
  fc.integer({ min: -5, max: 120 }),
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 3 }),
  object: fc.dictionary(fc.oneof(fc.constantFrom(...PROTO_WORDS), fc.string({ maxLength: 8 })), tie('value'), { maxKeys: 3 }),
})).value;

interface Ruleset {
  id: 'd100' | 'lucidity';
  types: string[];
  /** Field names the ruleset's commands use, filled with hostile values. */
  fields: string[];
  setUp(send: (token: string, command: unknown) => Promise<number>, t: CreatedTable, player: string): Promise<void>;
}

const RULESETS: Ruleset[] = [
  {
    id: 'd100',
    types: ['set-options', 'add-character', 'set-controller', 'start', 'attack', 'test', 'disengage', 'flee', 'grapple', 'escape-grapple', 'baton-pass', 'all-out-attack', 'defend', 'protect', 'place', 'move', 'set-terrain', 'movement-test', 'restore-wounds', 'treat-injuries', 'inflict-ailment', 'set-condition', 'spend-fate', 'use-resource', 'end-turn', 'undo'],
    fields: ['id', 'attacker', 'defender', 'who', 'target', 'controller', 'sheet', 'score', 'skill', 'ailment', 'dice', 'hand', 'chance', 'preset', 'options', 'to'],
    async setUp(send, t, player) {
      expect(await send(player, { type: 'add-character', id: 'ann1', sheet: example('d100/evoker-makoto.yaml') })).toBe(200);
      expect(await send(t.gm.token, { type: 'add-character', id: 'foe1', sheet: example('d100/shadow-pixie.yaml') })).toBe(200);
    },
  },
  {
    id: 'lucidity',
    types: ['add', 'start', 'attack', 'roll', 'lucidity-roll', 'move', 'help', 'ready', 'damage', 'exploit', 'wingman', 'narrative', 'begin-casting', 'cast', 'rest', 'award-xp', 'level-up', 'reveal', 'set-controller', 'end-turn', 'undo', 'redo'],
    fields: ['id', 'actor', 'target', 'side', 'hidden', 'controller', 'sheet', 'statBlock', 'dice', 'weapon', 'attribute', 'amount', 'against', 'gmModifier', 'spell'],
    async setUp(send, t, player) {
      expect(await send(player, { type: 'add', id: 'ann1', side: 'party', sheet: example('lucidity/characters/ana-vell.yaml') })).toBe(200);
      const bandit = { name: 'Bandit', attributes: { STR: 1, DEX: 1, AWA: 0 }, defense: 11, protection: 2, health: 9, weapons: [{ name: 'Club', damage: '1d6' }] };
      expect(await send(t.gm.token, { type: 'add', id: 'foe1', side: 'foe', hidden: true, statBlock: bandit })).toBe(200);
    },
  },
];

describe.each(RULESETS)('fuzzing the commands of a $id table', (rs) => {
  let testStore: TestStore;
  let server: TableServer;
  let url: string;
  let t: CreatedTable;
  let ann: { participantId: string; token: string };
  let n = 0;
  const config = () => ({ host: '127.0.0.1', port: 0, logLevel: 'silent' as const, ...relaxedLimits(), store: testStore.store });
  const send = async (token: string, command: unknown) =>
    (await http(url, 'POST', `/api/tables/${t.tableId}/commands`, { token, body: { commandId: `f${++n}`, command } })).status;
  const version = async () => (await http(url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.version as number;

  beforeAll(async () => {
    testStore = await openTestStore('sqlite');
    server = await createServer(config());
    ({ url } = await server.listen());
    t = await createTable(url, { name: `Fuzz ${rs.id}`, ruleset: rs.id });
    ann = await joinTable(url, t.tableId, t.invite.token, 'Ann');
    await rs.setUp(send, t, ann.token);
  });
  afterAll(async () => {
    await server.close();
    await testStore.cleanup();
  });

  it('never answers 5xx; a refused command changes nothing', async () => {
    const command = fc
      .tuple(fc.constantFrom(...rs.types), fc.dictionary(fc.constantFrom(...rs.fields, ...PROTO_WORDS), value, { maxKeys: 4 }), fc.constantFrom(...PROTO_WORDS, 'ann1', 'foe1'))
      .map(([type, fields, id]) => ({ id, ...fields, type }));
    await fc.assert(
      fc.asyncProperty(command, fc.constantFrom('gm', 'player', 'observer'), async (cmd, who) => {
        const token = who === 'gm' ? t.gm.token : who === 'player' ? ann.token : t.observer.token;
        const before = await version();
        const res = await http(url, 'POST', `/api/tables/${t.tableId}/commands`, { token, body: { commandId: `f${++n}`, command: cmd } });
        expect(res.status, JSON.stringify(cmd).slice(0, 300)).toBeLessThan(500);
        if (res.status >= 400) {
          expect(res.body?.type).toBe('error');
          expect(await version()).toBe(before);
        }
        if (who === 'observer') expect(res.status).toBeGreaterThanOrEqual(400);
      }),
      { numRuns: 120 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('every view still loads, after a restart too, and the export imports', async () => {
    const views = async () =>
      Promise.all([t.gm.token, ann.token, t.observer.token].map(async (token) => (await http(url, 'GET', `/api/tables/${t.tableId}/state`, { token })).status));
    expect(await views()).toEqual([200, 200, 200]);
    await server.close();
    server = await createServer(config());
    ({ url } = await server.listen());
    expect(await views()).toEqual([200, 200, 200]);
    const exported = await http(url, 'GET', `/api/tables/${t.tableId}/export`, { token: t.gm.token });
    expect(exported.status).toBe(200);
    const imported = await http(url, 'POST', '/api/tables/import', { body: exported.body });
    expect(imported.status).toBe(201);
  });
});
