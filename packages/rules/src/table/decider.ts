import type { TableCommand } from './commands';
import type { TableEvent, TableState } from './state';
import { decideTable, evolveTable, initialTableState, parseTableCommand, type TableContext } from './table';
import { validateTableEvent } from './validate';
import { portraitAccess, redactTableEvent, tableAudience, viewTable } from './view';

/**
 * The Personae table as one pure decider, in the shape the table server runs: parse and decide
 * commands, fold events, and say what each participant may see.
 */
export const personaeTable = {
  initialState: (): TableState => initialTableState(),
  parseCommand: parseTableCommand,
  decide: (state: TableState, command: TableCommand, ctx: TableContext): TableEvent[] => decideTable(state, command, ctx),
  evolve: evolveTable,
  redactEvent: redactTableEvent,
  viewState: viewTable,
  audience: tableAudience,
  validateEvent: validateTableEvent,
  characterAccess: portraitAccess,
};
