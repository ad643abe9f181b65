import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'personae-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs startWorker in a child process started through tsx with one more preload, `marker.mjs`, which
 * marks every worker thread it runs in; prints what the worker answers.
 */
function startIn(workerFile: string): { data: unknown; preloaded: boolean } {
  writeFileSync(join(dir, 'marker.mjs'), "import { isMainThread } from 'node:worker_threads';\nif (!isMainThread) globalThis.preloaded = true;\n");
  const script = [
    `import { startWorker } from ${JSON.stringify(pathToFileURL(join(root, 'packages/core/src/worker.ts')).href)};`,
    `const worker = startWorker(new URL(${JSON.stringify(pathToFileURL(join(dir, workerFile)).href)}), { seed: 7 });`,
    "worker.once('message', (m) => { console.log(JSON.stringify(m)); void worker.terminate(); });",
  ].join('\n');
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', pathToFileURL(join(dir, 'marker.mjs')).href, '--input-type=module', '--eval', script], {
    cwd: root,
    encoding: 'utf8',
    timeout: 50_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { data: unknown; preloaded: boolean };
}

describe('startWorker', () => {
  it('starts built JavaScript without the preloads of the process (a bundle needs no loader)', () => {
    writeFileSync(
      join(dir, 'built.mjs'),
      "import { parentPort, workerData } from 'node:worker_threads';\nparentPort.postMessage({ data: workerData, preloaded: globalThis.preloaded === true });\n",
    );
    expect(startIn('built.mjs')).toEqual({ data: { seed: 7 }, preloaded: false });
  }, 60_000);

  it('starts a TypeScript module through tsx', () => {
    writeFileSync(
      join(dir, 'source.ts'),
      "import { parentPort, workerData } from 'node:worker_threads';\nconst seed: number = (workerData as { seed: number }).seed;\nparentPort!.postMessage({ data: { seed }, preloaded: (globalThis as { preloaded?: boolean }).preloaded === true });\n",
    );
    expect(startIn('source.ts').data).toEqual({ seed: 7 });
  }, 60_000);
});
