import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretDecider } from './fixtures/secret-decider';
import { connectAs, createTable, http, joinTable, sleep, startServer, TestClient, type Running } from './helpers';

let srv: Running;
beforeAll(async () => {
  srv = await startServer(secretDecider, { config: { helloTimeoutMs: 1000 } });
});
afterAll(async () => {
  await srv.close();
});

describe('tables, links and roles', () => {
  it('creates a table with a GM link, an invite link and an observer link', async () => {
    const t = await createTable(srv.url, { name: 'The Hollow Crown', gmName: 'Mara' });
    expect(t.tableId).toMatch(/^t_/);
    expect(t.gm.token).toMatch(/^gm_[A-Za-z0-9_-]{43}$/);
    expect(t.invite.token).toMatch(/^in_/);
    expect(t.observer.token).toMatch(/^ob_/);
    expect(t.gm.link).toBe(`${srv.url}/table/${t.tableId}#token=${t.gm.token}`);
    expect(t.invite.link).toBe(`${srv.url}/join/${t.tableId}#invite=${t.invite.token}`);
    expect(t.observer.link).toBe(`${srv.url}/watch/${t.tableId}#token=${t.observer.token}`);
    const info = await http(srv.url, 'GET', `/api/tables/${t.tableId}`, { token: t.gm.token });
    expect(info.status).toBe(200);
    expect(info.body.you).toEqual({ participantId: t.gm.participantId, role: 'gm', displayName: 'Mara' });
    expect(info.body.table.name).toBe('The Hollow Crown');
  });

  it('stores tokens only as digests', async () => {
    const t = await createTable(srv.url);
    const p = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const dump = JSON.stringify([
      await srv.store.getTable(t.tableId),
      await srv.store.listParticipants(t.tableId),
    ]);
    for (const secret of [t.gm.token, t.invite.token, t.observer.token, p.token]) expect(dump).not.toContain(secret);
  });

  it('refuses a bad invite, a bad token and a missing token', async () => {
    const t = await createTable(srv.url);
    const bad = await http(srv.url, 'POST', `/api/tables/${t.tableId}/join`, { body: { invite: 'in_nope', displayName: 'X' } });
    expect(bad.status).toBe(401);
    expect(bad.body).toMatchObject({ type: 'error', code: 'unauthorized' });
    expect((await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`)).status).toBe(401);
    expect((await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: 'gm_wrong' })).status).toBe(401);
    expect((await http(srv.url, 'GET', `/api/tables/t_missing/state`, { token: t.gm.token })).body.code).toBe('table_not_found');
    // The invite is not a credential for reading the table.
    expect((await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.invite.token })).status).toBe(401);

    const c = await TestClient.connect(srv.wsUrl);
    const refused = await c.hello(t.tableId, 'pl_not-a-token');
    expect(refused).toMatchObject({ type: 'error', code: 'unauthorized' });
    expect((await c.closed).code).toBe(4001);
  });

  it('lets the GM and players act, and keeps observers read-only', async () => {
    const t = await createTable(srv.url);
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const gm = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    const player = await connectAs(srv.wsUrl, t.tableId, ann.token);
    const obs = await connectAs(srv.wsUrl, t.tableId, t.observer.token);
    expect(obs.welcome.you).toEqual({ participantId: 'observer', role: 'observer', displayName: null });
    expect(player.welcome.you.role).toBe('player');
    expect(player.welcome.participants.map((p: { displayName: string }) => p.displayName)).toEqual(['GM', 'Ann']);

    expect(await player.client.command('p1', { type: 'roll', count: 3 })).toMatchObject({ type: 'ack', firstSeq: 1, lastSeq: 1 });
    expect(await gm.client.command('g1', { type: 'gm-note', text: 'the butler did it' })).toMatchObject({ type: 'ack', lastSeq: 2 });

    const denied = await obs.client.command('o1', { type: 'roll', count: 1 });
    expect(denied).toMatchObject({ type: 'error', code: 'forbidden', commandId: 'o1' });
    const viaHttp = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, {
      token: t.observer.token,
      body: { commandId: 'o2', command: { type: 'roll', count: 1 } },
    });
    expect(viaHttp.status).toBe(403);
    // The observer connection still works and still receives events.
    obs.client.send({ type: 'ping', id: 7 });
    expect(await obs.client.waitFor((m) => m.type === 'pong')).toEqual({ type: 'pong', id: 7 });
    await obs.client.untilSeq(2);

    const gmOnly = await player.client.command('p2', { type: 'gm-note', text: 'x' });
    expect(gmOnly).toMatchObject({ type: 'error', code: 'gm_only' });
    for (const c of [gm, player, obs]) c.client.close();
  });

  it('lets a player change only their own character; the GM may change any', async () => {
    const t = await createTable(srv.url);
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const bob = await joinTable(srv.url, t.tableId, t.invite.token, 'Bob');
    const gm = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    const a = await connectAs(srv.wsUrl, t.tableId, ann.token);
    const b = await connectAs(srv.wsUrl, t.tableId, bob.token);
    await a.client.command('a1', { type: 'create', characterId: 'ash', name: 'Ash', secret: 's1' });
    await b.client.command('b1', { type: 'create', characterId: 'birch', name: 'Birch', secret: 's2' });
    await gm.client.untilSeq(2);

    const refused = await b.client.command('b2', { type: 'rename', characterId: 'ash', name: 'Stolen' });
    expect(refused).toEqual({
      type: 'error',
      code: 'not_owner',
      message: 'that character belongs to another player',
      field: 'characterId',
      commandId: 'b2',
    });
    const impersonate = await b.client.command('b3', { type: 'create', characterId: 'c', name: 'C', secret: 's', owner: ann.participantId });
    expect(impersonate).toMatchObject({ type: 'error', code: 'not_owner' });
    // Only Bob heard about it, and nothing was appended.
    await sleep(50);
    expect(a.client.messages.filter((m) => m.type === 'error')).toEqual([]);
    expect(gm.client.messages.filter((m) => m.type === 'error')).toEqual([]);
    const state = await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token });
    expect(state.body.version).toBe(2);
    expect(state.body.state.characters.ash.name).toBe('Ash');

    expect(await a.client.command('a2', { type: 'rename', characterId: 'ash', name: 'Ashen' })).toMatchObject({ type: 'ack' });
    expect(await gm.client.command('g1', { type: 'rename', characterId: 'birch', name: 'Old Birch' })).toMatchObject({ type: 'ack' });
    for (const c of [gm, a, b]) c.client.close();
  });

  it('requires hello before anything else and closes silent connections', async () => {
    const t = await createTable(srv.url);
    const c = await TestClient.connect(srv.wsUrl);
    c.send({ type: 'command', commandId: 'x', command: { type: 'noop' } });
    expect(await c.waitFor((m) => m.type === 'error')).toMatchObject({ code: 'not_authenticated', commandId: 'x' });
    c.send({ type: 'state' });
    expect(await c.waitFor((m) => m.type === 'error')).toMatchObject({ code: 'not_authenticated' });
    expect((await c.closed).code).toBe(4008);

    const d = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    d.client.send({ type: 'hello', tableId: t.tableId, token: t.gm.token });
    expect(await d.client.waitFor((m) => m.type === 'error')).toMatchObject({ code: 'already_authenticated' });
    d.client.close();
  });

  it('enforces GM-only management over HTTP', async () => {
    const t = await createTable(srv.url);
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const bob = await joinTable(srv.url, t.tableId, t.invite.token, 'Bob');
    for (const token of [ann.token, t.observer.token]) {
      expect((await http(srv.url, 'DELETE', `/api/tables/${t.tableId}/participants/${bob.participantId}`, { token })).status).toBe(403);
      expect((await http(srv.url, 'POST', `/api/tables/${t.tableId}/links/invite/rotate`, { token })).status).toBe(403);
    }
    const self = await http(srv.url, 'DELETE', `/api/tables/${t.tableId}/participants/${t.gm.participantId}`, { token: t.gm.token });
    expect(self.body.code).toBe('cannot_remove_gm');
    const nobody = await http(srv.url, 'DELETE', `/api/tables/${t.tableId}/participants/p_nobody`, { token: t.gm.token });
    expect(nobody.status).toBe(404);
    const badKind = await http(srv.url, 'POST', `/api/tables/${t.tableId}/links/other/rotate`, { token: t.gm.token });
    expect(badKind.status).toBe(404);
  });

  it('removes a player at once: open sockets close and the token stops working', async () => {
    const t = await createTable(srv.url);
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const gm = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    const a1 = await connectAs(srv.wsUrl, t.tableId, ann.token);
    const a2 = await connectAs(srv.wsUrl, t.tableId, ann.token);
    const removed = await http(srv.url, 'DELETE', `/api/tables/${t.tableId}/participants/${ann.participantId}`, { token: t.gm.token });
    expect(removed.status).toBe(200);
    expect((await a1.client.closed).code).toBe(4003);
    expect((await a2.client.closed).code).toBe(4003);
    const update = await gm.client.waitFor((m) => m.type === 'participant-left');
    expect(update.participantId).toBe(ann.participantId);
    expect(gm.client.messages.some((m) => m.type === 'participants')).toBe(false);

    expect((await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: ann.token })).status).toBe(401);
    const cmd = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, {
      token: ann.token,
      body: { commandId: 'late', command: { type: 'roll', count: 1 } },
    });
    expect(cmd.status).toBe(401);
    const again = await TestClient.connect(srv.wsUrl);
    expect(await again.hello(t.tableId, ann.token)).toMatchObject({ code: 'unauthorized' });
    expect((await again.closed).code).toBe(4001);
    // The GM's table did not move.
    expect((await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.version).toBe(0);
    gm.client.close();
  });

  it('rotates the invite, observer and GM links', async () => {
    const t = await createTable(srv.url);
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const obs = await connectAs(srv.wsUrl, t.tableId, t.observer.token);
    const annWs = await connectAs(srv.wsUrl, t.tableId, ann.token);

    const invite = await http(srv.url, 'POST', `/api/tables/${t.tableId}/links/invite/rotate`, { token: t.gm.token });
    expect(invite.body.link).toContain('/join/');
    expect((await http(srv.url, 'POST', `/api/tables/${t.tableId}/join`, { body: { invite: t.invite.token, displayName: 'Late' } })).status).toBe(401);
    await joinTable(srv.url, t.tableId, invite.body.token, 'OnTime');
    // Players who joined before keep their access.
    expect(await annWs.client.command('a1', { type: 'roll', count: 1 })).toMatchObject({ type: 'ack' });

    const observer = await http(srv.url, 'POST', `/api/tables/${t.tableId}/links/observer/rotate`, { token: t.gm.token });
    expect((await obs.client.closed).code).toBe(4003);
    expect((await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.observer.token })).status).toBe(401);
    expect((await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: observer.body.token })).status).toBe(200);

    const gmWs = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    const gmLink = await http(srv.url, 'POST', `/api/tables/${t.tableId}/links/gm/rotate`, { token: t.gm.token });
    expect((await gmWs.client.closed).code).toBe(4003);
    expect((await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).status).toBe(401);
    const info = await http(srv.url, 'GET', `/api/tables/${t.tableId}`, { token: gmLink.body.token });
    expect(info.body.you.role).toBe('gm');
    annWs.client.close();
  });

  it('accepts commands over HTTP with the same rules', async () => {
    const t = await createTable(srv.url);
    const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
    const ok = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, {
      token: ann.token,
      body: { commandId: 'h1', command: { type: 'roll', count: 2 } },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ type: 'ack', commandId: 'h1', firstSeq: 1, lastSeq: 1, version: 1 });
    const retry = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, {
      token: ann.token,
      body: { commandId: 'h1', command: { type: 'roll', count: 2 } },
    });
    expect(retry.body).toEqual({ ...ok.body, duplicate: true });
    const illegal = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, {
      token: ann.token,
      body: { commandId: 'h2', command: { type: 'undo' } },
    });
    expect(illegal.status).toBe(422);
    expect(illegal.body).toMatchObject({ code: 'gm_only', commandId: 'h2' });
    const unknown = await http(srv.url, 'POST', `/api/tables/${t.tableId}/commands`, {
      token: ann.token,
      body: { commandId: 'h3', command: { type: 'fly' } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'unknown_command', field: 'command.type', commandId: 'h3' });
    const events = await http(srv.url, 'GET', `/api/tables/${t.tableId}/events?since=0`, { token: t.observer.token });
    expect(events.body.events).toHaveLength(1);
    expect(events.body.events[0]).toMatchObject({ type: 'event', seq: 1, event: { type: 'rolled', by: ann.participantId } });
  });
});
