import { sumModifiers, type Modifier } from '@personae/core';
import type { LucidityOptions } from './options';
import { beats, checkWhole } from './roll';

export interface AttackInput {
  /** The attack roll's total. */
  readonly attack: number;
  readonly defense: number;
  /** The damage rolled, with its bonuses already added or given in `damageModifiers`. */
  readonly damage: number;
  /** The defender's Protection (armour, shield, traits), or its parts in `protectionModifiers`. */
  readonly protection: number;
  /** Added to Penetration on a hit (Impaler, Improvised Fighter, 1 on 1). */
  readonly penetrationModifiers?: readonly Modifier[];
  /** Added to damage (Breakthrough, Backstabber, Improvised Fighter, 1 on 1). */
  readonly damageModifiers?: readonly Modifier[];
  /** Added to Protection (Adrenaline Rush, 1 on 1; negative for a shield Shieldbreaker ignores). */
  readonly protectionModifiers?: readonly Modifier[];
  /** Protection ignored entirely (Brawler's unarmed strikes ignore Damage Reduction/Soak). */
  readonly ignoreProtection?: boolean;
}

export interface AttackResult {
  readonly hit: boolean;
  readonly attack: number;
  readonly defense: number;
  /** Attack - Defense (plus bonuses) on a hit; 0 on a miss. */
  readonly penetration: number;
  readonly protection: number;
  /** Protection left after Penetration ("Excess penetration has no effect"). */
  readonly effectiveProtection: number;
  readonly damage: number;
  readonly damageTaken: number;
  readonly steps: readonly string[];
}

/**
 * Damage after Protection, by option protectionPipeline (C1) and protectionEqualsDamage (C2)
 * (lucidity-primary-character.txt, "How Combat Works").
 */
export function damageAfterProtection(
  damage: number,
  protection: number,
  penetration: number,
  opts: Pick<LucidityOptions, 'protectionPipeline' | 'protectionEqualsDamage'>,
): { effectiveProtection: number; damageTaken: number; steps: string[] } {
  const steps: string[] = [];
  const effective = Math.max(0, protection - penetration);
  steps.push(`Protection ${protection} - Penetration ${penetration} = ${protection - penetration}${effective !== protection - penetration ? ' (excess Penetration has no effect: 0)' : ''}`);
  if (damage <= 0) return { effectiveProtection: effective, damageTaken: 0, steps: [...steps, 'no damage'] };
  // The last step of the procedure: at least double the damage -> 0; otherwise deduct; exceeding -> 1.
  const finish = (dmg: number, prot: number, testProt: number): number => {
    if (dmg <= 0) return 0;
    if (testProt >= 2 * dmg) {
      steps.push(`Protection ${testProt} is at least double the damage ${dmg}: no damage`);
      return 0;
    }
    if (testProt > dmg) {
      steps.push(`Protection ${testProt} exceeds the damage ${dmg}: 1 damage`);
      return 1;
    }
    const left = dmg - prot;
    if (left <= 0) {
      const taken = opts.protectionEqualsDamage === 'min-one' ? 1 : 0;
      steps.push(`Protection ${prot} equals the damage ${dmg}: ${taken} damage (protectionEqualsDamage=${opts.protectionEqualsDamage})`);
      return taken;
    }
    steps.push(`damage ${dmg} - Protection ${prot} = ${left}`);
    return left;
  };
  switch (opts.protectionPipeline) {
    case 'single':
      return { effectiveProtection: effective, damageTaken: finish(damage, effective, effective), steps };
    case 'raw-thresholds':
      return { effectiveProtection: effective, damageTaken: finish(damage, effective, protection), steps };
    case 'double-deduction': {
      const first = effective >= 1 ? damage - effective : damage;
      steps.push(effective >= 1 ? `first deduction: damage ${damage} - ${effective} = ${first}` : `Protection - Penetration is 0 or less: full damage ${damage} before the second step`);
      if (first <= 0) {
        steps.push('nothing left after the first deduction: no damage');
        return { effectiveProtection: effective, damageTaken: 0, steps };
      }
      return { effectiveProtection: effective, damageTaken: finish(first, effective, effective), steps };
    }
  }
}

/**
 * An attack (lucidity-primary-character.txt, "How Combat Works"): it hits when the attack total exceeds
 * Defense; Penetration is the difference; Penetration lowers Protection, and what Protection is left
 * reduces the damage.
 */
export function resolveAttack(input: AttackInput, opts: LucidityOptions): AttackResult {
  checkWhole(input.attack, 'attack');
  checkWhole(input.defense, 'defense');
  checkWhole(input.damage, 'damage', 0);
  checkWhole(input.protection, 'protection', 0);
  const hit = beats(input.attack, input.defense, opts);
  const penMods = input.penetrationModifiers ?? [];
  const dmgMods = input.damageModifiers ?? [];
  const protMods = input.protectionModifiers ?? [];
  const damage = Math.max(0, input.damage + sumModifiers(dmgMods));
  const protection = input.ignoreProtection ? 0 : Math.max(0, input.protection + sumModifiers(protMods));
  const steps: string[] = [`attack ${input.attack} against Defense ${input.defense}: ${hit ? 'hit' : 'miss'}`];
  if (!hit) return { hit, attack: input.attack, defense: input.defense, penetration: 0, protection, effectiveProtection: protection, damage, damageTaken: 0, steps };
  const penetration = input.attack - input.defense + sumModifiers(penMods);
  steps.push(`Penetration ${input.attack} - ${input.defense}${penMods.map((m) => ` ${m.value >= 0 ? '+' : ''}${m.value} ${m.label}`).join('')} = ${penetration}`);
  if (dmgMods.length) steps.push(`damage ${input.damage}${dmgMods.map((m) => ` ${m.value >= 0 ? '+' : ''}${m.value} ${m.label}`).join('')} = ${damage}`);
  if (input.ignoreProtection) steps.push('Protection ignored');
  const after = damageAfterProtection(damage, protection, penetration, opts);
  return { hit, attack: input.attack, defense: input.defense, penetration, protection, effectiveProtection: after.effectiveProtection, damage, damageTaken: after.damageTaken, steps: [...steps, ...after.steps] };
}
