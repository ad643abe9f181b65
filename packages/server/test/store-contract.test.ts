import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CommandRecord, type EventRecord, type NewTable, type Store } from '../src/store';
import { hashToken } from '../src/tokens';
import { openTestStore, reopenTestStore, runPg, type StoreKind, type TestStore } from './helpers';

const now = '2025-01-01T00:00:00.000Z';

function table(id: string, overrides: Partial<NewTable> = {}): NewTable {
  return {
    table: { id, name: `Table ${id}`, createdAt: now, ruleset: 'personae', settings: { physicalDice: false }, version: 0 },
    inviteHash: hashToken(`invite-${id}`),
    observerHash: hashToken(`observer-${id}`),
    participants: [
      {
        participant: { id: 'gm1', role: 'gm', displayName: 'GM', joinedAt: now, removedAt: null },
        tokenHash: hashToken(`gm-${id}`),
      },
    ],
    events: [],
    ...overrides,
  };
}

function events(from: number, n: number, commandId: string, participantId = 'gm1'): EventRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    seq: from + i,
    at: now,
    participantId,
    commandId,
    event: { type: 'tick', i: from + i, nested: { list: [1, 'two', null], text: 'ünïcødé \u2603' } },
  }));
}

function command(commandId: string, firstSeq: number | null, lastSeq: number | null, versionAfter: number, participantId = 'gm1'): CommandRecord {
  return { participantId, commandId, commandHash: `hash-${commandId}`, firstSeq, lastSeq, versionAfter, at: now };
}

const kinds: Array<{ kind: StoreKind; enabled: boolean }> = [
  { kind: 'sqlite', enabled: true },
  { kind: 'postgres', enabled: runPg },
];

for (const { kind, enabled } of kinds) {
  describe.skipIf(!enabled)(`store contract: ${kind}`, () => {
    let ts: TestStore;
    let store: Store;
    beforeEach(async () => {
      ts = await openTestStore(kind);
      store = ts.store;
    });
    afterEach(async () => {
      await ts.cleanup();
    });
    const reopen = (location: string) => reopenTestStore(kind, location);

    it('reports its kind and answers ping', async () => {
      expect(store.kind).toBe(kind);
      await store.ping();
    });

    it('creates and reads tables and participants', async () => {
      await store.createTable(table('a'));
      expect(await store.getTable('a')).toEqual({
        id: 'a',
        name: 'Table a',
        createdAt: now,
        ruleset: 'personae',
        settings: { physicalDice: false },
        version: 0,
      });
      expect(await store.getTable('missing')).toBeNull();
      await store.createTable({ ...table('b'), table: { ...table('b').table, ruleset: 'd100', settings: { physicalDice: true, preset: 'ffg-margin', options: { degrees: 'margin' } } } });
      expect(await store.getTable('b')).toMatchObject({ ruleset: 'd100', settings: { physicalDice: true, preset: 'ffg-margin', options: { degrees: 'margin' } } });
      expect(await store.listParticipants('a')).toEqual([
        { id: 'gm1', role: 'gm', displayName: 'GM', joinedAt: now, removedAt: null },
      ]);
      await expect(store.createTable(table('a'))).rejects.toThrow();
    });

    it('authenticates participants and the observer link by digest, per table', async () => {
      await store.createTable(table('a'));
      await store.createTable(table('b'));
      expect(await store.authenticate('a', hashToken('gm-a'))).toMatchObject({ kind: 'participant', participant: { id: 'gm1', role: 'gm' } });
      expect(await store.authenticate('a', hashToken('observer-a'))).toEqual({ kind: 'observer' });
      expect(await store.authenticate('a', hashToken('gm-b'))).toBeNull();
      expect(await store.authenticate('a', hashToken('invite-a'))).toBeNull();
      expect(await store.authenticate('a', 'gm-a')).toBeNull();
      // Several digests at once: each one that matches on this table, with the same credential.
      const many = await store.authenticateMany('a', [hashToken('gm-a'), hashToken('observer-a'), hashToken('gm-b'), hashToken('invite-a'), 'gm-a']);
      expect([...many.keys()].sort()).toEqual([hashToken('gm-a'), hashToken('observer-a')].sort());
      expect(many.get(hashToken('gm-a'))).toEqual(await store.authenticate('a', hashToken('gm-a')));
      expect(many.get(hashToken('observer-a'))).toEqual({ kind: 'observer' });
      expect(await store.authenticateMany('b', [hashToken('observer-a')])).toEqual(new Map());
      expect(await store.authenticateMany('a', [])).toEqual(new Map());
    });

    it('joins through the current invite only, and rotates links', async () => {
      await store.createTable(table('a'));
      const ann = { id: 'p1', role: 'player' as const, displayName: 'Ann', joinedAt: now, removedAt: null };
      expect(await store.joinWithInvite('a', hashToken('wrong'), ann, hashToken('ann'))).toBe(false);
      expect(await store.joinWithInvite('a', hashToken('invite-a'), ann, hashToken('ann'))).toBe(true);
      expect((await store.listParticipants('a')).map((p) => p.id)).toEqual(['gm1', 'p1']);
      await store.rotateLink('a', 'invite', hashToken('invite-2'));
      const bob = { ...ann, id: 'p2', displayName: 'Bob' };
      expect(await store.joinWithInvite('a', hashToken('invite-a'), bob, hashToken('bob'))).toBe(false);
      expect(await store.joinWithInvite('a', hashToken('invite-2'), bob, hashToken('bob'))).toBe(true);
      await store.rotateLink('a', 'observer', hashToken('observer-2'));
      expect(await store.authenticate('a', hashToken('observer-a'))).toBeNull();
      expect(await store.authenticate('a', hashToken('observer-2'))).toEqual({ kind: 'observer' });
      await store.setParticipantToken('a', 'gm1', hashToken('gm-new'));
      expect(await store.authenticate('a', hashToken('gm-a'))).toBeNull();
      expect(await store.authenticate('a', hashToken('gm-new'))).toMatchObject({ kind: 'participant' });
    });

    it('removes a participant: their token stops working', async () => {
      await store.createTable(table('a'));
      const ann = { id: 'p1', role: 'player' as const, displayName: 'Ann', joinedAt: now, removedAt: null };
      await store.joinWithInvite('a', hashToken('invite-a'), ann, hashToken('ann'));
      expect(await store.removeParticipant('a', 'p1', '2025-01-02T00:00:00.000Z')).toBe(true);
      expect(await store.removeParticipant('a', 'p1', '2025-01-03T00:00:00.000Z')).toBe(false);
      expect(await store.authenticate('a', hashToken('ann'))).toBeNull();
      expect(await store.authenticateMany('a', [hashToken('ann')])).toEqual(new Map());
      expect((await store.listParticipants('a'))[1]).toMatchObject({ id: 'p1', removedAt: '2025-01-02T00:00:00.000Z' });
      await store.setParticipantToken('a', 'p1', hashToken('ann-again'));
      expect(await store.authenticate('a', hashToken('ann-again'))).toBeNull();
    });

    it('changes a table\'s settings, and keeps them across close and reopen', async () => {
      await store.createTable(table('a'));
      await store.createTable(table('b'));
      expect(await store.setSettings('a', { physicalDice: true })).toBe(true);
      expect(await store.setSettings('missing', { physicalDice: true })).toBe(false);
      expect((await store.getTable('a'))!.settings).toEqual({ physicalDice: true });
      expect((await store.getTable('b'))!.settings).toEqual({ physicalDice: false });
      await store.close();
      store = await reopen(ts.location);
      ts.store = store;
      expect(await store.getTable('a')).toMatchObject({ settings: { physicalDice: true }, version: 0 });
      expect(await store.setSettings('a', { physicalDice: false })).toBe(true);
      expect((await store.getTable('a'))!.settings).toEqual({ physicalDice: false });
    });

    it('keeps the sealed invite of each table, replaced by the next, across close and reopen', async () => {
      await store.createTable(table('a'));
      await store.createTable(table('b'));
      expect(await store.getSealedInvite('a')).toBeNull();
      await store.setSealedInvite('a', 'v1.first');
      await store.setSealedInvite('b', 'v1.other');
      await store.setSealedInvite('a', 'v1.second');
      await store.close();
      store = await reopen(ts.location);
      ts.store = store;
      expect(await store.getSealedInvite('a')).toBe('v1.second');
      expect(await store.getSealedInvite('b')).toBe('v1.other');
    });

    it('keeps, replaces and removes character portraits, byte for byte, across close and reopen', async () => {
      await store.createTable(table('a'));
      await store.createTable(table('b'));
      const png = { contentType: 'image/png', data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255, 1, 2]), digest: 'd1' };
      const webp = { contentType: 'image/webp', data: Buffer.from('RIFF\x10\0\0\0WEBPVP8 ', 'latin1'), digest: 'd2' };
      expect(await store.setPortrait('a', 'kestrel', png)).toBe(true);
      expect(await store.setPortrait('missing', 'kestrel', png)).toBe(false);
      expect(await store.getPortrait('a', 'kestrel')).toEqual(png);
      expect(await store.getPortrait('b', 'kestrel')).toBeNull();
      expect(await store.listPortraits('a')).toEqual({ kestrel: 'd1' });
      await store.close();
      store = await reopen(ts.location);
      ts.store = store;
      expect(await store.getPortrait('a', 'kestrel')).toEqual(png);
      expect(await store.setPortrait('a', 'kestrel', webp)).toBe(true);
      expect(await store.setPortrait('a', 'grask', png)).toBe(true);
      expect(await store.getPortrait('a', 'kestrel')).toEqual(webp);
      expect(await store.listPortraits('a')).toEqual({ kestrel: 'd2', grask: 'd1' });
      expect(await store.setPortrait('a', 'kestrel', null)).toBe(true);
      expect(await store.getPortrait('a', 'kestrel')).toBeNull();
      expect(await store.listPortraits('a')).toEqual({ grask: 'd1' });
    });

    it('stores an imported table\'s portraits with its events, in one transaction: a failed import leaves no portrait', async () => {
      const png = { contentType: 'image/png', data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7]), digest: 'd1' };
      const imported = (id: string, n: number) => ({ ...table(id), table: { ...table(id).table, version: n }, events: events(1, n, 'c1') });
      await store.createTable({ ...imported('a', 3), portraits: [{ characterId: 'kestrel', portrait: png }] });
      expect(await store.getPortrait('a', 'kestrel')).toEqual(png);
      // The second portrait cannot be stored (no image), after the events and the first portrait were:
      // nothing of the table is left, whether its events went in one message or in staged parts.
      const broken = [{ characterId: 'kestrel', portrait: png }, { characterId: 'grask', portrait: { ...png, data: null as unknown as Buffer } }];
      for (const [id, n] of [['b', 3], ['c', 450]] as const) {
        await expect(store.createTable({ ...imported(id, n), portraits: broken })).rejects.toThrow();
        expect(await store.getTable(id)).toBeNull();
        expect(await store.listPortraits(id)).toEqual({});
        expect(await store.getPortrait(id, 'kestrel')).toBeNull();
        expect(await store.readEvents(id, 0)).toEqual([]);
      }
      await store.createTable({ ...imported('b', 3), portraits: [{ characterId: 'grask', portrait: png }] });
      expect(await store.listPortraits('b')).toEqual({ grask: 'd1' });
    });

    it('appends events with their command in one step and reads them back in order', async () => {
      await store.createTable(table('a'));
      expect(await store.appendEvents('a', 0, events(1, 3, 'c1'), command('c1', 1, 3, 3))).toEqual({ ok: true });
      expect(await store.appendEvents('a', 3, events(4, 1, 'c2'), command('c2', 4, 4, 4))).toEqual({ ok: true });
      expect(await store.appendEvents('a', 4, [], command('c3', null, null, 4))).toEqual({ ok: true });
      expect((await store.getTable('a'))!.version).toBe(4);
      const all = await store.readEvents('a', 0);
      expect(all).toEqual([...events(1, 3, 'c1'), ...events(4, 1, 'c2')]);
      expect((await store.readEvents('a', 2, 1)).map((e) => e.seq)).toEqual([3]);
      expect(await store.readEvents('a', 4)).toEqual([]);
      expect(await store.getCommand('a', 'gm1', 'c1')).toEqual(command('c1', 1, 3, 3));
      expect(await store.getCommand('a', 'gm1', 'c3')).toEqual(command('c3', null, null, 4));
      expect(await store.getCommand('a', 'someone-else', 'c1')).toBeNull();
    });

    it('loads several tables at once exactly as one by one: unknown tables left out, empty logs empty, logs cut at the limit', async () => {
      await store.createTable(table('a'));
      await store.createTable(table('b'));
      await store.createTable(table('long', { table: { ...table('long').table, version: 7 }, events: events(1, 7, 'imp') }));
      await store.appendEvents('a', 0, events(1, 3, 'c1'), command('c1', 1, 3, 3));
      await store.appendEvents('a', 3, events(4, 2, 'c2'), command('c2', 4, 5, 5));
      const ann = { id: 'p1', role: 'player' as const, displayName: 'Ann', joinedAt: now, removedAt: null };
      const bob = { id: 'p2', role: 'player' as const, displayName: 'Bob', joinedAt: now, removedAt: null };
      expect(await store.joinWithInvite('a', hashToken('invite-a'), ann, hashToken('ann'))).toBe(true);
      expect(await store.joinWithInvite('a', hashToken('invite-a'), bob, hashToken('bob'))).toBe(true);
      expect(await store.removeParticipant('a', 'p1', now)).toBe(true);
      const ids = ['long', 'a', 'missing', 'b'];
      const limit = 4;
      const loads = await store.loadTables(ids, limit);
      expect([...loads.keys()].sort()).toEqual(['a', 'b', 'long']);
      for (const id of ['a', 'b', 'long']) {
        expect(loads.get(id)).toEqual({
          table: await store.getTable(id),
          participants: await store.listParticipants(id),
          events: await store.readEvents(id, 0, limit),
        });
      }
      // What the one-by-one reads give, spelled out: a removed participant stays in the list, in order.
      expect(loads.get('a')!.participants.map((p) => [p.id, p.removedAt])).toEqual([['gm1', null], ['p1', now], ['p2', null]]);
      expect(loads.get('a')!.events).toEqual([...events(1, 3, 'c1'), ...events(4, 1, 'c2')]);
      expect(loads.get('long')!.events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      expect(loads.get('b')!.events).toEqual([]);
      expect((await store.loadTables(['a'], 1000)).get('a')!.events).toHaveLength(5);
      expect(await store.loadTables(['missing'], 10)).toEqual(new Map());
      expect(await store.loadTables([], 10)).toEqual(new Map());
    });

    it('refuses a stale version and a repeated command without writing anything', async () => {
      await store.createTable(table('a'));
      await store.appendEvents('a', 0, events(1, 2, 'c1'), command('c1', 1, 2, 2));
      expect(await store.appendEvents('a', 1, events(2, 1, 'c2'), command('c2', 2, 2, 2))).toEqual({ ok: false, reason: 'conflict' });
      expect(await store.appendEvents('a', 2, events(3, 1, 'c1'), command('c1', 3, 3, 3))).toEqual({
        ok: false,
        reason: 'duplicate_command',
      });
      expect((await store.getTable('a'))!.version).toBe(2);
      expect(await store.appendEvents('missing', 0, events(1, 1, 'c3'), command('c3', 1, 1, 1))).toEqual({ ok: false, reason: 'conflict' });
      expect((await store.readEvents('a', 0)).map((e) => e.commandId)).toEqual(['c1', 'c1']);
      expect(await store.getCommand('a', 'gm1', 'c2')).toBeNull();
      await expect(store.appendEvents('a', 2, events(5, 1, 'c9'), command('c9', 5, 5, 5))).rejects.toThrow(/seq/);
      // The same commandId from another participant is a different command.
      expect(await store.appendEvents('a', 2, events(3, 1, 'c1', 'p9'), command('c1', 3, 3, 3, 'p9'))).toEqual({ ok: true });
    });

    it('lets exactly one of several racing appends win', async () => {
      await store.createTable(table('a'));
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => store.appendEvents('a', 0, events(1, 1, `r${i}`), command(`r${i}`, 1, 1, 1))),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(await store.readEvents('a', 0)).toHaveLength(1);
    });

    it('stores appends to many tables made at once, each on its own: a refused one leaves the others written', async () => {
      const ids = Array.from({ length: 24 }, (_, i) => `m${i}`);
      await Promise.all(ids.map((id) => store.createTable(table(id))));
      // Every second table receives its next append as soon as its first is stored, while the
      // other tables' first appends may still be on their way.
      const first = ids.map((id, i) =>
        (i === 5
          ? store.appendEvents(id, 3, events(4, 1, `f-${id}`), command(`f-${id}`, 4, 4, 4))
          : store.appendEvents(id, 0, events(1, 1, `f-${id}`), command(`f-${id}`, 1, 1, 1))
        ).then(async (r) =>
          r.ok && i % 2 === 0 ? [r, await store.appendEvents(id, 1, events(2, 2, `s-${id}`), command(`s-${id}`, 2, 3, 3))] : [r],
        ),
      );
      const results = await Promise.all(first);
      expect(results[5]).toEqual([{ ok: false, reason: 'conflict' }]);
      for (const [i, id] of ids.entries()) {
        if (i === 5) {
          expect((await store.getTable(id))!.version).toBe(0);
          continue;
        }
        expect(results[i]).toEqual(i % 2 === 0 ? [{ ok: true }, { ok: true }] : [{ ok: true }]);
        const expected = i % 2 === 0 ? [...events(1, 1, `f-${id}`), ...events(2, 2, `s-${id}`)] : events(1, 1, `f-${id}`);
        expect(await store.readEvents(id, 0)).toEqual(expected);
        expect((await store.getTable(id))!.version).toBe(expected.length);
      }
    });

    it('creates a table with an imported event log', async () => {
      const log = events(1, 1500, 'imp');
      await store.createTable(table('imp', { table: { ...table('imp').table, version: 1500 }, events: log }));
      expect((await store.getTable('imp'))!.version).toBe(1500);
      const first = await store.readEvents('imp', 0);
      expect(first).toHaveLength(1000);
      const rest = await store.readEvents('imp', 1000, 1000);
      expect(rest.map((e) => e.seq)).toEqual(Array.from({ length: 500 }, (_, i) => 1001 + i));
      await expect(store.createTable(table('bad', { events: events(1, 2, 'x') }))).rejects.toThrow();
      expect(await store.getTable('bad')).toBeNull();
    });

    it('keeps everything across close and reopen', async () => {
      await store.createTable(table('a'));
      await store.appendEvents('a', 0, events(1, 2, 'c1'), command('c1', 1, 2, 2));
      await store.close();
      store = await reopen(ts.location);
      ts.store = store;
      expect((await store.getTable('a'))!.version).toBe(2);
      expect(await store.readEvents('a', 0)).toEqual(events(1, 2, 'c1'));
      expect(await store.getCommand('a', 'gm1', 'c1')).not.toBeNull();
    });
  });
}
