import { readFileSync } from 'node:fs';
import '@personae/d100';
import '@personae/lucidity';
import '@personae/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createTable, http, startServer, TestClient, type Running } from './helpers';

const example = (path: string) => parse(readFileSync(new URL(`../../../examples/${path}`, import.meta.url), 'utf8')) as Record<string, unknown>;

let srv: Running;
beforeAll(async () => {
  srv = await startServer();
});
afterAll(async () => {
  await srv.close();
});

async function welcome(tableId: string, token: string) {
  const client = await TestClient.connect(srv.wsUrl);
  client.send({ type: 'hello', tableId, token });
  const message = await client.waitFor((m) => m.type === 'welcome');
  client.ws.close();
  return message;
}

describe('a table per ruleset', () => {
  it('creates a Personae table when no ruleset is named, as before', async () => {
    const t = await createTable(srv.url, { name: 'Old style' });
    const w = await welcome(t.tableId, t.gm.token);
    expect(w.table.ruleset).toBe('personae');
    expect(w.state.preset).toBe('core-2011');
    const info = await http(srv.url, 'GET', `/api/tables/${t.tableId}`, { token: t.gm.token });
    expect(info.body.table.ruleset).toBe('personae');
  });

  it('creates a Personae table with a preset given at creation', async () => {
    const t = await createTable(srv.url, { name: 'v4', ruleset: 'personae', preset: 'srd-v4' });
    const w = await welcome(t.tableId, t.gm.token);
    expect(w.state.preset).toBe('srd-v4');
    expect(w.table.settings.preset).toBe('srd-v4');
  });

  it('creates a d100 table and runs its decider', async () => {
    const t = await createTable(srv.url, { name: 'Velvet', ruleset: 'd100', preset: 'ffg-margin' });
    const w = await welcome(t.tableId, t.gm.token);
    expect(w.table.ruleset).toBe('d100');
    expect(w.state.preset).toBe('ffg-margin');
    const added = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, {
      token: t.gm.token,
      body: { commandId: 'c1', command: { type: 'add-character', id: 'pixie', sheet: example('d100/shadow-pixie.yaml') } },
    });
    expect(added.status).toBe(200);
    const state = await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token });
    expect(state.body.state.characters.map((c: { id: string }) => c.id)).toEqual(['pixie']);
    // Undo folds again from the table's setup, not from the seed's preset.
    const undone = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, { token: t.gm.token, body: { commandId: 'c2', command: { type: 'undo', seen: state.body.version } } });
    expect(undone.status).toBe(200);
    const after = await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token });
    expect(after.body.state.characters).toEqual([]);
    expect(after.body.state.preset).toBe('ffg-margin');
  });

  it('creates a Lucidity table with the preset it was given (not only "standard")', async () => {
    const t = await createTable(srv.url, { name: 'Moonlit', ruleset: 'lucidity', preset: 'as-written', options: { roundSeconds: 10 } });
    const w = await welcome(t.tableId, t.gm.token);
    expect(w.table.ruleset).toBe('lucidity');
    expect(w.state.preset).toBe('as-written');
    expect(w.state.options).toEqual({ roundSeconds: 10 });
  });

  it('refuses an unknown ruleset with 400, naming the field and the rulesets it knows', async () => {
    const res = await http(srv.url, 'POST', '/api/tables', { body: { name: 'x', ruleset: 'gurps' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('ruleset');
    expect(res.body.message).toContain('"gurps"');
    for (const id of ['personae', 'd100', 'lucidity']) expect(res.body.message).toContain(id);
  });

  it('refuses a preset or option the ruleset does not have, naming it', async () => {
    const preset = await http(srv.url, 'POST', '/api/tables', { body: { name: 'x', ruleset: 'lucidity', preset: 'seed' } });
    expect(preset.status).toBe(400);
    expect(preset.body.field).toBe('preset');
    expect(preset.body.message).toContain('as-written');
    const option = await http(srv.url, 'POST', '/api/tables', { body: { name: 'x', ruleset: 'd100', options: { degrees: 'sideways' } } });
    expect(option.status).toBe(400);
    expect(option.body.field).toBe('options.degrees');
    expect(option.body.message).toContain('sideways');
  });

  it('changes the preset in the settings before play, checked by the ruleset, and fixes it once there are events', async () => {
    const t = await createTable(srv.url, { name: 'Later', ruleset: 'lucidity' });
    const bad = await http(srv.url, 'PATCH', `/api/tables/${t.tableId}/settings`, { token: t.gm.token, body: { options: { roundSeconds: 'soon' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('options.roundSeconds');
    const ok = await http(srv.url, 'PATCH', `/api/tables/${t.tableId}/settings`, { token: t.gm.token, body: { preset: 'as-written' } });
    expect(ok.status).toBe(200);
    let state = await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token });
    expect(state.body.state.preset).toBe('as-written');
    const sheet = example('lucidity/characters/ana-vell.yaml');
    const added = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, {
      token: t.gm.token,
      body: { commandId: 'c1', command: { type: 'add', id: 'ana', side: 'party', sheet } },
    });
    expect(added.status).toBe(200);
    const late = await http(srv.url, 'PATCH', `/api/tables/${t.tableId}/settings`, { token: t.gm.token, body: { preset: 'standard' } });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('setup_fixed');
    state = await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token });
    expect(state.body.state.preset).toBe('as-written');
    expect(state.body.version).toBe(1);
  });

  it('keeps the ruleset and setup through an export and an import', async () => {
    const t = await createTable(srv.url, { name: 'Carried', ruleset: 'd100', preset: 'ffg-tens-plus-one' });
    await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, {
      token: t.gm.token,
      body: { commandId: 'c1', command: { type: 'add-character', id: 'pixie', sheet: example('d100/shadow-pixie.yaml') } },
    });
    const exported = await http(srv.url, 'GET', `/api/tables/${t.tableId}/export`, { token: t.gm.token });
    expect(exported.body.table.ruleset).toBe('d100');
    const imported = await http(srv.url, 'POST', '/api/tables/import', { body: exported.body });
    expect(imported.status).toBe(201);
    const w = await welcome(imported.body.tableId, imported.body.gm.token);
    expect(w.table.ruleset).toBe('d100');
    expect(w.state.preset).toBe('ffg-tens-plus-one');
    expect(w.state.characters.map((c: { id: string }) => c.id)).toEqual(['pixie']);
    // A file naming a ruleset the server does not host is refused by name.
    const foreign = await http(srv.url, 'POST', '/api/tables/import', { body: { ...exported.body, table: { ...exported.body.table, ruleset: 'gurps' } } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.field).toBe('table.ruleset');
  });

  it('reads an export written before tables had a ruleset as a Personae table', async () => {
    const t = await createTable(srv.url, { name: 'Older file' });
    const exported = await http(srv.url, 'GET', `/api/tables/${t.tableId}/export`, { token: t.gm.token });
    const { ruleset: _dropped, ...table } = exported.body.table;
    const imported = await http(srv.url, 'POST', '/api/tables/import', { body: { ...exported.body, table } });
    expect(imported.status).toBe(201);
    expect((await welcome(imported.body.tableId, imported.body.gm.token)).table.ruleset).toBe('personae');
  });
});
