export { run, buildProgram, COMMANDS, type CommandRegistrar } from './main.js';
export { CliError, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, InterruptedError, processIo, writeLines, type CliIo } from './io.js';
export { addTableFlags, readTable, type Table, type TableFlags } from './args.js';
