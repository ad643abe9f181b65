import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config';
import { textLine } from '../src/log-format';
import { MAIN, REPO_ROOT } from './process';

describe('the text log format', () => {
  it('writes the message, then the entry\'s own fields; warnings and errors say so', () => {
    const base = { time: 1, pid: 2, hostname: 'h' };
    expect(textLine(JSON.stringify({ ...base, level: 30, msg: 'table created', tableId: 'abc' }))).toBe('table created tableId=abc\n');
    expect(textLine(JSON.stringify({ ...base, level: 40, msg: 'websocket error', err: { message: 'reset' } }))).toBe('warning: websocket error: reset\n');
    expect(textLine(JSON.stringify({ ...base, level: 50, msg: 'decide failed', tableId: 't 1', reqId: 'r' }))).toBe('error: decide failed tableId="t 1"\n');
    expect(textLine('not json')).toBe('not json\n');
  });

  it('LOG_FORMAT chooses text or json, and names a wrong value', () => {
    expect(configFromEnv({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(configFromEnv({ LOG_FORMAT: 'TEXT' }).logFormat).toBe('text');
    expect(configFromEnv({}).logFormat).toBeUndefined();
    expect(() => configFromEnv({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT is "text" or "json", got "xml"/);
  });

  it('by default the server says where it runs in one plain line and logs no line per request', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'personae-log-'));
    const env: Record<string, string> = { ...(process.env as Record<string, string>), HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir };
    delete env.LOG_FORMAT;
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const port = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "running at" line:\n${out}`)), 60_000);
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /Personae Table is running at http:\/\/127\.0\.0\.1:(\d+) /.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(Number(m[1]));
          }
        });
      });
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(res.status).toBe(200);
      await new Promise((r) => setTimeout(r, 200));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(out).toMatch(/^Personae Table is running at http:\/\/127\.0\.0\.1:\d+ \(SQLite; stop with Ctrl-C\)$/m);
      expect(out).not.toMatch(/^\{/m);
      expect(out).not.toMatch(/incoming request|request completed/);
      expect(out).toMatch(/^shutting down signal=SIGTERM$/m);
    } finally {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
