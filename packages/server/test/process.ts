import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const MAIN = 'packages/server/src/main.ts';

/** A Personae table command that rolls `count` dice against two (what the process tests send). */
export function rollCommand(count: number) {
  return { type: 'roll', actor: { name: 'Roller', dice: count }, reactor: { name: 'Opposition', dice: 2 } };
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  wsUrl: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `node --import tsx packages/server/src/main.ts` (or the built server `entry`, a .mjs file)
 * and waits for its "ready" log line.
 */
export function spawnServer(env: Record<string, string>, timeoutMs = 60_000, entry?: string): Promise<ServerProcess> {
  const child = spawn(process.execPath, entry ? [entry] : ['--import', 'tsx', MAIN], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in time:\n${out}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      for (const line of out.split('\n')) {
        if (!line.includes('table server ready')) continue;
        const { port } = JSON.parse(line) as { port: number };
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
        resolve({
          child,
          port,
          url: `http://127.0.0.1:${port}`,
          wsUrl: `ws://127.0.0.1:${port}/ws`,
          output: () => out,
          exited,
        });
        return;
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before it was ready:\n${out}`));
    });
  });
}
