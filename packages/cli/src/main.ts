import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Command, CommanderError } from 'commander';
import { refusalOf, RuleError } from '@personae/core';
import { DiceExpressionError, DiceInputError } from '@personae/dice';
import { ChallengeError, DifficultyError, OptionError, RerollError } from '@personae/rules';
import cliPackage from '../package.json' with { type: 'json' };
import { registerD100Commands } from './commands/d100.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerEncounterCommands } from './commands/encounter.js';
import { registerLucidityCommands } from './commands/lucidity.js';
import { registerMatchupCommand } from './commands/matchup.js';
import { registerOddsCommand } from './commands/odds.js';
import { registerRollCommand } from './commands/roll.js';
import { registerSheetCommands } from './commands/sheet.js';
import { registerVerifyCommand } from './commands/verify.js';
import { CliError, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, InterruptedError, processIo, type CliIo } from './io.js';

/** A group of subcommands: it adds its commands to the program and writes through `io`. */
export type CommandRegistrar = (program: Command, io: CliIo) => void;

/** Every command group of `personae`, in the order `--help` lists them. A new group is one entry here. */
export const COMMANDS: readonly CommandRegistrar[] = [registerRollCommand, registerOddsCommand, registerSheetCommands, registerEncounterCommands, registerMatchupCommand, registerVerifyCommand, registerD100Commands, registerLucidityCommands, registerDemoCommand];

const { version } = cliPackage;

/** The errors that mean "the input was wrong" (exit code 2), as opposed to a bug (exit code 1). */
const USER_ERRORS = [CliError, RuleError, DiceExpressionError, DiceInputError, DifficultyError, OptionError, ChallengeError, RerollError] as const;
/** Errors that JavaScript itself raises: these point at a bug, not at the input. */
const BUILT_IN_ERRORS = new Set(['Error', 'TypeError', 'RangeError', 'ReferenceError', 'SyntaxError', 'EvalError', 'URIError', 'AggregateError']);
/** Operating-system errors about a path the user named (`--plot`, a sheet file). */
const FILE_ERRORS = new Set(['ENOENT', 'EACCES', 'EPERM', 'EISDIR', 'ENOTDIR', 'EEXIST', 'EROFS', 'ENOSPC', 'ENAMETOOLONG']);

export interface BuildOptions {
  /** Where commander's own error-time output (help after a missing subcommand) goes; `run()` keeps it to itself. */
  readonly writeErr?: (s: string) => void;
  /** The command groups to register; every one of `personae` by default. */
  readonly commands?: readonly CommandRegistrar[];
}

/** The `personae` program with every command registered, writing through `io`, never exiting the process. */
export function buildProgram(io: CliIo, build: BuildOptions = {}): Command {
  const program = new Command('personae')
    .description('Reference tools for the Personae tabletop role-playing rules: roll challenges and explain them, compute their exact odds, check character sheets.')
    .version(version, '-V, --version', 'print the version')
    .helpCommand('help [command]', 'show help for a command')
    .showSuggestionAfterError(true);
  for (const register of build.commands ?? COMMANDS) register(program, io);
  program.addHelpText(
    'after',
    [
      '',
      'Examples:',
      '  personae roll "3d10+4" vs "2d10+5"',
      '  personae roll "[7,5,2]+3" vs "[8,6]+2"',
      '  personae roll "3d10+3" --unopposed normal --seed 7',
      '  personae roll --sheet examples/characters/dwarf-iron-constitution.yaml --skill Warhammer vs "2d10+3"',
      '  personae odds "3d10+4" vs "2d10+5" --table',
      '  personae odds "3d10+4" vs "2d10+5" --simulate 1e6',
      '  personae demo',
      '',
      'Exit codes: 0 done, 2 the input was wrong (one line on stderr says what), 1 an internal error, 130 stopped by Ctrl-C.',
      'Full reference: docs/cli.md',
    ].join('\n'),
  );
  // Commands a group adds with addCommand() do not inherit these settings, so set them on every command.
  const configure = (cmd: Command): void => {
    cmd.exitOverride();
    cmd.configureOutput({
      writeOut: (s) => io.stdout(s),
      writeErr: build.writeErr ?? ((s) => io.stderr(s)),
      // run() prints every error itself, as one line.
      outputError: () => {},
    });
    for (const sub of cmd.commands) configure(sub);
  };
  configure(program);
  return program;
}

/**
 * Run `personae` with the words after the program name. Never throws and never exits the process:
 * it reports through `io`, calls `io.setExitCode`, and returns the exit code
 * (0 done, 2 the input was wrong, 1 an internal error, 130 interrupted).
 */
export async function run(argv: readonly string[], io: CliIo, commands: readonly CommandRegistrar[] = COMMANDS): Promise<number> {
  let exitCode = EXIT_OK;
  const scoped: CliIo = { ...io, setExitCode: (code) => void (exitCode = code) };
  const commanderErr: string[] = [];
  try {
    const program = buildProgram(scoped, { writeErr: (s) => void commanderErr.push(s), commands });
    if (argv.length === 0) {
      // Nothing asked: say what can be asked, as a usage error (a script calling it wrongly notices).
      io.stderr(program.helpInformation());
      exitCode = EXIT_USAGE;
    } else await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    exitCode = report(error, io, commanderErr.join(''));
  }
  io.setExitCode(exitCode);
  return exitCode;
}

/** Print an error as one line on stderr and choose the exit code. */
function report(error: unknown, io: CliIo, commanderErr: string): number {
  if (error instanceof CommanderError) {
    if (error.exitCode === 0) return EXIT_OK; // --help, --version
    if (error.code === 'commander.help') {
      // A command group run without one of its subcommands: commander drew its help; say it in one line.
      const usage = /Usage: (\S+(?: \S+)*?) \[/.exec(commanderErr)?.[1] ?? 'personae';
      return fail(io, `missing command after "${usage}"; see "${usage} --help"`, EXIT_USAGE);
    }
    return fail(io, error.message.replace(/^error:\s*/, ''), EXIT_USAGE);
  }
  if (!(error instanceof Error)) return fail(io, `internal error: ${String(error)}`, EXIT_INTERNAL);
  if (error instanceof InterruptedError) return fail(io, error.message, EXIT_INTERRUPTED);
  if (isUserError(error)) return fail(io, userMessage(error), EXIT_USAGE);
  if (process.env.PERSONAE_DEBUG) io.stderr(`${error.stack ?? error.message}\n`);
  return fail(io, `internal error: ${error.message} (set PERSONAE_DEBUG=1 to see where)`, EXIT_INTERNAL);
}

/**
 * The rules and dice packages raise named error classes for bad input; other command groups follow the
 * same convention (a named class of their own, or CliError). Errors JavaScript raises itself are bugs.
 */
function isUserError(error: Error): boolean {
  if (USER_ERRORS.some((cls) => error instanceof cls)) return true;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && FILE_ERRORS.has(code)) return true;
  return !BUILT_IN_ERRORS.has(error.name) && error.name.endsWith('Error');
}

function userMessage(error: Error): string {
  const issues = (error as { issues?: unknown }).issues;
  if (error.name === 'ZodError' && Array.isArray(issues)) {
    return issues
      .map((i: { path?: unknown[]; message?: string }) => `${(i.path ?? []).join('.') || 'input'}: ${i.message ?? 'invalid'}`)
      .join('; ');
  }
  const refusal = refusalOf(error);
  return refusal ? refusal.message : error.message;
}

function fail(io: CliIo, message: string, code: number): number {
  const line = message.replace(/\s*\n\s*/g, ' ').trim();
  io.stderr(`personae: ${line}\n`);
  return code;
}

function invokedDirectly(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(entry)).href;
  } catch {
    return false;
  }
}

if (invokedDirectly()) {
  void run(process.argv.slice(2), processIo());
}
