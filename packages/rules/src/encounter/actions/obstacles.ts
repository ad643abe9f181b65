import { formatCitation } from '@personae/core';
import { findSkill, obstaclePool, type SkillUse } from '../combatant';
import { RuleError, rule } from '../errors';
import { sustainsHits } from '../health';
import type { CharacterState, Snapshot } from '../state';
import { cap, type Answer } from './challenge';

// Obstacles and hazards as identities with a pool (personae-core-2011.txt "Obstacles").

const OBSTACLES = rule('core', 'Obstacles');

/**
 * How an obstacle answers a challenge: with its pool (its first skill), or another of its skills the
 * command names. The note says whether hits count against it.
 */
export function obstacleAnswer(now: Snapshot, c: CharacterState, named: string | undefined, field: string): Answer {
  let skill: SkillUse | undefined = obstaclePool(c.def);
  if (named !== undefined) {
    const found = findSkill(c.def, named);
    if (!found || !c.def.skills.includes(found)) throw new RuleError('unknown-skill', `${c.def.name} has no skill "${named}" to answer with`, field, OBSTACLES);
    skill = { ...found, unskilled: false };
  }
  const o = c.def.obstacle!;
  const health = sustainsHits(now, c)
    ? `${o.health} hit(s) overcome it (option obstacleHealth = hits).`
    : `It sustains no hits (${now.options.obstacleHealth === 'hits' ? 'no health given' : 'option obstacleHealth = none'}): a success overcomes it as the group narrates.`;
  return {
    skill: skill!,
    attribute: skill!.attribute,
    notes: [`${c.def.name}, ${o.kind === 'hazard' ? 'a hazard' : 'an obstacle'} (${formatCitation(OBSTACLES)}), answers with ${skill!.name}: ${skill!.dice} dice + ${cap(skill!.attribute)}. ${health}`],
  };
}
