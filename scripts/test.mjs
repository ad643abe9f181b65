// The project's one test command: type checking, then every test suite, then a summary line
// "N passed, N failed" that CI reads.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', env: process.env });

// The services the suites talk to (PostgreSQL, Debian's Chromium): started or installed if missing.
run('bash', [new URL('./ci-services.sh', import.meta.url).pathname]);

console.log('> tsc --noEmit');
const typecheck = run('npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
const typecheckFailed = typecheck.status !== 0;
if (typecheckFailed) console.log('type check failed');

const dir = mkdtempSync(join(tmpdir(), 'personae-test-'));
const report = join(dir, 'report.json');
const extra = process.argv.slice(2);
const tests = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extra]);

let passed = 0;
let failed = 0;
try {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed = json.numPassedTests;
  failed = json.numFailedTests + (json.numFailedTestSuites ?? 0);
} catch {
  failed += 1;
  console.log('no test report was written');
}
rmSync(dir, { recursive: true, force: true });
if (typecheckFailed) failed += 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || tests.status !== 0 || passed === 0 ? 1 : 0);
