/**
 * What a command may touch of the outside world. The real binary hands it the process streams;
 * tests hand it functions that collect the text, so every command runs in-process.
 *
 * `stdout` and `stderr` write the text exactly as given: the caller ends its lines with "\n".
 */
export interface CliIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  stdin?: NodeJS.ReadableStream;
  setExitCode: (code: number) => void;
}

/** Exit codes of the `personae` command (docs/cli.md "Exit codes"). */
export const EXIT_OK = 0;
/** Something went wrong inside the program itself: a bug, never the user's input. */
export const EXIT_INTERNAL = 1;
/** The input was wrong: a bad dice expression, an unknown option, a missing argument. */
export const EXIT_USAGE = 2;

/**
 * A mistake in what the user typed. `run()` prints its message as one line,
 * `personae: <message>`, and exits with code 2. Any command may throw it.
 */
export class CliError extends Error {
  override readonly name = 'CliError';
}

/** The process's own streams, for the real binary. */
export function processIo(): CliIo {
  return {
    stdout: (s) => void process.stdout.write(s),
    stderr: (s) => void process.stderr.write(s),
    stdin: process.stdin,
    setExitCode: (code) => {
      process.exitCode = code;
    },
  };
}

/** Write lines to a stream, one "\n" after each. */
export function writeLines(write: (s: string) => void, lines: readonly string[]): void {
  if (lines.length > 0) write(lines.join('\n') + '\n');
}
