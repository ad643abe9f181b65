import { setCharacter, setCombat, without, type Appliers } from './shared';

/** The action order, turns, and what a turn spends: moves, the action, the special ability, declared defences and assistance. */
export const TURN_EVENTS: Appliers<
  | 'order-set'
  | 'order-changed'
  | 'round-began'
  | 'turn-began'
  | 'turn-skipped'
  | 'turn-ended'
  | 'round-ended'
  | 'moved'
  | 'action-taken'
  | 'ability-used'
  | 'defense-declared'
  | 'defense-ended'
  | 'assist-declared'
  | 'assist-spent'
  | 'action-spent-ahead'
> = {
  'order-set': (now, event) => {
    return {
      ...now,
      combat: {
        method: event.method,
        order: event.order,
        round: now.combat?.round ?? 0,
        index: now.combat?.index ?? 0,
        turn: now.combat?.turn ?? { actor: event.order[0] ?? '', moves: 0, actionUsed: false, ability: null },
        actedThisRound: now.combat?.actedThisRound ?? [],
        defenses: now.combat?.defenses ?? {},
        assists: now.combat?.assists ?? {},
        spentAhead: now.combat?.spentAhead ?? [],
        abilityUse: now.combat?.abilityUse ?? {},
      },
    };
  },
  'order-changed': (now, event) => setCombat(now, (c) => ({ order: event.order, index: Math.max(0, event.order.indexOf(c.turn.actor)) })),
  'round-began': (now, event) => setCombat(now, () => ({ round: event.round, actedThisRound: [] })),
  'turn-began': (now, event) => {
    return setCombat(now, (c) => ({
      index: event.index,
      turn: { actor: event.actor, moves: 0, actionUsed: event.actionSpent, ability: null },
      defenses: without(c.defenses, event.actor),
      spentAhead: c.spentAhead.filter((id) => id !== event.actor),
    }));
  },
  'turn-skipped': (now) => now,
  'turn-ended': (now) => now,
  'round-ended': (now) => now,
  'moved': (now, event) => {
    return setCombat(event.to === undefined ? now : setCharacter(now, event.actor, { position: event.to }), (c) =>
      c.turn.actor === event.actor
        ? {
            turn: { ...c.turn, moves: c.turn.moves + 1, actionUsed: c.turn.actionUsed || event.usesAction },
            actedThisRound: c.actedThisRound.includes(event.actor) ? c.actedThisRound : [...c.actedThisRound, event.actor],
          }
        : {},
    );
  },
  'action-taken': (now, event) => {
    return setCombat(now, (c) =>
      c.turn.actor === event.actor
        ? {
            turn: { ...c.turn, actionUsed: c.turn.actionUsed || event.usesAction },
            actedThisRound: c.actedThisRound.includes(event.actor) ? c.actedThisRound : [...c.actedThisRound, event.actor],
          }
        : { actedThisRound: c.actedThisRound.includes(event.actor) ? c.actedThisRound : [...c.actedThisRound, event.actor] },
    );
  },
  'ability-used': (now, event) => {
    return setCombat(now, (c) => ({
      abilityUse: { ...c.abilityUse, [event.actor]: event.turnKey },
      turn: c.turn.actor === event.actor ? { ...c.turn, ability: event.ability } : c.turn,
    }));
  },
  'defense-declared': (now, event) => setCombat(now, (c) => ({ defenses: { ...c.defenses, [event.actor]: event.defense } })),
  'defense-ended': (now, event) => setCombat(now, (c) => ({ defenses: without(c.defenses, event.actor) })),
  'assist-declared': (now, event) => setCombat(now, (c) => ({ assists: { ...c.assists, [event.actor]: event.primary } })),
  'assist-spent': (now, event) => setCombat(now, (c) => ({ assists: without(c.assists, event.actor) })),
  'action-spent-ahead': (now, event) => setCombat(now, (c) => ({ spentAhead: c.spentAhead.includes(event.actor) ? c.spentAhead : [...c.spentAhead, event.actor] })),
};
