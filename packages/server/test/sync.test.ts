import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../src/server';
import { secretDecider } from './fixtures/secret-decider';
import {
  connectAs,
  createTable,
  http,
  joinTable,
  openTestStore,
  relaxedLimits,
  runPg,
  sleep,
  TestClient,
  type Running,
  type StoreKind,
} from './helpers';

function expectContiguous(seqs: number[], from: number, to: number) {
  expect(seqs).toEqual(Array.from({ length: to - from + 1 }, (_, i) => from + i));
}

for (const kind of ['sqlite', 'postgres'] as StoreKind[]) {
  describe.skipIf(kind === 'postgres' && !runPg)(`ordering, resume, retries and conflicts (${kind})`, () => {
    let srv: Running;
    beforeAll(async () => {
      const { startServer } = await import('./helpers');
      srv = await startServer(secretDecider, { kind, config: relaxedLimits(500) });
    });
    afterAll(async () => {
      await srv.close();
    });

    it('resumes after a reconnect with exactly the missed events, across checkpoints', async () => {
      const t = await createTable(srv.url);
      const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
      const gm = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
      const a = await connectAs(srv.wsUrl, t.tableId, ann.token);
      await gm.client.command('g1', { type: 'roll', count: 1 });
      await gm.client.command('g2', { type: 'burst', n: 3 });
      await a.client.untilSeq(4);
      const seen = a.client.events().map((e) => e.seq);
      expectContiguous(seen, 1, 4);
      a.client.close();
      await a.client.closed;

      // 300 more events while Ann is away: past the 256-event checkpoint.
      for (let i = 0; i < 6; i++) await gm.client.command(`b${i}`, { type: 'burst', n: 50 });
      await gm.client.command('g3', { type: 'create', characterId: 'x', name: 'X', secret: 'hidden-x' });

      const back = await connectAs(srv.wsUrl, t.tableId, ann.token, 4);
      expect(back.welcome.version).toBe(305);
      expect(back.welcome.state).toBeUndefined();
      await back.client.untilSeq(305);
      expectContiguous(back.client.events().map((e) => e.seq), 5, 305);
      expect(back.client.events().at(-1)!.event).toMatchObject({ type: 'created', secret: null });
      expect(back.client.events().find((e) => e.seq === 300)!.event).toEqual({ type: 'tick', i: 299 });

      await gm.client.command('g4', { type: 'roll', count: 1 });
      await back.client.untilSeq(306);
      expectContiguous(back.client.events().map((e) => e.seq), 5, 306);

      // A recent `since` is served from the events the server keeps in memory: the same events,
      // redacted the same way, as those read back from the store above.
      const recent = await connectAs(srv.wsUrl, t.tableId, ann.token, 250);
      await recent.client.untilSeq(306);
      expect(recent.client.events()).toEqual(back.client.events().filter((e) => e.seq > 250));
      recent.client.close();

      const ahead = await connectAs(srv.wsUrl, t.tableId, ann.token, 999);
      expect(ahead.welcome).toMatchObject({ resync: true, version: 306 });
      expect(ahead.welcome.state.ticks).toBe(303);
      for (const c of [gm, back, ahead]) c.client.close();
    });

    it('loses and repeats nothing when a client reconnects while others keep writing', async () => {
      const t = await createTable(srv.url);
      const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
      const gm = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
      const writing = (async () => {
        for (let i = 0; i < 120; i++) await gm.client.command(`w${i}`, { type: 'roll', count: 1 });
      })();
      let last = 0;
      const received: number[] = [];
      for (let round = 0; round < 6; round++) {
        const { client } = await connectAs(srv.wsUrl, t.tableId, ann.token, last);
        await sleep(15);
        client.close();
        await client.closed;
        const seqs = client.events().map((e) => e.seq);
        received.push(...seqs);
        if (seqs.length) last = seqs.at(-1)!;
      }
      await writing;
      const { client, welcome } = await connectAs(srv.wsUrl, t.tableId, ann.token, last);
      expect(welcome.version).toBe(120);
      if (last < 120) await client.untilSeq(120);
      received.push(...client.events().map((e) => e.seq));
      expectContiguous(received, 1, 120);
      client.close();
      gm.client.close();
    });

    it('applies a command retried with the same commandId once and returns the original result', async () => {
      const t = await createTable(srv.url);
      const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
      const a = await connectAs(srv.wsUrl, t.tableId, ann.token);
      const first = await a.client.command('same', { type: 'roll', count: 2 });
      expect(first).toEqual({ type: 'ack', commandId: 'same', firstSeq: 1, lastSeq: 1, version: 1 });
      const retry = await a.client.command('same', { type: 'roll', count: 2 });
      expect(retry).toEqual({ ...first, duplicate: true });

      // Sent twice without waiting: still once.
      a.client.send({ type: 'command', commandId: 'twice', command: { type: 'burst', n: 2 } });
      a.client.send({ type: 'command', commandId: 'twice', command: { type: 'burst', n: 2 } });
      const acks = [
        await a.client.waitFor((m) => m.type === 'ack' && m.commandId === 'twice'),
        await a.client.waitFor((m) => m.type === 'ack' && m.commandId === 'twice'),
      ];
      expect(acks.map((m) => m.duplicate ?? false)).toEqual([false, true]);
      expect(acks[1]).toMatchObject({ firstSeq: 2, lastSeq: 3 });

      // From a new connection, and over HTTP.
      a.client.close();
      const again = await connectAs(srv.wsUrl, t.tableId, ann.token, 3);
      expect(await again.client.command('same', { type: 'roll', count: 2 })).toEqual({ ...first, duplicate: true });
      const viaHttp = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, {
        token: ann.token,
        body: { commandId: 'same', command: { type: 'roll', count: 2 } },
      });
      expect(viaHttp.body).toEqual({ ...first, duplicate: true });

      // Reusing the id for something else is refused.
      const reused = await again.client.command('same', { type: 'roll', count: 3 });
      expect(reused).toMatchObject({ type: 'error', code: 'command_id_reused', commandId: 'same' });

      // A command with no events is remembered too.
      const noop = await again.client.command('n1', { type: 'noop' });
      expect(noop).toEqual({ type: 'ack', commandId: 'n1', firstSeq: null, lastSeq: null, version: 3 });
      expect(await again.client.command('n1', { type: 'noop' })).toEqual({ ...noop, duplicate: true });

      const state = await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token });
      expect(state.body.version).toBe(3);
      expect(state.body.state.rolls).toHaveLength(1);
      expect(again.client.events().map((e) => e.seq)).toEqual([]);
      again.client.close();
    });

    it('refuses a command whose expectedVersion is stale with conflict', async () => {
      const t = await createTable(srv.url);
      const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
      const gm = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
      const a = await connectAs(srv.wsUrl, t.tableId, ann.token);
      await gm.client.command('c0', { type: 'create', characterId: 'ash', name: 'Ash', secret: 's', owner: ann.participantId });

      // Both edit the same character believing the table is at version 1.
      gm.client.send({ type: 'command', commandId: 'gm-edit', expectedVersion: 1, command: { type: 'rename', characterId: 'ash', name: 'GM name' } });
      a.client.send({ type: 'command', commandId: 'ann-edit', expectedVersion: 1, command: { type: 'rename', characterId: 'ash', name: 'Ann name' } });
      const results = [
        await gm.client.waitFor((m) => m.type !== 'event' && m.commandId === 'gm-edit'),
        await a.client.waitFor((m) => m.type !== 'event' && m.commandId === 'ann-edit'),
      ];
      expect(results.filter((r) => r.type === 'ack')).toHaveLength(1);
      const conflict = results.find((r) => r.type === 'error')!;
      expect(conflict).toMatchObject({ code: 'conflict', currentVersion: 2 });

      const state = await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token });
      expect(state.body.version).toBe(2);
      const winner = results.find((r) => r.type === 'ack')!.commandId === 'gm-edit' ? 'GM name' : 'Ann name';
      expect(state.body.state.characters.ash.name).toBe(winner);

      // A retry of the applied command still returns its ack, not a conflict.
      const applied = results.find((r) => r.type === 'ack')!;
      const client = applied.commandId === 'gm-edit' ? gm.client : a.client;
      const retried = await client.command(applied.commandId, { type: 'rename', characterId: 'ash', name: winner }, { expectedVersion: 1 });
      expect(retried).toMatchObject({ type: 'ack', duplicate: true });

      expect(await a.client.command('fresh', { type: 'rename', characterId: 'ash', name: 'Again' }, { expectedVersion: 2 })).toMatchObject({
        type: 'ack',
        version: 3,
      });
      gm.client.close();
      a.client.close();
    });

    it('serializes concurrent commands from many clients into one gap-free order that every client sees', async () => {
      const t = await createTable(srv.url);
      const players = await Promise.all(['A', 'B', 'C', 'D'].map((n) => joinTable(srv.url, t.tableId, t.invite.token, n)));
      const clients = [
        (await connectAs(srv.wsUrl, t.tableId, t.gm.token)).client,
        ...(await Promise.all(players.map(async (p) => (await connectAs(srv.wsUrl, t.tableId, p.token)).client))),
      ];
      const perClient = 25;
      clients.forEach((c, ci) => {
        for (let i = 0; i < perClient; i++) c.send({ type: 'command', commandId: `c${ci}-${i}`, command: { type: 'roll', count: 1 } });
      });
      const acks = await Promise.all(
        clients.flatMap((c, ci) =>
          Array.from({ length: perClient }, (_, i) => c.waitFor((m) => m.commandId === `c${ci}-${i}` && m.type === 'ack', 30_000)),
        ),
      );
      const total = clients.length * perClient;
      expect(acks.map((a) => a.firstSeq).sort((x, y) => x - y)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      for (const c of clients) {
        await c.untilSeq(total);
        expectContiguous(c.events().map((e) => e.seq), 1, total);
      }
      // Each client's own commands were applied in the order it sent them.
      clients.forEach((c, ci) => {
        const mine = acks.filter((a) => a.commandId.startsWith(`c${ci}-`)).map((a) => a.firstSeq);
        expect(mine).toEqual([...mine].sort((x, y) => x - y));
      });
      for (const c of clients) c.close();
    });

    it('records entered physical dice and refuses them where the table does not allow them', async () => {
      const physical = await createTable(srv.url, { name: 'Dice on the table', settings: { physicalDice: true } });
      const gm = await connectAs(srv.wsUrl, physical.tableId, physical.gm.token);
      const ack = await gm.client.command('d1', { type: 'roll', count: 3 }, { dice: { roll: [7, 5, 10] } });
      expect(ack.type).toBe('ack');
      const ev = await gm.client.waitFor((m) => m.type === 'event' && m.seq === 1);
      expect(ev.event).toEqual({ type: 'rolled', by: physical.gm.participantId, dice: [7, 5, 10], entered: true });
      expect(await gm.client.command('d2', { type: 'roll', count: 3 }, { dice: { roll: [7, 5] } })).toMatchObject({ code: 'dice-count', field: 'dice.roll' });
      expect(await gm.client.command('d3', { type: 'roll', count: 1 }, { dice: { roll: [7, 5] } })).toMatchObject({ code: 'dice-count', field: 'dice.roll' });
      expect(await gm.client.command('d3b', { type: 'roll', count: 1 }, { dice: { actor: [7] } })).toMatchObject({ code: 'dice-pool', field: 'dice.actor' });
      expect(await gm.client.command('d4', { type: 'roll', count: 1 }, { dice: { roll: [0] } })).toMatchObject({ code: 'invalid_message', field: 'dice.roll.0' });
      expect(await gm.client.command('d4b', { type: 'roll', count: 1 }, { dice: [7] })).toMatchObject({ code: 'invalid_message', field: 'dice' });
      const rolled = await gm.client.command('d5', { type: 'roll', count: 2 });
      expect(rolled.type).toBe('ack');
      const crypto = await gm.client.waitFor((m) => m.type === 'event' && m.seq === 2);
      expect(crypto.event.entered).toBe(false);
      expect(crypto.event.dice).toHaveLength(2);
      gm.client.close();

      const virtual = await createTable(srv.url);
      const g2 = await connectAs(srv.wsUrl, virtual.tableId, virtual.gm.token);
      // The GM fills any pool; a player, only at a table that takes physical dice.
      expect(await g2.client.command('d1', { type: 'roll', count: 1 }, { dice: { roll: [4] } })).toMatchObject({ type: 'ack' });
      const ann = await joinTable(srv.url, virtual.tableId, virtual.invite.token, 'Ann');
      const a2 = await connectAs(srv.wsUrl, virtual.tableId, ann.token);
      expect(await a2.client.command('d1', { type: 'roll', count: 1 }, { dice: { roll: [4] } })).toMatchObject({ code: 'physical-dice-off', field: 'dice.roll' });
      a2.client.close();
      g2.client.close();
    });

    it('treats undo as one more event', async () => {
      const t = await createTable(srv.url);
      const gm = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
      expect(await gm.client.command('u0', { type: 'undo' })).toMatchObject({ code: 'nothing_to_undo' });
      await gm.client.command('r1', { type: 'roll', count: 1 });
      expect(await gm.client.command('u1', { type: 'undo' })).toMatchObject({ type: 'ack', firstSeq: 2 });
      const state = await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token });
      expect(state.body).toMatchObject({ version: 2, state: { rolls: [] } });
      gm.client.close();
    });

    it('rebuilds the same state from the store after a restart', async () => {
      const ts = await openTestStore(kind);
      const first = await createServer({ host: '127.0.0.1', port: 0, logLevel: 'silent', store: ts.store }, secretDecider);
      const { url } = await first.listen();
      const t = await createTable(url);
      const gm = await connectAs(`${url.replace('http', 'ws')}/ws`, t.tableId, t.gm.token);
      await gm.client.command('a', { type: 'create', characterId: 'ash', name: 'Ash', secret: 's' });
      await gm.client.command('b', { type: 'burst', n: 10 });
      await gm.client.command('c', { type: 'roll', count: 4 });
      const before = (await http(url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body;
      gm.client.close();
      await first.close();
      const second = await createServer({ host: '127.0.0.1', port: 0, logLevel: 'silent', store: ts.store }, secretDecider);
      const { url: url2 } = await second.listen();
      const after = (await http(url2, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body;
      expect(after).toEqual(before);
      const c = await TestClient.connect(`${url2.replace('http', 'ws')}/ws`);
      await c.hello(t.tableId, t.gm.token, 0);
      await c.untilSeq(12);
      expect(await c.command('c', { type: 'roll', count: 4 })).toMatchObject({ type: 'ack', duplicate: true, firstSeq: 12 });
      c.close();
      await second.close();
      await ts.cleanup();
    });
  });
}
