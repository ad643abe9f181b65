import { comparisonOf, judge, type ChallengeResult } from '../../challenge';
import type { Labeled } from '../../effects';
import { getCharacter, type Batch } from '../batch';
import { findAbility, isGmCharacter, type CombatantAbility } from '../combatant';
import type { CommandOf, Spend } from '../commands';
import { defaultUseText, requireCriticals, spend, spendingBank } from '../criticals';
import { RuleError, rule } from '../errors';
import type { ChallengeKind } from '../events';
import { inScope } from '../sides';
import type { CharacterState, Snapshot } from '../state';

// Spending criticals, on a challenge or away from one (each document's "Critical Success").

const CRIT = rule('core', 'Critical Success');

export interface Spending {
  readonly bank: string;
  /** Criticals spent before rolling, `special` among them. */
  readonly before: number;
  readonly steer: number;
  readonly bonus: number;
  readonly automatic: boolean;
  readonly extraHits: number;
  readonly ability?: CombatantAbility & { effect: { type: 'critical-spend' } };
  /** Criticals turned in for a purpose of their own, no mechanics attached (`toGm`: to the GM for something special). */
  readonly special?: { readonly count: number; readonly purpose: string; readonly toGm: boolean };
  /** The automatic success comes from the table's default use of criticals, not from `automaticSuccess`. */
  readonly byDefault?: boolean;
}

/**
 * `spend.criticals`: criticals spent without naming what they buy, read by option criticalDefaultUse
 * (personae-core-2011.txt, personae-playing-web.txt and personae-v4-srd-playing.txt "Critical
 * Success"). With `spend.purpose` they go to that purpose instead (turned in to the GM under
 * gm-special), with no effect on the dice.
 */
function defaultSpend(now: Snapshot, s: Spend): Pick<Spending, 'special' | 'byDefault'> & { steer: number; automatic: boolean } {
  const none = { steer: 0, automatic: false };
  const use = now.options.criticalDefaultUse;
  if (s.criticals === undefined) {
    if (s.purpose) throw new RuleError('spend-purpose', 'spend.purpose says what the criticals in spend.criticals are for: give spend.criticals too', 'spend.purpose');
    return none;
  }
  if (s.automaticSuccess || s.steer) {
    throw new RuleError('spend-twice', `spend.criticals follows option criticalDefaultUse (${use}); name automaticSuccess or steer instead, not both`, 'spend.criticals');
  }
  if (s.purpose) return { ...none, special: { count: s.criticals, purpose: s.purpose, toGm: use === 'gm-special' } };
  switch (use) {
    case 'gm-special':
      throw new RuleError(
        'spend-purpose',
        'say what the criticals are turned in for (spend.purpose): this table hands criticals to the GM for something special (option criticalDefaultUse = gm-special)',
        'spend.purpose',
        rule('core', 'Critical Success'),
      );
    case 'automatic-success':
      if (s.criticals !== 1) {
        throw new RuleError('spend-count', `one critical makes the challenge an automatic success (option criticalDefaultUse = automatic-success); ${s.criticals} were named`, 'spend.criticals', rule('web', 'Critical Success'));
      }
      return { steer: 0, automatic: true, byDefault: true };
    case 'steer':
      // personae-v4-srd-playing.txt "Critical Success": after the result, a critical steers a failure to a glancing success, no further.
      if (s.criticals > 1) {
        throw new RuleError('spend-count', `after the dice one critical steers a failure to a glancing success, no further (option criticalDefaultUse = steer); ${s.criticals} were named`, 'spend.criticals', rule('v4', 'Critical Success'));
      }
      return { steer: s.criticals, automatic: false };
  }
}

/** How many of the criticals kept to steer a result needs: one for anything but a success, none for a success. */
export function steerNeeded(result: Pick<ChallengeResult, 'outcome'>, kept: number): number {
  return Math.min(result.outcome === 'success' ? 0 : 1, kept);
}

/** Criticals a valid spend keeps to steer after the dice, if needed: spend.steer, or spend.criticals under option criticalDefaultUse = steer. */
export function steerAfterDice(now: Snapshot, s: Spend): number {
  return (s.steer ?? 0) + defaultSpend(now, s).steer;
}

/** Criticals spent on the challenge (personae-core-2011.txt "Critical Success"; "What Special Abilities Can Do"). */
export function spending(now: Snapshot, who: CharacterState, s: Spend | undefined, skill: string, kind: ChallengeKind, targets: number): Spending | undefined {
  if (!s) return undefined;
  const crit = rule('core', 'Critical Success');
  const byDefault = defaultSpend(now, s);
  let ability: Spending['ability'];
  if (s.ability) {
    const a = findAbility(who.def, s.ability);
    if (!a) throw new RuleError('unknown-ability', `${who.def.name} has no special ability "${s.ability}"`, 'spend.ability');
    if (a.effect.type !== 'critical-spend') throw new RuleError('ability-spends-nothing', `${a.name} is not used by spending criticals`, 'spend.ability');
    if (!inScope(a.effect, skill, kind, 'issue')) throw new RuleError('ability-not-applicable', `${a.name} does not apply to this challenge`, 'spend.ability', rule('core', 'What Special Abilities Can Do'));
    ability = a as Spending['ability'];
  }
  const abilityBefore = ability && (ability.effect.feat === 'automatic-success' || ability.effect.feat === 'bonus-result') ? ability.effect.cost : 0;
  const abilityAfter = ability && !abilityBefore ? ability.effect.cost : 0;
  const steer = (s.steer ?? 0) + byDefault.steer;
  const before = (s.automaticSuccess || byDefault.automatic ? 1 : 0) + (s.bonus ?? 0) + abilityBefore + (byDefault.special?.count ?? 0);
  const after = (s.extraHits ?? 0) + abilityAfter + steer;
  if (who.readiedSuccess && before > 0) {
    throw new RuleError('success-readied', `${who.def.name}'s next challenge already succeeds (a critical was spent for it): spend nothing more before rolling`, 'spend', crit);
  }
  if (after > 0 && targets > 1) throw new RuleError('spend-one-target', 'criticals spent on a success go to one target: challenge one target at a time', 'spend', crit);
  if ((s.extraHits ?? 0) > 0 && kind !== 'attack' && kind !== 'power') throw new RuleError('spend-not-applicable', 'extra hits come only with attacks and harmful powers', 'spend.extraHits', crit);
  const bank = spendingBank(who);
  requireCriticals(now, bank, before + after, 'spend');
  return {
    bank,
    before,
    steer,
    bonus: (s.bonus ?? 0) + (ability?.effect.feat === 'bonus-result' ? (ability.effect.amount ?? 1) : 0),
    automatic: !!s.automaticSuccess || byDefault.automatic || ability?.effect.feat === 'automatic-success',
    extraHits: s.extraHits ?? 0,
    ...(ability ? { ability } : {}),
    ...(byDefault.special ? { special: byDefault.special } : {}),
    ...(byDefault.byDefault ? { byDefault: true } : {}),
  };
}

/**
 * personae-v4-srd-playing.txt "Critical Success": after the result is known, after ties are broken,
 * a critical steers a failure towards a glancing success. Only a failure is steered: turning a
 * glancing success into a clear one is left to abilities, powers and assistants
 * ("Clear Success, Glancing Success, and Steering"). Spent only if needed. The dice are not rolled
 * again: the same comparison is judged again with the steering.
 */
export function steerWithCriticals(b: Batch, who: CharacterState, spent: Spending, recorded: ChallengeResult, already: readonly Labeled[]): ChallengeResult {
  // The result keeps what was kept to steer, so that it can be judged again under other rules.
  const result = recorded.kind === 'automatic' ? recorded : { ...recorded, criticalSteer: spent.steer };
  const steps = steerNeeded(result, spent.steer);
  if (steps === 0 || result.kind === 'automatic') return result;
  spend(b, spent.bank, who.def.id, steps, `steer the result ${steps} grade${steps === 1 ? '' : 's'}`);
  const raw = comparisonOf(result, b.now.options);
  const source = `${steps} critical(s) spent`;
  const verdict = judge(raw, { options: b.now.options, steer: [...already, { value: steps, source }], reactorIsIdentity: result.kind !== 'unopposed' });
  const steering = verdict.rulings.filter((r) => r.rule === 'steering' && r.text.startsWith(source));
  const grade = (o: string, g: string | null) => (o === 'success' ? `${g} success` : o);
  return {
    ...result,
    outcome: verdict.outcome,
    grade: verdict.grade,
    rulings: [...result.rulings, ...steering],
    explanation: [...result.explanation, ...steering.map((r) => `${r.text} (${r.source}).`), `Outcome after steering: ${grade(verdict.outcome, verdict.grade)}.`],
  };
}

/**
 * Criticals spent away from a challenge. What they buy when the spend names no other purpose is the
 * table's option criticalDefaultUse: personae-core-2011.txt "Critical Success" turns them in to the
 * GM for something special (the purpose must be said); personae-playing-web.txt "Critical Success"
 * makes an upcoming challenge an automatic success; personae-v4-srd-playing.txt "Critical Success"
 * steers towards success, and spent before knowing the result the action succeeds. Both of the
 * latter ready the spender's next challenge to succeed; steering after the result is the challenge's
 * own `spend`.
 */
export function spendCriticals(b: Batch, command: CommandOf<'spend-criticals'>): void {
  const now = b.now;
  const use = now.options.criticalDefaultUse;
  let bank: string;
  let who: CharacterState | null = null;
  if (command.actor === 'gm') bank = 'gm';
  else {
    who = getCharacter(now, command.actor, 'actor');
    bank = command.from === 'gm' ? 'gm' : spendingBank(who);
    if (bank === 'gm' && !isGmCharacter(who.def)) throw new RuleError('not-gm-character', `${who.def.name} cannot draw on the GM's pool`, 'from', CRIT);
  }
  if (command.purpose) {
    spend(b, bank, command.actor, command.count, command.purpose, use === 'gm-special' ? { toGm: true } : {});
    return;
  }
  if (use === 'gm-special') {
    throw new RuleError('spend-purpose', 'say what the criticals are turned in for (purpose): this table hands criticals to the GM for something special (option criticalDefaultUse = gm-special)', 'purpose', CRIT);
  }
  const source = use === 'steer' ? rule('v4', 'Critical Success') : rule('web', 'Critical Success');
  if (!who) throw new RuleError('needs-character', 'a critical spent for an upcoming challenge is spent by the character who will issue it: name it as the actor', 'actor', source);
  if (command.count !== 1) {
    throw new RuleError('spend-count', `one critical makes an upcoming challenge succeed (option criticalDefaultUse = ${use}); ${command.count} were named`, 'count', source);
  }
  if (who.readiedSuccess) throw new RuleError('success-readied', `${who.def.name}'s next challenge already succeeds: a critical was spent for it`, 'type', source);
  spend(b, bank, command.actor, 1, defaultUseText(now.options), { readies: who.def.id });
}

/** personae-v4-srd-playing.txt "Critical Success": criticals can be given to others (option criticalsTransferable). */
export function giveCriticals(b: Batch, command: CommandOf<'give-criticals'>): void {
  const now = b.now;
  if (!now.options.criticalsTransferable) {
    throw new RuleError('criticals-not-transferable', 'this table does not let criticals be given to others (option criticalsTransferable)', 'type', rule('v4', 'Critical Success'));
  }
  const from = command.actor === 'gm' ? 'gm' : spendingBank(getCharacter(now, command.actor, 'actor'));
  const to = command.to === 'gm' ? 'gm' : spendingBank(getCharacter(now, command.to, 'to'));
  if (from === to) throw new RuleError('give-to-self', 'criticals given to the bank they come from', 'to');
  requireCriticals(now, from, command.count, 'count');
  b.emit({ type: 'criticals-given', from, to, count: command.count });
}
