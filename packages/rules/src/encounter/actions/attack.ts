import type { DiceSource } from '@personae/dice';
import type { Labeled } from '../../effects';
import type { Batch } from '../batch';
import type { CommandOf } from '../commands';
import { spend } from '../criticals';
import { RuleError, rule } from '../errors';
import { inflict, talliedStatus } from '../health';
import { ladder, STATUS_LABEL } from '../injury';
import { requireTurnOrFollowUp } from './follow-up';
import { cap, opponent, runChallenges, targetsOf, type Plan } from './challenge';
import { concerted } from './concerted-effort';
import { spending } from './critical-spending';
import { attackDefense } from './defense';
import { attackWeapon, weaponAttribute } from './weapons';

/** Attack Challenges (personae-core-2011.txt "Physical Combat", "Weapons", "Defense"): one challenge per target; hits on a success. */
export function attack(b: Batch, cmd: CommandOf<'attack'>, dice: DiceSource): void {
  const now = b.now;
  if (now.clock.stage !== 'violent') {
    throw new RuleError('not-violent', `an Attack Challenge is made in a violent encounter; this is a ${now.clock.stage === 'scene' ? 'scene' : `${now.clock.stage} encounter`}: escalate first`, 'type', rule('core', 'Escalation'));
  }
  const who = requireTurnOrFollowUp(b, cmd, 'actor');
  const ids = targetsOf(cmd);
  const targets = ids.map((id, i) => opponent(now, id, who, cmd.targets ? `targets[${i}]` : 'target'));
  const { weapon, skill } = attackWeapon(who, cmd);
  const attribute = weaponAttribute(now, weapon, skill);
  const together = concerted(b, who, cmd.concerted, ids);
  const spent = spending(now, who, cmd.spend, skill.name, 'attack', targets.length);
  if (spent?.ability?.effect.feat === 'injure-outright') {
    for (const t of targets) {
      if (talliedStatus(now, t) !== 'unharmed') {
        throw new RuleError('no-effect', `${spent.ability.name} brings a target to ${STATUS_LABEL[ladder(t.def)[0]!]}; ${t.def.name} is already ${STATUS_LABEL[talliedStatus(now, t)]}`, 'spend.ability', rule('core', 'What Special Abilities Can Do'));
      }
    }
  }
  const plans: Plan[] = targets.map((t) => ({
    kind: 'attack',
    who,
    target: t,
    actor: { skill, attribute, notes: [`${who.def.name} attacks with ${weapon.name === 'unarmed' ? 'an unarmed strike (a small bludgeon)' : weapon.name}: ${skill.name} + ${cap(attribute)}${weapon.range === 'ranged' ? ' (ranged)' : ''}.`] },
    reactor: attackDefense(now, t, weapon, cmd),
    purpose: cmd.purpose ?? `strike ${t.def.name}`,
  }));
  runChallenges(b, cmd, plans, dice, { concerted: together, spend: spent, what: `attacks ${targets.map((t) => t.def.name).join(', ')}`, usesAction: true }, (plan, ran) => {
    if (ran.result.outcome !== 'success') return;
    const base: Labeled = together
      ? { value: together.participants.length, source: `concerted effort of ${together.participants.length}` }
      : { value: weapon.hits, source: weapon.name === 'unarmed' ? 'unarmed strike' : weapon.name };
    const hits: Labeled[] = [base, ...ran.actorSide.extraHits];
    let outright: string | undefined;
    if (spent && spent.extraHits > 0) {
      spend(b, spent.bank, who.def.id, spent.extraHits, `${spent.extraHits} extra hit(s) on ${plan.target.def.name}`);
      hits.push({ value: spent.extraHits, source: 'criticals spent' });
    }
    if (spent?.ability && (spent.ability.effect.feat === 'injure-outright' || spent.ability.effect.feat === 'extra-hits')) {
      spend(b, spent.bank, who.def.id, spent.ability.effect.cost, `${spent.ability.name} on ${plan.target.def.name}`);
      if (spent.ability.effect.feat === 'injure-outright') outright = spent.ability.name;
      else hits.push({ value: spent.ability.effect.amount ?? 1, source: spent.ability.name });
    }
    inflict(b, who.def.id, plan.target.def.id, hits, outright);
  });
}
