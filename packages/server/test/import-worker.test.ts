import '@personae/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTable, exampleSheet, http, relaxedLimits, startServer, type Running } from './helpers';

/**
 * Imports into a server hosting the registry's rulesets are checked in a worker thread
 * (import-job.ts): the same answers as the check in the serving thread (export.test.ts), and the
 * table imported equals the one exported. Only Personae is registered in this process, so a file of
 * another ruleset is refused although the worker could fold it.
 */
let srv: Running;
beforeAll(async () => {
  srv = await startServer(undefined, { config: relaxedLimits() });
});
afterAll(async () => {
  await srv.close();
});

const raw = (body: string) => http(srv.url, 'POST', '/api/tables/import', { rawBody: body });

async function exported(): Promise<string> {
  const t = await createTable(srv.url, { name: 'Worker' });
  for (let i = 0; i < 6; i++) {
    const command = { type: 'roll', actor: { name: 'Ann', dice: 3, modifiers: [] }, reactor: { name: 'Bob', dice: 2, modifiers: [] }, hidden: i % 2 === 0 };
    expect((await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, { token: t.gm.token, body: { commandId: `c${i}`, command } })).status).toBe(200);
  }
  return (await http(srv.url, 'GET', `/api/tables/${t.tableId}/export`, { token: t.gm.token })).text;
}

describe('an import checked in a worker thread', () => {
  it('imports the file as a new table with the same events, and refuses what the serving thread refuses', async () => {
    const text = await exported();
    const imported = await raw(text);
    expect(imported.status).toBe(201);
    const again = await http(srv.url, 'GET', `/api/tables/${imported.body.tableId}/export`, { token: imported.body.gm.token });
    expect(again.body.events.map((e: { event: unknown }) => e.event)).toEqual(JSON.parse(text).events.map((e: { event: unknown }) => e.event));
    const state = await http(srv.url, 'GET', `/api/tables/${imported.body.tableId}/state`, { token: imported.body.gm.token });
    expect(state.body.version).toBe(JSON.parse(text).events.length);

    // JSON bounds, with the place in the file.
    const events = text.indexOf('"events":[') + '"events":['.length;
    const firstEnd = text.indexOf('},{"seq":2,', events);
    expect((await raw(`${text.slice(0, firstEnd)},"__proto__":{"x":1}${text.slice(firstEnd)}`)).body).toMatchObject({ code: 'forbidden_key', field: 'events.0.__proto__' });
    expect((await raw(text.slice(0, text.length - 40))).body).toMatchObject({ code: 'bad_json' });
    // The file's own checks: an event out of order, an unknown event type.
    const file = JSON.parse(text);
    file.events[3].seq = 9;
    expect((await raw(JSON.stringify(file)))).toMatchObject({ status: 400, body: { code: 'invalid_import', field: 'events.3.seq' } });
    file.events[3].seq = 4;
    file.events[2].event = { ...file.events[2].event, type: 'made-up' };
    expect((await raw(JSON.stringify(file))).body).toMatchObject({ code: 'invalid_import' });
    // A ruleset this server does not host.
    file.events = [];
    file.table = { ...file.table, version: 0, ruleset: 'd100' };
    expect((await raw(JSON.stringify(file))).body).toMatchObject({ code: 'invalid_import', field: 'table.ruleset' });
  });

  it('three imports sent at once are each checked and answered (the third waits for a worker)', async () => {
    const text = await exported();
    const answers = await Promise.all([raw(text), raw(text), raw(text)]);
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.tableId)).size).toBe(3);
  });

  it('carries the portraits across, each checked in the worker as an upload is', async () => {
    const t = await createTable(srv.url, { name: 'Portraits' });
    const added = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, { token: t.gm.token, body: { commandId: 'a1', command: { type: 'add-character', sheet: exampleSheet('dwarf-iron-constitution.yaml') } } });
    expect(added.status).toBe(200);
    const id = (await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.state.characters[0].id as string;
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('a small image')]);
    const put = await fetch(`${srv.url}/api/tables/${t.tableId}/characters/${id}/portrait`, { method: 'PUT', headers: { 'content-type': 'image/png', authorization: `Bearer ${t.gm.token}` }, body: new Uint8Array(png) });
    expect(put.status).toBe(200);
    const text = (await http(srv.url, 'GET', `/api/tables/${t.tableId}/export`, { token: t.gm.token })).text;

    const imported = await raw(text);
    expect(imported.status).toBe(201);
    const res = await fetch(`${srv.url}/api/tables/${imported.body.tableId}/characters/${id}/portrait`, { headers: { authorization: `Bearer ${imported.body.gm.token}` } });
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);

    const file = JSON.parse(text);
    file.portraits[id].data = Buffer.from('<svg/>').toString('base64');
    const refused = await raw(JSON.stringify(file));
    expect(refused).toMatchObject({ status: 400, body: { code: 'invalid_import', field: `portraits.${id}` } });
    expect(refused.body.message).toContain(`the portrait of character "${id}" is refused`);
  });
});
