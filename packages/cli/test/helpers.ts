import { expect } from 'vitest';
import { run } from '../src/main';
import type { CliIo } from '../src/io';

export interface CliOutcome {
  /** What run() returned. */
  readonly code: number;
  /** What run() passed to io.setExitCode (the last call). */
  readonly exitCodeSet: number | undefined;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run `personae` in-process with the given words, collecting what it writes. */
export async function cli(...argv: string[]): Promise<CliOutcome> {
  const out: string[] = [];
  const err: string[] = [];
  let exitCodeSet: number | undefined;
  const io: CliIo = { stdout: (s) => void out.push(s), stderr: (s) => void err.push(s), setExitCode: (c) => void (exitCodeSet = c) };
  const code = await run(argv, io);
  return { code, exitCodeSet, stdout: out.join(''), stderr: err.join('') };
}

/** Run and parse stdout as the one JSON object it must be. */
export async function cliJson(...argv: string[]): Promise<Record<string, unknown>> {
  const r = await cli(...argv);
  if (r.code !== 0) throw new Error(`exit ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

/**
 * A user error: exit code 2 (also passed to setExitCode), nothing on stdout, and one line on stderr
 * starting "personae:", with no stack trace. `names` (when given) is what the line must say. Returns the line.
 */
export async function expectUsageError(argv: readonly string[], names?: RegExp): Promise<string> {
  const r = await cli(...argv);
  expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
  expect(r.exitCodeSet).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.endsWith('\n')).toBe(true);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^personae: \S/);
  expect(r.stderr).not.toMatch(/\n\s+at |Error:|\.ts:\d+/);
  if (names) expect(lines[0]).toMatch(names);
  return lines[0]!;
}
