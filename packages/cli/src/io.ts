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
  /** Whether stderr is a terminal: progress bars are drawn there only then. */
  stderrIsTTY?: boolean;
  /** The width of that terminal, in columns. */
  stderrColumns?: number;
  /**
   * Ask to hear of Ctrl-C: `stop` is called on an interrupt until the returned function is called.
   * Without it a long job cannot be interrupted cleanly (the process just ends).
   */
  onInterrupt?: (stop: () => void) => () => void;
}

/** Exit codes of the `personae` command (docs/cli.md "Exit codes"). */
export const EXIT_OK = 0;
/** Something went wrong inside the program itself: a bug, never the user's input. */
export const EXIT_INTERNAL = 1;
/** The input was wrong: a bad dice expression, an unknown option, a missing argument. */
export const EXIT_USAGE = 2;
/** Stopped by Ctrl-C before it finished (128 + SIGINT, as shells report it). */
export const EXIT_INTERRUPTED = 130;

/**
 * A mistake in what the user typed. `run()` prints its message as one line,
 * `personae: <message>`, and exits with code 2. Any command may throw it.
 */
export class CliError extends Error {
  override readonly name = 'CliError';
}

/** A job stopped by Ctrl-C: `run()` prints its message as one line and exits with code 130. */
export class InterruptedError extends Error {
  override readonly name = 'InterruptedError';
}

/** The process's own streams, for the real binary. */
export function processIo(): CliIo {
  // A reader that stops early (`personae odds ... | head`) closes the pipe: stop quietly, not with a stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : EXIT_OK);
  });
  return {
    stdout: (s) => void process.stdout.write(s),
    stderr: (s) => void process.stderr.write(s),
    stdin: process.stdin,
    setExitCode: (code) => {
      process.exitCode = code;
    },
    stderrIsTTY: process.stderr.isTTY === true,
    ...(process.stderr.isTTY ? { stderrColumns: process.stderr.columns } : {}),
    onInterrupt: (stop) => {
      const listener = (): void => stop();
      process.on('SIGINT', listener);
      return () => void process.off('SIGINT', listener);
    },
  };
}

/** Write lines to a stream, one "\n" after each. */
export function writeLines(write: (s: string) => void, lines: readonly string[]): void {
  if (lines.length > 0) write(lines.join('\n') + '\n');
}
