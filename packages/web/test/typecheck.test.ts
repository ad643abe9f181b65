import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The app's components are TSX, which the workspace's type check (tsconfig.json at the root) does
// not cover; this runs the compiler on the web package's own tsconfig so `npm test` checks them too.
describe('the web app', () => {
  it('type-checks under its own tsconfig (strict, JSX)', () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const project = fileURLToPath(new URL('../tsconfig.json', import.meta.url));
    const run = spawnSync(process.execPath, [tsc, '-p', project, '--noEmit'], { encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 60_000);
});
