import { z } from 'zod';

/** Which challenges an effect applies to. Empty lists mean "any". */
export const EffectScopeSchema = z.strictObject({
  /** Skill names the effect works with (case-insensitive); empty or absent: any skill. */
  skills: z.array(z.string().min(1)).optional(),
  /** Kinds of challenge: attack, power, interaction, recovery, other. Absent: any. */
  challenges: z.array(z.enum(['attack', 'power', 'interaction', 'recovery', 'other'])).optional(),
  /** Whether it works when issuing (actor), answering (reactor), or both. */
  role: z.enum(['issue', 'answer', 'both']).default('both'),
});
export type EffectScope = z.infer<typeof EffectScopeSchema>;

/** The kinds of challenge a scope can name. */
export type ScopeKind = NonNullable<EffectScope['challenges']>[number];
export type SideRole = 'issue' | 'answer';

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Whether a scope covers this challenge (personae-core-2011.txt "What Special Abilities Can Do"). */
export function scopeCovers(scope: EffectScope | undefined, skill: string, kind: ScopeKind, role: SideRole): boolean {
  if (!scope) return true;
  if (scope.skills && scope.skills.length > 0 && !scope.skills.some((s) => same(s, skill))) return false;
  if (scope.challenges && scope.challenges.length > 0 && !scope.challenges.includes(kind)) return false;
  return scope.role === 'both' || scope.role === undefined || scope.role === role;
}

/** A scope in words: "Spear, attack challenges, when issuing only"; "any roll" without one. */
export function scopeText(scope: EffectScope | undefined): string {
  if (!scope) return 'any roll';
  const parts = [
    scope.skills?.length ? scope.skills.join(' or ') : '',
    scope.challenges?.length ? `${scope.challenges.join(' or ')} challenges` : '',
    scope.role === 'issue' ? 'when issuing' : scope.role === 'answer' ? 'when answering' : '',
  ].filter((s) => s !== '');
  return parts.length ? `${parts.join(', ')} only` : 'any roll';
}
