import { poolDice, type CommandError, type DecideContext, type EnteredPools } from '@personae/core';
import { decideEncounter, parseEncounterCommand, recordedLucidityPools, type LucidityCommand, type LucidityCommandInput, type LucidityTableState } from '../src';

/** A command the tests write with its dice in the recorded fields, parsed as a table takes it, with the pools those dice fill. */
export interface Recorded {
  readonly command: LucidityCommand;
  readonly pools: EnteredPools;
}

export function parseRecorded(raw: LucidityCommandInput | Record<string, unknown>): { ok: true; command: Recorded } | { ok: false; error: CommandError } {
  const { command, pools } = recordedLucidityPools(raw as Record<string, unknown>);
  const parsed = parseEncounterCommand(command);
  return parsed.ok ? { ok: true, command: { command: parsed.command, pools } } : parsed;
}

/** decideEncounter with the command's dice entered in their named pools over `ctx.dice`. */
export function decideRecorded(state: LucidityTableState, recorded: Recorded | LucidityCommand, ctx: DecideContext) {
  if ('pools' in recorded && 'command' in recorded) return decideEncounter(state, recorded.command, { ...ctx, dice: poolDice(recorded.pools, ctx.dice) });
  return decideEncounter(state, recorded, ctx);
}
