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
