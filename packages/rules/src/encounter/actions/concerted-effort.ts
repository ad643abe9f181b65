import { periodKey } from '../../time';
import { cannotAct, getCharacter, type Batch } from '../batch';
import { isGmCharacter } from '../combatant';
import { RuleError, rule } from '../errors';
import type { CharacterState } from '../state';

// Concerted Effort (personae-v4-srd-playing.txt "Concerted Effort").

export interface Concerted {
  readonly participants: CharacterState[];
}

/** personae-v4-srd-playing.txt "Concerted Effort": player characters only, once per scene (option concertedEffortPerScene). */
export function concerted(b: Batch, who: CharacterState, ids: readonly string[] | undefined, targets: readonly string[]): Concerted | undefined {
  if (!ids || ids.length === 0) return undefined;
  const now = b.now;
  const section = rule('v4', 'Concerted Effort');
  const key = `concerted|${periodKey(now.clock, 'scene')}`;
  if ((now.usage[key] ?? 0) >= now.options.concertedEffortPerScene) {
    throw new RuleError(
      'concerted-effort-limit',
      now.options.concertedEffortPerScene === 0
        ? 'this table does not use concerted efforts (option concertedEffortPerScene = 0)'
        : `the player characters have made ${now.options.concertedEffortPerScene} concerted effort(s) this scene already (option concertedEffortPerScene)`,
      'concerted',
      section,
    );
  }
  const participants = [who];
  for (const [i, id] of ids.entries()) {
    const field = `concerted[${i}]`;
    const c = getCharacter(now, id, field);
    if (c.def.id === who.def.id || targets.includes(id) || participants.includes(c)) throw new RuleError('concerted-participant', `${c.def.name} cannot contribute to this concerted effort`, field, section);
    const why = cannotAct(now, c);
    if (why) throw new RuleError(why.code, why.message, field, why.rule);
    participants.push(c);
  }
  for (const [i, c] of participants.entries()) {
    if (isGmCharacter(c.def)) throw new RuleError('concerted-players-only', `${c.def.name} is not a player-controlled character`, i === 0 ? 'actor' : `concerted[${i - 1}]`, section);
  }
  return { participants };
}
