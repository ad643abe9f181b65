export { run, buildProgram, COMMANDS, type CommandRegistrar } from './main.js';
export { CliError, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, processIo, writeLines, type CliIo } from './io.js';
export { addTableFlags, readTable, type Table, type TableFlags } from './args.js';
