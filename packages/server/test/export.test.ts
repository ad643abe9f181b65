import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretDecider } from './fixtures/secret-decider';
import { connectAs, createTable, http, joinTable, relaxedLimits, startServer, type Running } from './helpers';

let srv: Running;
beforeAll(async () => {
  srv = await startServer(secretDecider, { config: relaxedLimits(1000) });
});
afterAll(async () => {
  await srv.close();
});

async function playedTable() {
  const t = await createTable(srv.url, { name: 'Export Me', settings: { physicalDice: true } });
  const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
  const bob = await joinTable(srv.url, t.tableId, t.invite.token, 'Bob');
  const gm = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
  const a = await connectAs(srv.wsUrl, t.tableId, ann.token);
  await a.client.command('a1', { type: 'create', characterId: 'ash', name: 'Ash', secret: 'ash-secret' });
  await gm.client.command('g1', { type: 'gm-note', text: 'gm-only-note' });
  for (let i = 0; i < 30; i++) await gm.client.command(`b${i}`, { type: 'burst', n: 50 });
  await a.client.command('a2', { type: 'roll', count: 2 }, { dice: { roll: [3, 9] } });
  await http(srv.url, 'DELETE', `/api/tables/${t.tableId}/participants/${bob.participantId}`, { token: t.gm.token });
  gm.client.close();
  a.client.close();
  return { t, ann, bob };
}

describe('export and import', () => {
  it('exports the whole table for the GM as a versioned file and imports it as a new table', async () => {
    const { t, ann, bob } = await playedTable();
    const res = await http(srv.url, 'GET', `/api/tables/${t.tableId}/export`, { token: t.gm.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="export-me-${t.tableId}.json"`);
    const file = res.body;
    expect(file).toMatchObject({
      formatVersion: 1,
      kind: 'personae-table',
      redactedFor: null,
      table: { id: t.tableId, name: 'Export Me', settings: { physicalDice: true }, version: 1503 },
    });
    expect(file.participants.map((p: { displayName: string; removedAt: string | null }) => [p.displayName, p.removedAt !== null])).toEqual([
      ['GM', false],
      ['Ann', false],
      ['Bob', true],
    ]);
    expect(file.events).toHaveLength(1503);
    expect(file.events[0]).toMatchObject({ seq: 1, participantId: ann.participantId, commandId: 'a1', event: { secret: 'ash-secret' } });
    expect(file.events.at(-1).event).toEqual({ type: 'rolled', by: ann.participantId, dice: [3, 9], entered: true });
    expect(res.text.length).toBeGreaterThan(64 * 1024);
    for (const token of [t.gm.token, t.invite.token, t.observer.token, ann.token]) expect(res.text).not.toContain(token);

    const imported = await http(srv.url, 'POST', '/api/tables/import', { body: file });
    expect(imported.status).toBe(201);
    const copy = imported.body;
    expect(copy.tableId).not.toBe(t.tableId);
    expect(copy.gm.participantId).toBe(t.gm.participantId);
    expect(copy.players).toEqual([
      { participantId: ann.participantId, displayName: 'Ann', token: expect.stringMatching(/^pl_/), link: expect.stringContaining(`/table/${copy.tableId}#token=`) },
    ]);

    const original = await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token });
    const restored = await http(srv.url, 'GET', `/api/tables/${copy.tableId}/state`, { token: copy.gm.token });
    expect(restored.body).toEqual(original.body);

    // Old secrets do not open the copy; the new ones do, and ownership carries over.
    expect((await http(srv.url, 'GET', `/api/tables/${copy.tableId}/state`, { token: t.gm.token })).status).toBe(401);
    expect((await http(srv.url, 'GET', `/api/tables/${copy.tableId}/state`, { token: bob.token })).status).toBe(401);
    const annCopy = await connectAs(srv.wsUrl, copy.tableId, copy.players[0].token);
    expect(await annCopy.client.command('a3', { type: 'rename', characterId: 'ash', name: 'Ash II' })).toMatchObject({
      type: 'ack',
      firstSeq: 1504,
    });
    annCopy.client.close();
    await joinTable(srv.url, copy.tableId, copy.invite.token, 'Newcomer');
  });

  it('refuses files it cannot trust', async () => {
    const { t, ann } = await playedTable();
    const file = (await http(srv.url, 'GET', `/api/tables/${t.tableId}/export`, { token: t.gm.token })).body;
    const post = (body: unknown) => http(srv.url, 'POST', '/api/tables/import', { body });

    expect((await post({ ...file, formatVersion: 2 })).body).toMatchObject({ code: 'unsupported_format_version', field: 'formatVersion' });
    expect((await post({ hello: 'world' })).body).toMatchObject({ code: 'invalid_import', field: 'formatVersion' });
    expect((await post({ ...file, kind: 'other' })).body).toMatchObject({ code: 'invalid_import', field: 'kind' });
    expect((await post({ ...file, table: { ...file.table, version: 3 } })).body).toMatchObject({ code: 'invalid_import', field: 'table.version' });
    const gap = { ...file, events: file.events.filter((e: { seq: number }) => e.seq !== 5), table: { ...file.table, version: 1502 } };
    expect((await post(gap)).body).toMatchObject({ code: 'invalid_import', field: 'events.4.seq' });
    const stranger = structuredClone(file);
    stranger.events[0].participantId = 'p_stranger';
    expect((await post(stranger)).body).toMatchObject({ code: 'invalid_import', field: 'events.0.participantId' });
    const noGm = { ...file, participants: file.participants.filter((p: { role: string }) => p.role !== 'gm') };
    expect((await post(noGm)).body).toMatchObject({ code: 'invalid_import' });

    const playerView = (await http(srv.url, 'GET', `/api/tables/${t.tableId}/export`, { token: ann.token })).body;
    expect(playerView.redactedFor).toEqual({ role: 'player', participantId: ann.participantId });
    const refused = await post(playerView);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('redacted_export');
  });

  it('reads a long file in parts with the same bounds as any body: bad JSON, deep nesting and "__proto__" inside an event are 400s', async () => {
    const { t } = await playedTable();
    const text = (await http(srv.url, 'GET', `/api/tables/${t.tableId}/export`, { token: t.gm.token })).text;
    const raw = (body: string) => http(srv.url, 'POST', '/api/tables/import', { rawBody: body });
    const events = text.indexOf('"events":[') + '"events":['.length;
    // A key "__proto__" inside the 3rd event, a nesting too deep inside the 2nd, a missing element, a cut-off file.
    const firstEnd = text.indexOf('},{"seq":2,', events);
    expect(firstEnd).toBeGreaterThan(0);
    const withProto = `${text.slice(0, firstEnd)},"__proto__":{"x":1}${text.slice(firstEnd)}`;
    expect((await raw(withProto)).body).toMatchObject({ code: 'forbidden_key', field: 'events.0.__proto__' });
    const deep = `${text.slice(0, events)}${'['.repeat(70)}${']'.repeat(70)},${text.slice(events)}`;
    expect((await raw(deep)).body).toMatchObject({ code: 'too_deep' });
    const hole = `${text.slice(0, events)},${text.slice(events)}`;
    expect((await raw(hole)).status).toBe(400);
    expect((await raw(hole)).body.code).toBe('bad_json');
    expect((await raw(text.slice(0, text.length - 40))).body).toMatchObject({ code: 'bad_json' });
    const twice = `${text.slice(0, -1)},"events":[]}`;
    expect((await raw(twice)).body).toMatchObject({ code: 'bad_json', field: 'events' });
    // A malformed event entry names its place in the file.
    const file = JSON.parse(text);
    file.events[7].seq = 'eight';
    expect((await http(srv.url, 'POST', '/api/tables/import', { body: file })).body).toMatchObject({ code: 'invalid_import', field: 'events.7.seq' });
    // And the untouched text still imports, events in order.
    const imported = await raw(text);
    expect(imported.status).toBe(201);
    const again = await http(srv.url, 'GET', `/api/tables/${imported.body.tableId}/export`, { token: imported.body.gm.token });
    expect(again.body.events.map((e: { event: unknown }) => e.event)).toEqual(JSON.parse(text).events.map((e: { event: unknown }) => e.event));
  });
});
