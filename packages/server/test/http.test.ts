import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretDecider } from './fixtures/secret-decider';
import { createServer } from '../src/server';
import { connectAs, createTable, http, joinTable, openTestStore, relaxedLimits, startServer, tempDir, TestClient, type Running } from './helpers';

describe('health, static files and links', () => {
  let srv: Running;
  let web: string;
  beforeAll(async () => {
    web = tempDir();
    mkdirSync(join(web, 'assets'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>Personae Table</title>');
    writeFileSync(join(web, 'assets', 'app.js'), 'console.log("app")');
    writeFileSync(join(web, '..', 'outside-secret.txt'), 'do not serve');
    srv = await startServer(secretDecider, { config: { staticDir: web, publicUrl: 'https://table.example.org/' } });
  });
  afterAll(async () => {
    await srv.close();
    rmSync(web, { recursive: true, force: true });
    rmSync(join(web, '..', 'outside-secret.txt'), { force: true });
  });

  it('answers GET /api/health with 200 JSON when ready', async () => {
    const res = await http(srv.url, 'GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toMatchObject({ status: 'ok', store: 'sqlite' });
  });

  it('serves the web app from staticDir, with the app for its own routes', async () => {
    const index = await fetch(`${srv.url}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await index.text()).toContain('Personae Table');
    const js = await fetch(`${srv.url}/assets/app.js`);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toBe('console.log("app")');
    const route = await fetch(`${srv.url}/table/t_abc`);
    expect(await route.text()).toContain('Personae Table');
    expect((await fetch(`${srv.url}/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${srv.url}/api/nope`)).status).toBe(404);
    const head = await fetch(`${srv.url}/assets/app.js`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('18');
  });

  it('never serves files outside staticDir', async () => {
    for (const path of ['/../outside-secret.txt', '/%2e%2e/outside-secret.txt', '/assets/%2e%2e%2f%2e%2e%2foutside-secret.txt', '/%00']) {
      const res = await fetch(`${srv.url}${path}`);
      expect(await res.text()).not.toContain('do not serve');
    }
  });

  it('builds links from publicUrl', async () => {
    const t = await createTable(srv.url);
    expect(t.gm.link).toBe(`https://table.example.org/table/${t.tableId}#token=${t.gm.token}`);
    expect(t.invite.link).toBe(`https://table.example.org/join/${t.tableId}#invite=${t.invite.token}`);
  });

  it('names the table for its current invite only, and tells nothing else', async () => {
    const t = await createTable(srv.url, { name: 'The Salt Road', gmName: 'Mara' });
    const ok = await http(srv.url, 'POST', `/api/tables/${t.tableId}/invitation`, { body: { invite: t.invite.token } });
    expect(ok).toMatchObject({ status: 200, body: { table: { id: t.tableId, name: 'The Salt Road' } } });
    expect(Object.keys((ok.body as { table: object }).table).sort()).toEqual(['id', 'name']);
    // A made-up invite, another table's invite, the GM's own token and a replaced invite are all refused alike.
    const other = await createTable(srv.url, { name: 'Elsewhere' });
    for (const invite of ['in_' + 'x'.repeat(43), other.invite.token, t.gm.token]) {
      expect(await http(srv.url, 'POST', `/api/tables/${t.tableId}/invitation`, { body: { invite } })).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
    }
    const rotated = await http(srv.url, 'POST', `/api/tables/${t.tableId}/links/invite/rotate`, { token: t.gm.token, body: {} });
    expect(rotated.status).toBe(200);
    expect(await http(srv.url, 'POST', `/api/tables/${t.tableId}/invitation`, { body: { invite: t.invite.token } })).toMatchObject({ status: 401 });
    const fresh = (rotated.body as { token: string }).token;
    expect(await http(srv.url, 'POST', `/api/tables/${t.tableId}/invitation`, { body: { invite: fresh } })).toMatchObject({ status: 200, body: { table: { name: 'The Salt Road' } } });
    // Bad input names the field.
    expect(await http(srv.url, 'POST', `/api/tables/${t.tableId}/invitation`, { body: { invite: 42 } })).toMatchObject({ status: 400, body: { field: 'invite' } });
    expect(await http(srv.url, 'POST', `/api/tables/${t.tableId}/invitation`, { body: { invite: t.invite.token, extra: 1 } })).toMatchObject({ status: 400 });
  });

  it('refuses bodies that are not JSON objects', async () => {
    const res = await fetch(`${srv.url}/api/tables`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ type: 'error', code: 'invalid_message' });
    const bad = await http(srv.url, 'POST', '/api/tables', { rawBody: '{"name":' });
    expect(bad).toMatchObject({ status: 400, body: { code: 'bad_json' } });
    const missing = await http(srv.url, 'POST', '/api/tables', { body: {} });
    expect(missing).toMatchObject({ status: 400, body: { code: 'invalid_message', field: 'name' } });
  });
});

describe('health when the database does not answer', () => {
  it('answers 503', async () => {
    const ts = await openTestStore('sqlite');
    const failing = { ...ts.store, ping: async () => Promise.reject(new Error('database unreachable')) };
    const server = await createServer({ host: '127.0.0.1', port: 0, logLevel: 'silent', store: failing }, secretDecider);
    try {
      const { url } = await server.listen();
      const res = await http(url, 'GET', '/api/health');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'unavailable', store: 'sqlite' });
    } finally {
      await server.close();
      await ts.cleanup();
    }
  });
});

describe('logs', () => {
  it('never contain a token', async () => {
    const lines: string[] = [];
    const srv = await startServer(secretDecider, {
      config: { logLevel: 'debug', logStream: { write: (line: string) => void lines.push(line) } },
    });
    try {
      const t = await createTable(srv.url);
      const ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
      const { client } = await connectAs(srv.wsUrl, t.tableId, ann.token);
      await client.command('c1', { type: 'roll', count: 1 });
      client.close();
      const bad = await TestClient.connect(srv.wsUrl);
      await bad.hello(t.tableId, `${ann.token}x`);
      await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token });
      await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: `${t.observer.token}-wrong` });
      await http(srv.url, 'POST', `/api/tables/${t.tableId}/links/invite/rotate`, { token: t.gm.token });
      await http(srv.url, 'POST', `/api/tables/${t.tableId}/join`, { rawBody: `{"invite":"${t.invite.token}",` });
      const log = lines.join('');
      expect(lines.length).toBeGreaterThan(5);
      expect(log).toContain('table created');
      for (const token of [t.gm.token, t.invite.token, t.observer.token, ann.token]) {
        expect(log).not.toContain(token);
        expect(log).not.toContain(token.slice(3));
      }
    } finally {
      await srv.close();
    }
  });
});

describe('graceful close', () => {
  it('finishes queued commands, closes sockets with 1001 and stops answering', async () => {
    const srv = await startServer(secretDecider, { config: relaxedLimits(100) });
    const t = await createTable(srv.url);
    const { client } = await connectAs(srv.wsUrl, t.tableId, t.gm.token);
    for (let i = 0; i < 20; i++) client.send({ type: 'command', commandId: `c${i}`, command: { type: 'roll', count: 1 } });
    await client.waitFor((m) => m.type === 'ack' && m.commandId === 'c0');
    const closing = srv.server.close();
    const closed = await client.closed;
    await closing;
    expect(closed.code).toBe(1001);
    const acks = client.messages.filter((m) => m.type === 'ack');
    const refused = client.messages.filter((m) => m.type === 'error');
    expect(refused.every((m) => m.code === 'shutting_down')).toBe(true);
    expect(acks.map((a) => a.firstSeq)).toEqual(acks.map((_, i) => i + 1));
    // Everything acknowledged is in the store.
    expect((await srv.store.getTable(t.tableId))!.version).toBe(acks.length);
    await expect(fetch(`${srv.url}/api/health`)).rejects.toThrow();
    await srv.close();
  });
});
