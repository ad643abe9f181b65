import { canAct, cannotAct, getCharacter, type Batch } from './batch';
import { RuleError, rule } from './errors';
import { applyStatusNow } from './health';
import type { CharacterState } from './state';

const ORDER_RULE = rule('core', 'The Action Order, and Actions');

/**
 * The character may act now: it is present, conscious and not convalescing, and in a violent
 * encounter it is its turn (personae-core-2011.txt "The Action Order, and Actions").
 */
export function requireTurn(b: Batch, id: string, field: string): CharacterState {
  const now = b.now;
  if (id === 'gm') throw new RuleError('needs-character', 'this action is taken by a character, not the GM', field);
  const who = getCharacter(now, id, field);
  const why = cannotAct(now, who);
  if (why) throw new RuleError(why.code, why.message, field, why.rule);
  // An obstacle or hazard has no turn: it acts when the GM has it act (personae-core-2011.txt "Obstacles").
  if (now.combat && now.combat.turn.actor !== id && !who.def.obstacle) {
    const current = now.characters[now.combat.turn.actor];
    throw new RuleError('out-of-turn', `it is ${current?.def.name ?? 'nobody'}'s turn, not ${who.def.name}'s`, field, ORDER_RULE);
  }
  return who;
}

/** Spend the turn's action (one a turn in a violent encounter). */
export function takeAction(b: Batch, who: CharacterState, what: string, usesAction = true): void {
  const combat = b.now.combat;
  if (combat && usesAction && combat.turn.actor === who.def.id && combat.turn.actionUsed) {
    const why = combat.spentAhead.includes(who.def.id) ? ' (it was given to a concerted effort)' : '';
    throw new RuleError('action-used', `${who.def.name} has already used this turn's action${why}`, 'type', ORDER_RULE);
  }
  b.emit({ type: 'action-taken', actor: who.def.id, what, usesAction });
}

/** Begin the turn of the first character, from `index` on in the order, who can act; false if none can. */
export function startTurnFrom(b: Batch, index: number): boolean {
  const combat = b.now.combat;
  if (!combat) return false;
  for (let i = index; i < combat.order.length; i++) {
    const id = combat.order[i]!;
    const c = b.now.characters[id];
    if (!c) continue;
    const why = cannotAct(b.now, c);
    if (why) {
      if (c.present) b.emit({ type: 'turn-skipped', actor: id, reason: why.message });
      continue;
    }
    b.emit({ type: 'turn-began', actor: id, round: combat.round, index: i, actionSpent: combat.spentAhead.includes(id) });
    return true;
  }
  return false;
}

export function beginRound(b: Batch, round: number): void {
  b.emit({ type: 'round-began', round });
  startTurnFrom(b, 0);
}

/** End the current turn; after the last turn of the round, end the round and begin the next. */
export function endTurn(b: Batch): void {
  const combat = b.now.combat!;
  const actor = combat.turn.actor;
  b.emit({ type: 'turn-ended', actor });
  // personae-core-2011.txt "Duration / Duration Identifiers": Instant powers last no longer than the turn.
  for (const e of b.now.effects) if (e.owner === actor && e.duration === 'instant') b.emit({ type: 'effect-ended', id: e.id, reason: 'Instant: the turn is over' });
  if (startTurnFrom(b, combat.index + 1)) return;
  endRound(b);
  const next = b.now.combat!;
  if (next.order.some((id) => canActId(b, id))) beginRound(b, next.round + 1);
}

function canActId(b: Batch, id: string): boolean {
  const c = b.now.characters[id];
  return !!c && canAct(b.now, c);
}

/**
 * The end of a round: Maintain powers not kept up this round end; statuses reached by the hits
 * tallied take effect (personae-core-2011.txt "Injury and Death": injury takes effect at the end of a
 * round); a character back from Incapacitated who acted falls unconscious again
 * (personae-core-2011.txt "Healing and Recovery").
 */
export function endRound(b: Batch): void {
  const combat = b.now.combat!;
  const round = combat.round;
  b.emit({ type: 'round-ended', round });
  for (const e of b.now.effects) {
    if (e.duration === 'maintain' && e.maintainedRound < round) b.emit({ type: 'effect-ended', id: e.id, reason: 'Maintain: not kept up this round' });
  }
  for (const id of b.now.roster) applyStatusNow(b, id, `end of round ${round}`);
  for (const id of combat.actedThisRound) {
    const c = b.now.characters[id];
    if (c && c.relapse && c.conscious) {
      b.emit({
        type: 'consciousness-changed',
        target: id,
        conscious: false,
        reason: 'acted in a violent encounter before completing a non-violent one after recovering from Incapacitated',
      });
      b.emit({ type: 'recovery-set', target: id, relapse: false, reason: 'fell unconscious again' });
    }
  }
}
