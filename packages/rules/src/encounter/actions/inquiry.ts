import { formatCitation } from '@personae/core';
import type { DiceSource } from '@personae/dice';
import { getCharacter, type Batch } from '../batch';
import { skillUse, type SkillUse } from '../combatant';
import type { CommandOf } from '../commands';
import { RuleError, rule } from '../errors';
import { requireTurn, takeAction } from '../turns';
import { cap, runChallenges, type Plan } from './challenge';
import { spending } from './critical-spending';

// Inquiry (personae-core-2011.txt "What Your Character Knows").

/**
 * personae-core-2011.txt "What Your Character Knows": a "virtual" Interaction Challenge. If the
 * character never hid the answer, it is given at once; otherwise one die (or a skill for learning
 * such things) + Knowledge against the skill that hid it, one die + Cunning by default.
 */
export function inquire(b: Batch, cmd: CommandOf<'inquire'>, dice: DiceSource): void {
  const now = b.now;
  const who = requireTurn(b, cmd.actor, 'actor');
  const target = getCharacter(now, cmd.target, 'target');
  if (target.def.id === who.def.id) throw new RuleError('self-target', 'a character knows what it knows', 'target');
  const section = rule('core', 'What Your Character Knows');
  if (!cmd.hidden) {
    takeAction(b, who, `asks about ${target.def.name}`, false);
    b.emit({ type: 'virtual-answered', actor: who.def.id, target: target.def.id, question: cmd.question, explanation: `${target.def.name} did nothing to hide it: the answer is given, no roll (${formatCitation(section)}).` });
    return;
  }
  const skill: SkillUse = cmd.skill ? { ...skillUse(who.def, cmd.skill, 'knowledge'), attribute: 'knowledge' } : { name: 'one die', dice: 1, attribute: 'knowledge', unskilled: false };
  const reactorSkill: SkillUse = cmd.reactorSkill ? skillUse(target.def, cmd.reactorSkill, 'cunning') : { name: 'one die', dice: 1, attribute: 'cunning', unskilled: false };
  const spent = spending(now, who, cmd.spend, skill.name, 'virtual', 1);
  const plan: Plan = {
    kind: 'virtual',
    who,
    target,
    actor: { skill, attribute: 'knowledge', notes: [`What ${who.def.name} knows (${formatCitation(section)}): ${skill.name === 'one die' ? 'one die' : skill.name} + Knowledge.`] },
    reactor: { skill: reactorSkill, attribute: reactorSkill.attribute, notes: [`${target.def.name} hid it: ${reactorSkill.name === 'one die' ? 'one die' : reactorSkill.name} + ${cap(reactorSkill.attribute)}.`] },
    purpose: `learn "${cmd.question}"`,
  };
  runChallenges(b, cmd, [plan], dice, { spend: spent, what: `asks what ${target.def.name} hid: "${cmd.question}"`, usesAction: true }, () => {});
}
