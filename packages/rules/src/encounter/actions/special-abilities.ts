import { inEncounter, periodKey } from '../../time';
import type { Batch } from '../batch';
import { same, type CombatantAbility } from '../combatant';
import { RuleError, rule } from '../errors';
import { checkOneSpecialAbility } from '../sides';
import type { CharacterState, Snapshot } from '../state';

// The limits on special abilities (personae-core-2011.txt "Scope of Special Abilities", "Special Ability Identifiers").

const SA_SCOPE = rule('core', 'Scope of Special Abilities');

/** The key the one-special-ability-a-turn limit is counted by: the violent encounter's turn. */
function turnKey(now: Snapshot): string | null {
  return now.combat ? `round ${now.combat.round}, turn ${now.combat.index + 1}` : null;
}

/**
 * personae-core-2011.txt "Scope of Special Abilities": in a non-violent or violent encounter a
 * character benefits from one special ability in the course of its turn, besides Qualities (which are
 * always in effect). Answering a challenge on someone else's turn counts against that turn.
 */
export function checkAbilityLimit(b: Batch, who: CharacterState, chosen: readonly CombatantAbility[], field: string): void {
  const now = b.now;
  if (!inEncounter(now.clock)) return;
  checkOneSpecialAbility(who, chosen, field);
  const names = [...new Set(chosen.filter((a) => !a.quality).map((a) => a.name))];
  const key = turnKey(now);
  if (names.length === 0 || key === null) return;
  const used = now.combat!.abilityUse[who.def.id];
  if (used && used.startsWith(`${key}|`) && !same(used.slice(key.length + 1), names[0]!)) {
    throw new RuleError(
      'second-special-ability',
      `${who.def.name} already benefited from ${used.slice(key.length + 1)} this turn; ${names[0]} would be a second special ability (only Qualities are always in effect)`,
      field,
      SA_SCOPE,
    );
  }
}

function limitKey(now: Snapshot, who: CharacterState, a: CombatantAbility): string | null {
  return a.limit ? `ability|${who.def.id}|${a.name.toLowerCase()}|${periodKey(now.clock, a.limit.per)}` : null;
}

/** personae-core-2011.txt "Special Ability Identifiers": a Conditional ability may be limited to so many uses a period. */
export function checkAbilityUses(now: Snapshot, who: CharacterState, chosen: readonly CombatantAbility[], field: string): void {
  for (const a of chosen) {
    const key = limitKey(now, who, a);
    if (key && (now.usage[key] ?? 0) >= a.limit!.times) {
      throw new RuleError('ability-limit', `${who.def.name} has used ${a.name} ${a.limit!.times === 1 ? 'once' : `${a.limit!.times} times`} this ${a.limit!.per} already`, field, rule('core', 'Special Ability Identifiers'));
    }
  }
}

export function recordAbility(b: Batch, who: CharacterState, chosen: readonly CombatantAbility[]): void {
  for (const a of new Set(chosen)) {
    const key = limitKey(b.now, who, a);
    if (key) b.emit({ type: 'usage-counted', key, what: `${who.def.name} uses ${a.name} (${a.limit!.times} a ${a.limit!.per})` });
  }
  const key = turnKey(b.now);
  const first = chosen.find((a) => !a.quality);
  if (key === null || !first) return;
  if (b.now.combat!.abilityUse[who.def.id] === `${key}|${first.name}`) return;
  b.emit({ type: 'ability-used', actor: who.def.id, ability: first.name, turnKey: `${key}|${first.name}` });
}
