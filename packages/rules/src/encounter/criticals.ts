import { formatCitation } from '@personae/core';
import { stampOf } from '../time';
import type { Batch } from './batch';
import { isGmCharacter, potentialThresholdOf } from './combatant';
import { RuleError, rule } from './errors';
import { bankTotal, type CharacterState, type Snapshot } from './state';

const CRIT = rule('core', 'Critical Success');

/**
 * Whose bank a character's criticals go to (personae-core-2011.txt "Critical Success"): a main
 * character's own; the GM's characters' into one common GM pool if the table lets them earn any
 * (option gmCriticals); companions' only if option secondaryCharactersEarnCriticals.
 */
export function earningBank(now: Snapshot, c: CharacterState | 'gm'): string | null {
  return withholding(now, c) === null ? (c === 'gm' || isGmCharacter(c.def) ? 'gm' : c.def.id) : null;
}

/** The option that keeps this character from earning criticals, in words for the log; null when it earns them. */
export function withholding(now: Snapshot, c: CharacterState | 'gm'): string | null {
  if (c !== 'gm' && c.def.obstacle) return `${c.def.obstacle.kind === 'hazard' ? 'a hazard' : 'an obstacle'} is no character and banks none (${formatCitation(rule('core', 'Obstacles'))})`;
  if (c === 'gm' || isGmCharacter(c.def)) return now.options.gmCriticals === 'common-pool' ? null : "the GM's characters earn none at this table (option gmCriticals = none)";
  if (c.def.role === 'companion' && !now.options.secondaryCharactersEarnCriticals) return 'companions earn none at this table (option secondaryCharactersEarnCriticals = false)';
  return null;
}

/** The bank a character spends from: the GM's characters draw on the GM's pool. */
export function spendingBank(c: CharacterState): string {
  return isGmCharacter(c.def) ? 'gm' : c.def.id;
}

export function available(now: Snapshot, bank: string): number {
  return bankTotal(now.banks[bank]);
}

/** Bank criticals earned in a challenge, up to the cap (option criticalBankCap: the Potential Threshold). */
export function bankCriticals(b: Batch, who: CharacterState | 'gm', count: number, reason: string): void {
  if (count <= 0) return;
  const now = b.now;
  const bank = earningBank(now, who);
  const withheld = withholding(now, who);
  if (bank === null || withheld !== null) {
    // The log says why natural 10s banked nothing (personae-core-2011.txt "Critical Success" leaves only the GM's characters to the group).
    const earner = who === 'gm' ? 'gm' : who.def.id;
    b.emit({ type: 'criticals-banked', owner: earner, earnedBy: earner, count, lost: count, earned: stampOf(now.clock), reason, withheld: withheld ?? 'no bank' });
    return;
  }
  let lost = 0;
  if (now.options.criticalBankCap === 'potential-threshold' && bank !== 'gm' && who !== 'gm') {
    const room = Math.max(0, potentialThresholdOf(who.def, now.options) - available(now, bank));
    lost = Math.max(0, count - room);
  }
  b.emit({ type: 'criticals-banked', owner: bank, earnedBy: who === 'gm' ? 'gm' : who.def.id, count, lost, earned: stampOf(now.clock), reason });
}

export function requireCriticals(now: Snapshot, bank: string, count: number, field: string): void {
  const have = available(now, bank);
  if (have < count) {
    throw new RuleError('not-enough-criticals', `${bank === 'gm' ? "the GM's pool holds" : `${now.characters[bank]?.def.name ?? bank} has`} ${have} critical${have === 1 ? '' : 's'}, ${count} needed`, field, CRIT);
  }
}

export function spend(b: Batch, bank: string, by: string, count: number, purpose: string, extra: { toGm?: true; readies?: string } = {}): void {
  requireCriticals(b.now, bank, count, 'spend');
  b.emit({ type: 'criticals-spent', owner: bank, by, count, purpose, ...extra });
}

/** What criticals spent for the table's default use buy, in words for the log. */
export function defaultUseText(options: Snapshot['options']): string {
  return options.criticalDefaultUse === 'steer'
    ? 'steered towards success before knowing the result: the next challenge succeeds (option criticalDefaultUse = steer)'
    : 'an automatic success on an upcoming challenge (option criticalDefaultUse = automatic-success)';
}
