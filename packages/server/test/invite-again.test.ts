import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personaeTable } from '@personae/rules';
import { sealerWithKey } from '../src/sealed';
import { createTable, http, joinTable, startServer, type CreatedTable, type Running } from './helpers';

/**
 * The GM sees the invite link again on another device: the server keeps it sealed with a key the
 * database does not hold, shows it to the GM's token only, and a replaced invite replaces what it shows.
 */

describe('the invite link shown again to the GM', () => {
  let srv: Running;
  let t: CreatedTable;
  let ann: { participantId: string; token: string };
  const path = () => `/api/tables/${t.tableId}/links/invite`;

  beforeAll(async () => {
    srv = await startServer(personaeTable, { config: { linkKey: randomBytes(32).toString('base64') } });
    t = await createTable(srv.url);
    ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
  });
  afterAll(async () => srv?.close());

  it('shows the GM the current invite, which works, and keeps it only sealed in the database', async () => {
    const res = await http(srv.url, 'GET', path(), { token: t.gm.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ kind: 'invite', token: t.invite.token, link: t.invite.link });
    await joinTable(srv.url, t.tableId, res.body.token, 'Bob');
    const sealed = await srv.store.getSealedInvite(t.tableId);
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain(t.invite.token);
    expect(sealed).not.toContain(Buffer.from(t.invite.token).toString('base64url'));
  });

  it('refuses a player, the observer link and no token', async () => {
    expect((await http(srv.url, 'GET', path(), { token: ann.token })).status).toBe(403);
    expect((await http(srv.url, 'GET', path(), { token: t.observer.token })).status).toBe(403);
    expect((await http(srv.url, 'GET', path())).status).toBe(401);
    expect((await http(srv.url, 'GET', path(), { token: t.invite.token })).status).toBe(401);
  });

  it('shows the new invite once the GM replaces it', async () => {
    const rotated = await http(srv.url, 'POST', `/api/tables/${t.tableId}/links/invite/rotate`, { token: t.gm.token, body: {} });
    expect(rotated.status).toBe(200);
    const res = await http(srv.url, 'GET', path(), { token: t.gm.token });
    expect(res.body.token).toBe(rotated.body.token);
    expect(res.body.token).not.toBe(t.invite.token);
  });

  it('a sealed link opens only with its key and for its table; a changed byte opens nothing', () => {
    const key = randomBytes(32);
    const sealed = sealerWithKey(key).seal('t_one', 'invite_secret');
    expect(sealerWithKey(key).open('t_one', sealed)).toBe('invite_secret');
    expect(sealerWithKey(key).open('t_two', sealed)).toBeNull();
    expect(sealerWithKey(randomBytes(32)).open('t_one', sealed)).toBeNull();
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    expect(sealerWithKey(key).open('t_one', [...parts.slice(0, 3), body.toString('base64url')].join('.'))).toBeNull();
    expect(sealerWithKey(key).open('t_one', 'not sealed')).toBeNull();
  });
});

describe('a server without a link key', () => {
  it('keeps no invite to show again and says how to get one', async () => {
    const srv = await startServer(personaeTable);
    try {
      const t = await createTable(srv.url);
      const res = await http(srv.url, 'GET', `/api/tables/${t.tableId}/links/invite`, { token: t.gm.token });
      expect(res.status).toBe(404);
      expect(res.body.message).toMatch(/replace the invite link/);
      expect(await srv.store.getSealedInvite(t.tableId)).toBeNull();
    } finally {
      await srv.close();
    }
  });
});
