import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personaeTable } from '@personae/rules';
import { MAX_PORTRAIT_BYTES } from '../src/portraits';
import { connectAs, createTable, exampleSheet, http, joinTable, runPg, startServer, tempDir, type CreatedTable, type Running, type StoreKind, type TestClient } from './helpers';

/**
 * Uploaded portraits over HTTP, tried as an attacker would: too large, not an image, an image under a
 * false type, someone else's character, a hidden character, no token. Whatever is refused leaves the
 * stored portrait as it was; what is accepted is served back byte for byte with its checked type.
 */

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR and the rest of a small image')]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF body')]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x20, 0, 0, 0]), Buffer.from('WEBPVP8 body')]);
const HTML = Buffer.from('<html><script>alert(document.cookie)</script></html>');

async function put(base: string, path: string, token: string | undefined, body: Buffer, type: string) {
  const res = await fetch(`${base}${path}`, { method: 'PUT', headers: { 'content-type': type, ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: new Uint8Array(body) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

const kinds: StoreKind[] = runPg ? ['sqlite', 'postgres'] : ['sqlite'];

for (const kind of kinds) {
  describe(`character portraits over HTTP (${kind})`, () => {
    let srv: Running;
    let t: CreatedTable;
    let ann: { participantId: string; token: string };
    let bob: { participantId: string; token: string };
    let gm: TestClient;
    let bobWs: TestClient;
    const ids: Record<string, string> = {};
    let n = 0;
    const path = (id: string) => `/api/tables/${t.tableId}/characters/${id}/portrait`;
    const backupDir = tempDir();

    beforeAll(async () => {
      srv = await startServer(personaeTable, { kind, config: { backupDir, backupEveryMinutes: 0, importRate: { max: 20, windowMs: 60_000 } } });
      t = await createTable(srv.url);
      ann = await joinTable(srv.url, t.tableId, t.invite.token, 'Ann');
      bob = await joinTable(srv.url, t.tableId, t.invite.token, 'Bob');
      gm = (await connectAs(srv.wsUrl, t.tableId, t.gm.token)).client;
      const annWs = (await connectAs(srv.wsUrl, t.tableId, ann.token)).client;
      bobWs = (await connectAs(srv.wsUrl, t.tableId, bob.token)).client;
      expect((await annWs.command(`c${++n}`, { type: 'add-character', sheet: exampleSheet('dwarf-iron-constitution.yaml') })).type).toBe('ack');
      expect((await gm.command(`c${++n}`, { type: 'add-character', sheet: exampleSheet('merchant-privateer-scoundrel.yaml'), hidden: true })).type).toBe('ack');
      annWs.close();
      const state = (await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.state;
      const [kestrel, grask] = (state.characters as { id: string; name: string }[]).map((c) => c.id);
      ids.Kestrel = kestrel!;
      ids.Grask = grask!;
    });

    afterAll(async () => {
      gm?.close();
      bobWs?.close();
      await srv?.close();
    });

    it('the owner uploads a PNG; it is served back byte for byte as image/png with nosniff, and listed', async () => {
      const up = await put(srv.url, path(ids.Kestrel!), ann.token, PNG, 'image/png');
      expect(up.status).toBe(200);
      expect(up.body.digest).toMatch(/^[0-9a-f]{64}$/);
      const res = await fetch(`${srv.url}${path(ids.Kestrel!)}`, { headers: { authorization: `Bearer ${bob.token}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
      const list = await http(srv.url, 'GET', `/api/tables/${t.tableId}/portraits`, { token: bob.token });
      expect(list.body).toEqual({ portraits: { [ids.Kestrel!]: up.body.digest } });
    });

    it('refuses an image over the limit with 413, naming the limit, and keeps the portrait', async () => {
      const big = Buffer.concat([PNG, Buffer.alloc(MAX_PORTRAIT_BYTES)]);
      const up = await put(srv.url, path(ids.Kestrel!), ann.token, big, 'image/png');
      expect(up.status).toBe(413);
      expect(up.body).toMatchObject({ code: 'image_too_large', field: 'portrait' });
      expect(up.body.message).toContain(`${MAX_PORTRAIT_BYTES} bytes`);
      const res = await fetch(`${srv.url}${path(ids.Kestrel!)}`, { headers: { authorization: `Bearer ${ann.token}` } });
      expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    });

    it('refuses what is not a PNG, JPEG or WebP by its content, whatever the request says (415)', async () => {
      const html = await put(srv.url, path(ids.Kestrel!), ann.token, HTML, 'image/png');
      expect(html.status).toBe(415);
      expect(html.body.message).toMatch(/not a PNG, JPEG or WebP image/);
      const lying = await put(srv.url, path(ids.Kestrel!), ann.token, JPEG, 'image/png');
      expect(lying.status).toBe(415);
      expect(lying.body.message).toBe('portrait: the content is image/jpeg, not image/png as the request says');
      const svg = await put(srv.url, path(ids.Kestrel!), ann.token, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml');
      expect(svg.status).toBe(415);
      expect(svg.body.message).toContain('not "image/svg+xml"');
      const json = await http(srv.url, 'PUT', path(ids.Kestrel!), { token: ann.token, body: { image: 'x' } });
      expect(json.status).toBe(415);
      const res = await fetch(`${srv.url}${path(ids.Kestrel!)}`, { headers: { authorization: `Bearer ${ann.token}` } });
      expect(res.headers.get('content-type')).toBe('image/png');
    });

    it("refuses someone else's character (403), a hidden one as if absent (404), and no token (401)", async () => {
      const other = await put(srv.url, path(ids.Kestrel!), bob.token, JPEG, 'image/jpeg');
      expect(other.status).toBe(403);
      expect(other.body.code).toBe('forbidden');
      const removal = await http(srv.url, 'DELETE', path(ids.Kestrel!), { token: bob.token });
      expect(removal.status).toBe(403);
      const hidden = await put(srv.url, path(ids.Grask!), bob.token, JPEG, 'image/jpeg');
      expect(hidden.status).toBe(404);
      const anonymous = await put(srv.url, path(ids.Kestrel!), undefined, JPEG, 'image/jpeg');
      expect(anonymous.status).toBe(401);
      const observer = await put(srv.url, path(ids.Kestrel!), t.observer.token, JPEG, 'image/jpeg');
      expect(observer.status).toBe(403);
      const res = await fetch(`${srv.url}${path(ids.Kestrel!)}`, { headers: { authorization: `Bearer ${ann.token}` } });
      expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    });

    it("the GM sets a hidden character's portrait; a player neither gets it nor hears of it", async () => {
      const before = bobWs.frames.length;
      const up = await put(srv.url, path(ids.Grask!), t.gm.token, WEBP, 'image/webp');
      expect(up.status).toBe(200);
      const asBob = await fetch(`${srv.url}${path(ids.Grask!)}`, { headers: { authorization: `Bearer ${bob.token}` } });
      expect(asBob.status).toBe(404);
      expect((await http(srv.url, 'GET', `/api/tables/${t.tableId}/portraits`, { token: bob.token })).body.portraits).not.toHaveProperty(ids.Grask!);
      const asGm = await fetch(`${srv.url}${path(ids.Grask!)}`, { headers: { authorization: `Bearer ${t.gm.token}` } });
      expect(asGm.headers.get('content-type')).toBe('image/webp');
      // Kestrel's change reaches Bob; Grask's never did.
      await put(srv.url, path(ids.Kestrel!), t.gm.token, JPEG, 'image/jpeg');
      await bobWs.waitFor((m) => m.type === 'portrait' && m.characterId === ids.Kestrel);
      expect(bobWs.frames.slice(before).join('\n')).not.toContain(ids.Grask!);
      expect(gm.messages.some((m) => m.type === 'portrait' && m.characterId === ids.Grask)).toBe(true);
    });

    const image = async (base: string, tableId: string, id: string, token: string) => {
      const res = await fetch(`${base}/api/tables/${tableId}/characters/${id}/portrait`, { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, type: res.headers.get('content-type'), data: Buffer.from(await res.arrayBuffer()) };
    };

    it("the GM's export carries every portrait, a player's only those they may see, and an import restores them", async () => {
      const file = (await http(srv.url, 'GET', `/api/tables/${t.tableId}/export`, { token: t.gm.token })).body;
      expect(Object.keys(file.portraits).sort()).toEqual([ids.Kestrel, ids.Grask].sort());
      expect(file.portraits[ids.Kestrel!]).toEqual({ contentType: 'image/jpeg', digest: expect.stringMatching(/^[0-9a-f]{64}$/), data: JPEG.toString('base64') });
      expect(file.portraits[ids.Grask!]).toMatchObject({ contentType: 'image/webp', data: WEBP.toString('base64') });
      const asBob = (await http(srv.url, 'GET', `/api/tables/${t.tableId}/export`, { token: bob.token })).body;
      expect(Object.keys(asBob.portraits)).toEqual([ids.Kestrel]);

      const imported = await http(srv.url, 'POST', '/api/tables/import', { body: file });
      expect(imported.status).toBe(201);
      const copy = imported.body as { tableId: string; gm: { token: string } };
      expect(await image(srv.url, copy.tableId, ids.Kestrel!, copy.gm.token)).toEqual({ status: 200, type: 'image/jpeg', data: JPEG });
      expect(await image(srv.url, copy.tableId, ids.Grask!, copy.gm.token)).toEqual({ status: 200, type: 'image/webp', data: WEBP });
      const list = await http(srv.url, 'GET', `/api/tables/${copy.tableId}/portraits`, { token: copy.gm.token });
      expect(list.body.portraits).toEqual({ [ids.Kestrel!]: file.portraits[ids.Kestrel!].digest, [ids.Grask!]: file.portraits[ids.Grask!].digest });
    });

    it('a backup carries the portraits and restores them', async () => {
      await srv.server.backups.run();
      const names = readdirSync(join(backupDir, t.tableId)).sort();
      const file = JSON.parse(readFileSync(join(backupDir, t.tableId, names.at(-1)!), 'utf8'));
      expect(file.portraits[ids.Grask!]).toMatchObject({ contentType: 'image/webp', data: WEBP.toString('base64') });
      const restored = await http(srv.url, 'POST', '/api/tables/import', { body: file });
      expect(restored.status).toBe(201);
      expect(await image(srv.url, restored.body.tableId, ids.Kestrel!, restored.body.gm.token)).toEqual({ status: 200, type: 'image/jpeg', data: JPEG });
      // A portrait changed alone (no event) is backed up on the next run; with nothing changed, nothing is written.
      expect((await srv.server.backups.run()).written).not.toContain(t.tableId);
      expect((await put(srv.url, path(ids.Grask!), t.gm.token, PNG, 'image/png')).status).toBe(200);
      expect((await srv.server.backups.run()).written).toContain(t.tableId);
      const newest = readdirSync(join(backupDir, t.tableId)).sort().at(-1)!;
      expect(JSON.parse(readFileSync(join(backupDir, t.tableId, newest), 'utf8')).portraits[ids.Grask!]).toMatchObject({ contentType: 'image/png', data: PNG.toString('base64') });
      expect((await put(srv.url, path(ids.Grask!), t.gm.token, WEBP, 'image/webp')).status).toBe(200);
    });

    it('refuses an import whose portrait is bad, naming the character, and creates no table', async () => {
      const file = (await http(srv.url, 'GET', `/api/tables/${t.tableId}/export`, { token: t.gm.token })).body;
      const tablesBefore = (await srv.store.listTables()).length;
      const good = file.portraits[ids.Kestrel!];
      const tries: Array<[Record<string, unknown>, RegExp]> = [
        [{ ...good, digest: 'a'.repeat(64) }, /digest "a{64}" is not the image's SHA-256/],
        [{ ...good, contentType: 'image/png', data: HTML.toString('base64') }, /not a PNG, JPEG or WebP image/],
        [{ ...good, contentType: 'image/png' }, /the content is image\/jpeg, not image\/png/],
        [{ ...good, data: Buffer.concat([JPEG, Buffer.alloc(MAX_PORTRAIT_BYTES)]).toString('base64') }, /portrait: the image is larger than the limit of 256 KiB/],
        [{ ...good, data: 'not base64!' }, /not base64/],
      ];
      for (const [portrait, message] of tries) {
        const refused = await http(srv.url, 'POST', '/api/tables/import', { body: { ...file, portraits: { ...file.portraits, [ids.Kestrel!]: portrait } } });
        expect(refused.status).toBe(400);
        expect(refused.body.code).toBe('invalid_import');
        expect(refused.body.field).toContain(`portraits.${ids.Kestrel}`);
        expect(refused.body.message).toMatch(message);
      }
      const stranger = await http(srv.url, 'POST', '/api/tables/import', { body: { ...file, portraits: { nobody: good } } });
      expect(stranger.status).toBe(400);
      expect(stranger.body).toMatchObject({ code: 'invalid_import', field: 'portraits.nobody', message: 'portraits: character "nobody" is not at this table' });
      expect((await srv.store.listTables()).length).toBe(tablesBefore);
    });

    it('the owner removes the portrait', async () => {
      const removal = await http(srv.url, 'DELETE', path(ids.Kestrel!), { token: ann.token });
      expect(removal.status).toBe(200);
      expect(removal.body).toEqual({ characterId: ids.Kestrel, digest: null });
      const res = await fetch(`${srv.url}${path(ids.Kestrel!)}`, { headers: { authorization: `Bearer ${ann.token}` } });
      expect(res.status).toBe(404);
    });
  });
}

describe('portrait uploads are throttled per address', () => {
  it('answers 429 rate_limited past the limit and keeps the stored portrait', async () => {
    const srv = await startServer(personaeTable, { config: { portraitRate: { max: 2, windowMs: 60_000 } } });
    try {
      const t = await createTable(srv.url);
      const gm = (await connectAs(srv.wsUrl, t.tableId, t.gm.token)).client;
      expect((await gm.command('c1', { type: 'add-character', sheet: exampleSheet('dwarf-iron-constitution.yaml') })).type).toBe('ack');
      gm.close();
      const id = (await http(srv.url, 'GET', `/api/tables/${t.tableId}/state`, { token: t.gm.token })).body.state.characters[0].id as string;
      const path = `/api/tables/${t.tableId}/characters/${id}/portrait`;
      expect((await put(srv.url, path, t.gm.token, PNG, 'image/png')).status).toBe(200);
      expect((await put(srv.url, path, t.gm.token, JPEG, 'image/jpeg')).status).toBe(200);
      const refused = await put(srv.url, path, t.gm.token, WEBP, 'image/webp');
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'rate_limited' });
      expect(refused.body.message).toContain('more than 2 of these requests from one address');
      expect(refused.body.retryAfterMs).toBeGreaterThan(0);
      const removal = await http(srv.url, 'DELETE', path, { token: t.gm.token });
      expect(removal.status).toBe(429);
      const res = await fetch(`${srv.url}${path}`, { headers: { authorization: `Bearer ${t.gm.token}` } });
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(Buffer.from(await res.arrayBuffer()).equals(JPEG)).toBe(true);
    } finally {
      await srv.close();
    }
  });
});
