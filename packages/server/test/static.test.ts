import { request } from 'node:http';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretDecider } from './fixtures/secret-decider';
import { startServer, tempDir, type Running } from './helpers';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET or HEAD that hands back the bytes as sent: fetch would decompress them on the way. */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

describe('the web app: compressed and cached', () => {
  let srv: Running;
  let web: string;
  const file = (path: string) => readFileSync(join(web, path));

  beforeAll(async () => {
    web = tempDir();
    mkdirSync(join(web, 'assets'));
    writeFileSync(join(web, 'index.html'), `<!doctype html><title>Personae Table</title>${'<p>the app</p>'.repeat(200)}`);
    const lines = Array.from({ length: 2000 }, (_, i) => `export const value${i} = ${i * 7} + "some text that repeats";`);
    writeFileSync(join(web, 'assets', 'pages-Ab3dE9xQ.js'), lines.join('\n'));
    writeFileSync(join(web, 'assets', 'index-Zz81kLmP.css'), 'body { color: #222; }\n'.repeat(300));
    writeFileSync(join(web, 'assets', 'logo-Q1w2E3r4.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array(2000).fill(7)]));
    writeFileSync(join(web, 'favicon.ico'), Buffer.alloc(1500, 1));
    srv = await startServer(secretDecider, { config: { staticDir: web } });
  });
  afterAll(async () => {
    await srv.close();
    rmSync(web, { recursive: true, force: true });
  });

  it('sends brotli or gzip as the browser accepts, and the bytes unpack to the file', async () => {
    const original = file('assets/pages-Ab3dE9xQ.js');
    const br = await raw(`${srv.url}/assets/pages-Ab3dE9xQ.js`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(br.body.length).toBeLessThan(original.length / 5);
    expect(brotliDecompressSync(br.body).equals(original)).toBe(true);

    const gzip = await raw(`${srv.url}/assets/pages-Ab3dE9xQ.js`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(original)).toBe(true);
    const notBr = await raw(`${srv.url}/assets/index-Zz81kLmP.css`, { 'accept-encoding': 'br;q=0, gzip' });
    expect(notBr.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(notBr.body).equals(file('assets/index-Zz81kLmP.css'))).toBe(true);

    const plainHeaders: Array<Record<string, string>> = [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'deflate' }];
    for (const headers of plainHeaders) {
      const plain = await raw(`${srv.url}/assets/pages-Ab3dE9xQ.js`, headers);
      expect(plain.headers['content-encoding'], JSON.stringify(headers)).toBeUndefined();
      expect(plain.headers['content-length']).toBe(String(original.length));
      expect(plain.body.equals(original)).toBe(true);
    }
  });

  it('compresses the page itself, also where it answers one of the app\'s routes', async () => {
    for (const path of ['/', '/index.html', '/table/t_abc', '/join/t_abc']) {
      const res = await raw(`${srv.url}${path}`, { 'accept-encoding': 'br' });
      expect(res.headers['content-encoding'], path).toBe('br');
      expect(brotliDecompressSync(res.body).equals(file('index.html')), path).toBe(true);
    }
  });

  it('leaves images alone', async () => {
    const png = await raw(`${srv.url}/assets/logo-Q1w2E3r4.png`, { 'accept-encoding': 'br, gzip' });
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.body.equals(file('assets/logo-Q1w2E3r4.png'))).toBe(true);
  });

  it('lets browsers keep the hashed build files for a year and revalidate the page every time', async () => {
    for (const path of ['/assets/pages-Ab3dE9xQ.js', '/assets/index-Zz81kLmP.css', '/assets/logo-Q1w2E3r4.png']) {
      expect((await raw(`${srv.url}${path}`)).headers['cache-control'], path).toBe(IMMUTABLE);
    }
    for (const path of ['/', '/index.html', '/table/t_abc', '/watch/t_abc', '/assets/no-extension']) {
      const res = await raw(`${srv.url}${path}`, { 'accept-encoding': 'gzip' });
      expect(res.status, path).toBe(200);
      expect(res.headers['cache-control'], path).toBe('no-cache');
    }
    expect((await raw(`${srv.url}/favicon.ico`)).headers['cache-control']).toBe('public, max-age=300');
    const missing = await raw(`${srv.url}/assets/missing-A1b2C3d4.js`, { 'accept-encoding': 'br' });
    expect(missing.status).toBe(404);
    expect(missing.headers['cache-control']).toBeUndefined();
    expect(JSON.parse(missing.body.toString())).toMatchObject({ type: 'error', code: 'not_found' });
  });

  it('answers a revalidation with 304 while the file is unchanged', async () => {
    const first = await raw(`${srv.url}/`, { 'accept-encoding': 'br' });
    const etag = first.headers.etag as string;
    const lastModified = first.headers['last-modified'] as string;
    expect(etag).toMatch(/^W\/"[0-9a-z]+-[0-9a-z]+"$/);
    expect(new Date(lastModified).getTime()).toBeGreaterThan(0);
    const validators: Array<Record<string, string>> = [
      { 'if-none-match': etag },
      { 'if-none-match': `"other", ${etag}` },
      { 'if-modified-since': lastModified },
    ];
    for (const headers of validators) {
      const again = await raw(`${srv.url}/`, { 'accept-encoding': 'br', ...headers });
      expect(again.status, JSON.stringify(headers)).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers['cache-control']).toBe('no-cache');
      expect(again.headers.etag).toBe(etag);
    }
    expect((await raw(`${srv.url}/`, { 'if-none-match': 'W/"stale-1"' })).status).toBe(200);
    expect((await raw(`${srv.url}/`, { 'if-modified-since': new Date(Date.parse(lastModified) - 60_000).toUTCString() })).status).toBe(200);
  });

  it('answers HEAD with the headers and the length of the file, and no body', async () => {
    const head = await raw(`${srv.url}/assets/pages-Ab3dE9xQ.js`, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(file('assets/pages-Ab3dE9xQ.js').length));
    expect(head.headers['cache-control']).toBe(IMMUTABLE);
    expect(head.body.length).toBe(0);
  });

  it('does not compress or cache the API', async () => {
    const health = await raw(`${srv.url}/api/health`, { 'accept-encoding': 'br, gzip' });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.headers['cache-control']).toBeUndefined();
    expect(JSON.parse(health.body.toString())).toMatchObject({ status: 'ok' });
    const unknown = await raw(`${srv.url}/api/tables/t_x/nothing-here`, { 'accept-encoding': 'br' });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body.toString())).toMatchObject({ code: 'not_found' });
  });
});
