import { formatCitation } from '@personae/core';
import { cannotAct, getCharacter, type Batch } from '../batch';
import { findSkill } from '../combatant';
import type { CommandOf } from '../commands';
import { RuleError, rule } from '../errors';
import type { ChallengeKind } from '../events';
import type { CharacterState } from '../state';
import { requireTurn, takeAction } from '../turns';

// Assisting (personae-core-2011.txt "Assisting in a Challenge").

/** An assistant and the skill it assists with. */
export interface Helper {
  readonly who: CharacterState;
  readonly skill: string;
}

/**
 * Assistants (personae-core-2011.txt "Assisting in a Challenge"): each acts with the skill being
 * assisted (its own rating of it, or one the table deems similar); for a Power Challenge the same
 * supernatural skill is required. Only assistants of a Power Challenge in a violent encounter must
 * have declared it on their own turn.
 */
export function assistants(b: Batch, who: CharacterState, ids: readonly string[] | undefined, targets: readonly string[], kind: ChallengeKind, skill: string): Helper[] {
  const now = b.now;
  const section = rule('core', 'Assisting in a Challenge');
  const out: Helper[] = [];
  for (const [i, id] of (ids ?? []).entries()) {
    const field = `assistants[${i}]`;
    const a = getCharacter(now, id, field);
    if (a.def.id === who.def.id || targets.includes(id)) throw new RuleError('assist-self', `${a.def.name} cannot assist this challenge`, field);
    const why = cannotAct(now, a);
    if (why) throw new RuleError(why.code, why.message, field, why.rule);
    const own = findSkill(a.def, skill);
    if (kind === 'power' && !own) {
      throw new RuleError('assist-skill', `${a.def.name} has no ${skill}: assisting a Power Challenge takes the same supernatural skill`, field, section);
    }
    if (kind === 'power' && now.combat && now.combat.assists[id] !== who.def.id) {
      throw new RuleError('assist-not-declared', `${a.def.name} has not declared on its turn that it assists ${who.def.name}'s Power Challenge`, field, section);
    }
    out.push({ who: a, skill: own?.name ?? skill });
  }
  return out;
}

/** The log's line for the assistants and the skills they act with. */
export function assistNote(helpers: readonly Helper[]): string[] {
  return helpers.length ? [`Assisting (${formatCitation(rule('core', 'Assisting in a Challenge'))}): ${helpers.map((h) => `${h.who.def.name} with ${h.skill}`).join(', ')}.`] : [];
}

/** personae-core-2011.txt "Assisting in a Challenge": in a violent encounter assistants declare it on their turns. */
export function assist(b: Batch, command: CommandOf<'assist'>): void {
  const now = b.now;
  if (!now.combat) throw new RuleError('not-violent', 'assistance is declared ahead only in a violent encounter; name assistants on the challenge instead', 'type');
  const who = requireTurn(b, command.actor, 'actor');
  const primary = getCharacter(now, command.primary, 'primary');
  if (primary.def.id === who.def.id) throw new RuleError('assist-self', 'a character cannot assist itself', 'primary');
  // srd-v4 "Assisting in a Challenge": the assistance is in addition to the character's actions.
  const usesAction = now.options.assist !== 'srd-v4';
  takeAction(b, who, `declares assistance to ${primary.def.name}`, usesAction);
  b.emit({ type: 'assist-declared', actor: who.def.id, primary: primary.def.id });
}
