import { z } from 'zod';
import { asPoolDice, requireEnteredPools, RuleError, withArticle, type Actor, type Decider, type ParseResult } from './domain';
import { describeZodError } from './protocol';

/**
 * A small real domain the server runs until the Personae rules are wired in: a shared dice log.
 * Anyone at the table rolls N dice (d10 by default), every die is kept in the event; a roll may be
 * secret (seen only by the roller and the GM); the GM may withdraw any roll, a player their own.
 * Physical dice fill the roll's one named pool, "roll", the roller's own.
 */
export type DiceLogCommand =
  | { type: 'roll'; count: number; sides: number; label?: string | undefined; secret: boolean }
  | { type: 'undo' };

export type DiceLogEvent =
  | {
      type: 'rolled';
      rollId: number;
      by: string;
      count: number;
      sides: number;
      /** Every die in the order rolled. */
      dice: number[];
      highest: number;
      /** True when the results were typed in from physical dice. */
      entered: boolean;
      label: string | null;
      secret: boolean;
    }
  /** What others see of a secret roll. */
  | { type: 'secret-rolled'; rollId: number; by: string; count: number; sides: number }
  | { type: 'roll-undone'; rollId: number; by: string };

export interface DiceLogRoll {
  rollId: number;
  by: string;
  count: number;
  sides: number;
  dice: number[];
  highest: number;
  entered: boolean;
  label: string | null;
  secret: boolean;
  undone: boolean;
}

export interface DiceLogState {
  nextRollId: number;
  /** The most recent rolls (older ones stay in the event log). */
  rolls: DiceLogRoll[];
}

/** How many rolls the state keeps. */
export const DICE_LOG_KEEP = 100;

const commandSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('roll'),
    count: z.number().int().min(1).max(50),
    sides: z.number().int().min(2).max(100).default(10),
    label: z.string().max(100).optional(),
    secret: z.boolean().default(false),
  }),
  z.strictObject({ type: z.literal('undo') }),
]);

const canSee = (roll: { by: string; secret: boolean }, viewer: Actor) =>
  !roll.secret || viewer.role === 'gm' || viewer.participantId === roll.by;

export const diceLogDecider: Decider<DiceLogState, DiceLogCommand, DiceLogEvent> = {
  initialState: () => ({ nextRollId: 1, rolls: [] }),

  parseCommand(raw: unknown): ParseResult<DiceLogCommand> {
    const type = (raw as { type?: unknown } | null)?.type;
    if (type !== 'roll' && type !== 'undo') {
      return {
        ok: false,
        error: { code: 'unknown_command', message: 'commands are {"type":"roll","count":N} or {"type":"undo"}', field: 'type' },
      };
    }
    const parsed = commandSchema.safeParse(raw);
    if (!parsed.success) {
      const { message, field } = describeZodError(parsed.error);
      return { ok: false, error: { code: 'invalid_command', message, ...(field === undefined ? {} : { field }) } };
    }
    return { ok: true, command: parsed.data };
  },

  decide(state, command, { actor, dice, settings }) {
    if (actor.role === 'observer') throw new RuleError('forbidden', 'observers cannot roll');
    const pools = asPoolDice(dice);
    const rolled = command.type === 'roll' ? [{ name: 'roll', owners: [{ kind: 'own' as const }], sides: command.sides, count: command.count, label: 'your roll' }] : [];
    requireEnteredPools(pools.entered, rolled, { actor, settings }, withArticle(command.type));
    if (command.type === 'roll') {
      const roll = pools.roll('roll', command.count, command.sides);
      return [
        {
          type: 'rolled',
          rollId: state.nextRollId,
          by: actor.participantId,
          count: command.count,
          sides: command.sides,
          dice: [...roll.rolled],
          highest: roll.sorted[0]!,
          entered: roll.source === 'given',
          label: command.label ?? null,
          secret: command.secret,
        },
      ];
    }
    const last = [...state.rolls].reverse().find((r) => !r.undone);
    if (!last) throw new RuleError('nothing_to_undo', 'there is no roll to undo');
    if (actor.role !== 'gm' && last.by !== actor.participantId) {
      throw new RuleError('not_yours', 'only the GM can undo another participant\u2019s roll');
    }
    return [{ type: 'roll-undone', rollId: last.rollId, by: actor.participantId }];
  },

  evolve(state, event) {
    switch (event.type) {
      case 'rolled': {
        const { type: _type, ...roll } = event;
        return {
          nextRollId: Math.max(state.nextRollId, event.rollId + 1),
          rolls: [...state.rolls.slice(-(DICE_LOG_KEEP - 1)), { ...roll, undone: false }],
        };
      }
      case 'roll-undone':
        return { ...state, rolls: state.rolls.map((r) => (r.rollId === event.rollId ? { ...r, undone: true } : r)) };
      case 'secret-rolled':
        return state;
    }
  },

  redactEvent(event, viewer) {
    if (event.type === 'rolled' && !canSee(event, viewer)) {
      return { type: 'secret-rolled', rollId: event.rollId, by: event.by, count: event.count, sides: event.sides };
    }
    return event;
  },

  viewState(state, viewer) {
    return {
      rolls: state.rolls.map((r) =>
        canSee(r, viewer)
          ? r
          : { rollId: r.rollId, by: r.by, count: r.count, sides: r.sides, secret: true, undone: r.undone },
      ),
    };
  },
};
