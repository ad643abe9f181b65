import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyStatePatch, diffState, jsonWith, sameDiff, statePatchText, type KnownTexts } from '../src/state-patch';
import { secretDecider } from './fixtures/secret-decider';
import { connectAs, createTable, joinTable, startServer, TestClient, type Running } from './helpers';

type Held = { version: number; state: any };

/**
 * The view a client holds after every welcome, state and state-patch it received, in order, starting
 * from `from` (for a resumed connection: the view its earlier connection held).
 */
function heldView(c: TestClient, from: Held = { version: -1, state: undefined }): Held {
  let held = from;
  for (const m of c.messages) {
    if (m.type === 'welcome' && m.state !== undefined) held = { version: m.version, state: m.state };
    else if (m.type === 'state') held = { version: m.version, state: m.state };
    else if (m.type === 'state-patch') {
      expect(m.base, 'a patch applies to the view the client holds').toBe(held.version);
      held = { version: m.version, state: applyStatePatch(held.state, m) };
    }
  }
  return held;
}

describe('pushed views', () => {
  let srv: Running;
  beforeAll(async () => {
    srv = await startServer(secretDecider);
  });
  afterAll(async () => {
    await srv.close();
  });

  it('follows new events with each viewer\u2019s own view of the new state, unasked, as changes from the last one', async () => {
    const t = await createTable(srv.url);
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const gm = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    const player = await connectAs(srv.wsUrl, t.tableId, ann.token);
    const observer = await connectAs(srv.wsUrl, t.tableId, t.observer.token);
    const ack = await gm.client.command('c1', { type: 'create', characterId: 'ash', name: 'Ash', secret: 'fears water' });
    expect(ack.type).toBe('ack');
    // The GM got the event, then the new view (as changes from the welcome's), then the ack.
    const order = gm.client.messages.slice(1).map((m) => m.type);
    expect(order).toEqual(['event', 'state-patch', 'ack']);
    for (const c of [gm.client, player.client, observer.client]) {
      const pushed = await c.waitFor((m) => m.type === 'state-patch');
      expect(pushed.version).toBe(1);
      expect(pushed.base).toBe(0);
      expect(heldView(c).state.characters.ash.name).toBe('Ash');
    }
    const secrets = [gm.client, player.client, observer.client].map((c) => heldView(c).state.characters.ash.secret);
    expect(secrets).toEqual(['fears water', null, null]);
    expect(heldView(player.client).state.gmNotes).toBeUndefined();
    // Nothing of the secret went to the others, whole or in parts.
    for (const c of [player.client, observer.client]) expect(JSON.stringify(c.messages)).not.toContain('fears water');
    for (const c of [gm.client, player.client, observer.client]) c.close();
  });

  it('sends the changes shared by several viewers as text frames of the same UTF-8 text', async () => {
    const t = await createTable(srv.url);
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const viewers = [await connectAs(srv.wsUrl, t.tableId, ann.token), await connectAs(srv.wsUrl, t.tableId, t.observer.token), await connectAs(srv.wsUrl, t.tableId, t.observer.token)];
    const frames = viewers.map(() => [] as Array<{ binary: boolean; text: string }>);
    viewers.forEach(({ client }, i) => client.ws.on('message', (data, binary) => frames[i]!.push({ binary, text: data.toString() })));
    const name = 'Åsa “Eel” Ŝkål 🐍';
    const gm = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    expect((await gm.client.command('u1', { type: 'create', characterId: 'asa', name, secret: 'x' })).type).toBe('ack');
    const patches = [];
    for (const [i, { client }] of viewers.entries()) {
      await client.waitFor((m) => m.type === 'state-patch');
      expect(heldView(client).state.characters.asa.name).toBe(name);
      const patch = frames[i]!.find((f) => f.text.includes('"state-patch"'))!;
      expect(patch.binary).toBe(false);
      patches.push(patch.text);
    }
    // The two observers hold the same view and were sent the same text.
    expect(patches[2]).toBe(patches[1]);
    expect(patches[1]).toContain(name);
    for (const c of [...viewers, gm]) c.client.close();
  });

  it('keeps every viewer\u2019s view equal to the one it would ask for, through many commands and a resumed connection', async () => {
    const t = await createTable(srv.url);
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const gm = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    let player = await connectAs(srv.wsUrl, t.tableId, ann.token);
    const observer = await connectAs(srv.wsUrl, t.tableId, t.observer.token);
    let n = 0;
    const commands = [
      { type: 'create', characterId: 'ash', name: 'Ash', secret: 'fears water', owner: ann.participantId },
      { type: 'roll', count: 3 },
      { type: 'gm-note', text: 'the bridge is out' },
      { type: 'rename', characterId: 'ash', name: 'Ashen' },
      { type: 'burst', n: 3 },
      { type: 'roll', count: 1 },
    ];
    for (const command of commands) expect((await gm.client.command(`g${++n}`, command)).type).toBe('ack');
    // A resumed connection receives the events it missed and the changes to the view it held, and
    // later patches apply to that.
    const before = heldView(player.client);
    player.client.close();
    await gm.client.command(`g${++n}`, { type: 'roll', count: 2 });
    player = await connectAs(srv.wsUrl, t.tableId, ann.token, before.version);
    for (const count of [1, 2, 3]) expect((await player.client.command(`a${++n}`, { type: 'roll', count })).type).toBe('ack');
    const last = await gm.client.command(`g${++n}`, { type: 'roll', count: 2 });
    for (const c of [gm.client, player.client, observer.client]) {
      await c.waitFor((m) => (m.type === 'state' || m.type === 'state-patch') && m.version === last.version);
      const held = c === player.client ? heldView(c, before) : heldView(c);
      c.send({ type: 'state' });
      const asked = await c.waitFor((m) => m.type === 'state' && m.version === last.version);
      expect(held.version).toBe(asked.version);
      expect(held.state).toEqual(asked.state);
    }
    for (const c of [gm.client, player.client, observer.client]) c.close();
  });

  it('sends a connection that asked for views alone (hello with events: false) no event messages, live or on resuming, and the same views', async () => {
    const t = await createTable(srv.url);
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const gm = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    const both = await connectAs(srv.wsUrl, t.tableId, ann.token);
    const viewsOnly = await TestClient.connect(srv.wsUrl);
    viewsOnly.send({ type: 'hello', tableId: t.tableId, token: ann.token, events: false });
    await viewsOnly.waitFor((m) => m.type === 'welcome');
    let n = 0;
    for (const command of [{ type: 'create', characterId: 'ash', name: 'Ash', secret: 'fears water', owner: ann.participantId }, { type: 'roll', count: 3 }]) {
      expect((await gm.client.command(`g${++n}`, command)).type).toBe('ack');
    }
    await viewsOnly.waitFor((m) => m.type === 'state-patch' && m.version === 2);
    await both.client.waitFor((m) => m.type === 'state-patch' && m.version === 2);
    expect(both.client.events().map((e) => e.seq)).toEqual([1, 2]);
    expect(viewsOnly.events()).toEqual([]);
    expect(heldView(viewsOnly)).toEqual(heldView(both.client));
    // Resumed with since, it gets the changes to its view and no events either.
    const before = heldView(viewsOnly);
    viewsOnly.close();
    expect((await gm.client.command(`g${++n}`, { type: 'roll', count: 2 })).type).toBe('ack');
    const again = await TestClient.connect(srv.wsUrl);
    again.send({ type: 'hello', tableId: t.tableId, token: ann.token, since: before.version, events: false });
    await again.waitFor((m) => m.type === 'state-patch' && m.base === before.version && m.version === 3);
    expect(again.events()).toEqual([]);
    await both.client.waitFor((m) => m.type === 'state-patch' && m.version === 3);
    expect(heldView(again, before)).toEqual(heldView(both.client));
    for (const c of [gm.client, both.client, again]) c.close();
  });

  // The newest 128 events are kept in memory with their states; a client further behind is caught
  // up from the log. Both ways it gets the same.
  for (const missed of [6, 160]) {
    it(`resumes a connection ${missed} events behind with exactly those events, in order, redacted for it, then the changes to its view`, async () => {
      const t = await createTable(srv.url);
      const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
      const gm = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
      let player = await connectAs(srv.wsUrl, t.tableId, ann.token);
      // Ann's second device stays connected throughout: what it receives live is what she may see.
      const live = await connectAs(srv.wsUrl, t.tableId, ann.token);
      expect((await gm.client.command('c1', { type: 'create', characterId: 'ash', name: 'Ash', secret: 'fears water', owner: ann.participantId })).type).toBe('ack');
      const at = await gm.client.command('c2', { type: 'roll', count: 2 });
      await player.client.waitFor((m) => m.type === 'state-patch' && m.version === at.version);
      const before = heldView(player.client);
      expect(before.version).toBe(at.version);
      player.client.close();

      // What Ann misses: a character whose secret she may not see, GM notes she may not see at all,
      // a renamed character of hers, and enough ticks to reach `missed` events.
      const meanwhile = [
        { type: 'create', characterId: 'bo', name: 'Bo', secret: 'owes the baron' },
        { type: 'gm-note', text: 'the bridge is out' },
        { type: 'rename', characterId: 'ash', name: 'Ashen' },
        { type: 'roll', count: 3 },
      ];
      let n = 0;
      for (const command of meanwhile) expect((await gm.client.command(`m${++n}`, command)).type).toBe('ack');
      let version = before.version + meanwhile.length;
      while (version < before.version + missed) {
        const burst = Math.min(50, before.version + missed - version);
        version = (await gm.client.command(`m${++n}`, { type: 'burst', n: burst })).version as number;
      }
      await live.client.untilSeq(version);

      player = await connectAs(srv.wsUrl, t.tableId, ann.token, before.version);
      expect(player.welcome.state).toBeUndefined();
      const patch = await player.client.waitFor((m) => m.type === 'state-patch');
      const events = player.client.events();
      expect(events.map((e) => e.seq)).toEqual(Array.from({ length: missed }, (_, i) => before.version + 1 + i));
      // The same events, redacted the same way, as her device that never left.
      expect(events).toEqual(live.client.events().filter((e) => e.seq > before.version));
      expect(events.find((e) => e.seq === before.version + 2)!.event).toBeNull();
      // The view comes as changes from the one she held, after the events; never whole.
      expect(player.client.messages.map((m) => m.type).filter((type) => type !== 'event')).toEqual(['welcome', 'state-patch']);
      expect(player.client.messages.indexOf(patch)).toBe(player.client.messages.length - 1);
      expect(patch).toMatchObject({ base: before.version, version });
      const held = heldView(player.client, before);
      player.client.send({ type: 'state' });
      const asked = await player.client.waitFor((m) => m.type === 'state');
      expect(held).toEqual({ version: asked.version, state: asked.state });
      expect(held.state.characters.ash.name).toBe('Ashen');
      expect(held.state.characters.bo.secret).toBeNull();
      for (const text of ['owes the baron', 'the bridge is out']) expect(player.client.frames.join('\n')).not.toContain(text);
      // Later views follow as changes from this one.
      const next = await gm.client.command(`m${++n}`, { type: 'roll', count: 1 });
      const pushed = await player.client.waitFor((m) => m.type === 'state-patch' && m.version === next.version);
      expect(pushed.base).toBe(version);
      for (const c of [gm.client, player.client, live.client]) c.close();
    });
  }

  it('resumes a connection that missed nothing with no events and no changes, and later changes apply to the view it held', async () => {
    const t = await createTable(srv.url);
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const gm = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    let player = await connectAs(srv.wsUrl, t.tableId, ann.token);
    expect((await gm.client.command('c1', { type: 'create', characterId: 'ash', name: 'Ash', secret: 'fears water', owner: ann.participantId })).type).toBe('ack');
    const at = await gm.client.command('c2', { type: 'gm-note', text: 'the bridge is out' });
    await player.client.waitFor((m) => m.type === 'state-patch' && m.version === at.version);
    const before = heldView(player.client);
    player.client.close();

    player = await connectAs(srv.wsUrl, t.tableId, ann.token, before.version);
    expect(player.welcome.state).toBeUndefined();
    const patch = await player.client.waitFor((m) => m.type === 'state-patch');
    expect(patch).toEqual({ type: 'state-patch', version: before.version, base: before.version });
    expect(player.client.events()).toEqual([]);
    const next = await gm.client.command('c3', { type: 'rename', characterId: 'ash', name: 'Ashen' });
    await player.client.waitFor((m) => m.type === 'state-patch' && m.version === next.version);
    const held = heldView(player.client, before);
    player.client.send({ type: 'state' });
    const asked = await player.client.waitFor((m) => m.type === 'state');
    expect(held).toEqual({ version: asked.version, state: asked.state });
    expect(held.state.characters.ash.name).toBe('Ashen');
    for (const c of [gm.client, player.client]) c.close();
  });
});

describe('state patches', () => {
  // Values as JSON reads them back (fast-check's JSON values may hold -0, which JSON writes as 0).
  const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
  const view = fc.dictionary(fc.constantFrom('a', 'b', 'log', 'seq', '__proto__', 'list'), fc.oneof(json, fc.array(json, { maxLength: 6 })));

  it('turn the earlier view into the later one, for any two views', () => {
    fc.assert(
      fc.property(view, view, (before, after) => {
        const patch = diffState(before, after);
        expect(patch).not.toBeNull();
        expect(applyStatePatch(before, JSON.parse(JSON.stringify(patch)))).toEqual(after);
      }),
    );
  });

  it('are written as JSON.stringify writes them, each appended entry serialized once for every viewer', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ seq: fc.nat(), lines: fc.array(fc.string(), { maxLength: 3 }) }), { maxLength: 8 }), view, fc.nat(5), (entries, rest, drop) => {
        const items = entries.map((e) => ({ ...e }));
        const before = { ...rest, log: items };
        const after = { ...rest, seq: 'next', log: [...items.slice(Math.min(drop, items.length)), { seq: -1, lines: ['new'] }] };
        const diff = diffState(before, after)!;
        // Twice: the second time the appended entries come from the cache.
        for (let i = 0; i < 2; i++) expect(statePatchText(7, 6, diff)).toBe(JSON.stringify({ type: 'state-patch', version: 7, base: 6, ...diff }));
      }),
    );
    fc.assert(
      fc.property(view, view, (before, after) => {
        const diff = diffState(before, after)!;
        expect(statePatchText(2, 1, diff)).toBe(JSON.stringify({ type: 'state-patch', version: 2, base: 1, ...diff }));
      }),
    );
  });

  it('take the texts an event left of the parts a log entry shares with it, and still write what JSON.stringify writes', () => {
    // An event and an entry holding some of its object fields (as a roll's entry holds its result),
    // with fields JSON leaves out (undefined, a function) and odd keys.
    const field = fc.oneof(json, fc.constant(undefined), fc.constant(() => 1));
    const record = fc.dictionary(fc.constantFrom('a', 'b', 'result', '__proto__', 'toJSON', ''), field);
    fc.assert(
      fc.property(record, record, fc.array(fc.boolean(), { maxLength: 6 }), (event, own, take) => {
        const entry: Record<string, unknown> = {};
        Object.keys(own).forEach((key, i) => {
          const shared = take[i] && Object.prototype.hasOwnProperty.call(event, key);
          Object.defineProperty(entry, key, { value: shared ? event[key] : own[key], enumerable: true, writable: true, configurable: true });
        });
        const known: KnownTexts = new Map();
        expect(jsonWith(event, known, true)).toBe(JSON.stringify(event));
        for (const [part, text] of known) expect(text).toBe(JSON.stringify(part));
        expect(jsonWith(entry, known)).toBe(JSON.stringify(entry));
        // In a patch, once made and once from what the first made.
        const diff = { arrays: { log: { drop: 0, append: [entry, entry] } } };
        expect(statePatchText(2, 1, diff, known)).toBe(JSON.stringify({ type: 'state-patch', version: 2, base: 1, ...diff }));
      }),
    );
    // A part of its own: the same object under two names, and a Date written through its toJSON.
    const shared = { x: [1, 2] };
    const known: KnownTexts = new Map();
    const event = { type: 'rolled', result: shared, at: new Date(0) };
    expect(jsonWith(event, known, true)).toBe(JSON.stringify(event));
    expect(jsonWith({ result: shared, again: shared, when: new Date(0) }, known)).toBe(JSON.stringify({ result: shared, again: shared, when: new Date(0) }));
  });

  it('send only the new end of a list that keeps its earlier entries, found by identity', () => {
    fc.assert(
      fc.property(fc.array(json, { maxLength: 30 }), fc.nat(30), fc.array(json, { minLength: 1, maxLength: 5 }), (entries, dropAsked, added) => {
        const items = entries.map((value) => ({ value }));
        const drop = Math.min(dropAsked, items.length);
        const fresh = added.map((value) => ({ value }));
        const before = { seq: 1, log: items };
        const after = { seq: 2, log: [...items.slice(drop), ...fresh] };
        const patch = diffState(before, after)!;
        if (drop < items.length) {
          // Some entries are kept: only the new ones travel.
          expect(patch.set).toEqual({ seq: 2 });
          expect(patch.arrays!.log).toEqual({ drop, append: fresh });
        }
        expect(applyStatePatch(before, JSON.parse(JSON.stringify(patch)))).toEqual(after);
      }),
    );
  });

  it('made for different viewers are called the same only when they serialize to the same text', () => {
    // Views of two viewers built around shared parts (entries, objects) and parts of their own.
    const shared = fc.array(fc.oneof(json.map((value) => ({ value })), json), { maxLength: 4 });
    fc.assert(
      fc.property(view, shared, shared, fc.boolean(), fc.boolean(), (rest, kept, added, sameSeq, copyOne) => {
        const before = { ...rest, log: kept };
        const next = { ...rest, seq: 'next', log: [...kept, ...added] };
        // The second viewer's view: equal as JSON, but one appended object is a copy of its own.
        const other = { ...next, seq: sameSeq ? 'next' : 'other', log: copyOne && added.length > 0 ? [...kept, ...added.slice(0, -1), { copy: added.at(-1) }] : next.log };
        const a = diffState(before, next)!;
        const b = diffState({ ...before }, other)!;
        const same = sameDiff(a, b);
        if (same) expect(statePatchText(3, 2, a)).toBe(statePatchText(3, 2, b));
        // Changes to the same shared parts are found the same.
        if (sameSeq && !(copyOne && added.length > 0)) expect(same).toBe(true);
        if (!sameSeq) expect(same).toBe(false);
      }),
    );
  });

  it('leave the view they apply to unchanged and keep __proto__ an ordinary field', () => {
    const before = { log: [1, 2], x: { y: 1 } };
    const patch = JSON.parse('{"set":{"__proto__":{"polluted":true}},"arrays":{"log":{"drop":1,"append":[3]}}}');
    const after = applyStatePatch(before, patch) as Record<string, unknown>;
    expect(before).toEqual({ log: [1, 2], x: { y: 1 } });
    expect(after.log).toEqual([2, 3]);
    expect(Object.getPrototypeOf(after)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(after, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuse a patch that does not fit the view', () => {
    expect(() => applyStatePatch({ log: [1] }, { arrays: { log: { drop: 2, append: [] } } })).toThrow(/log/);
    expect(() => applyStatePatch({ log: 'x' }, { arrays: { log: { drop: 0, append: [] } } })).toThrow(/log/);
    expect(() => applyStatePatch(null, {})).toThrow(TypeError);
  });
});
