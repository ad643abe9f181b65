import { formatCitation } from '@personae/core';
import type { DiceSource } from '@personae/dice';
import { DifficultyError, parseDifficulty, resolveUnopposed, unopposedGmDice, type Difficulty } from '../../challenge';
import type { Labeled } from '../../effects';
import type { Batch } from '../batch';
import { skillUse } from '../combatant';
import type { CommandOf } from '../commands';
import { bankCriticals, spend } from '../criticals';
import { RuleError, rule } from '../errors';
import { ACTOR_POOL } from '../pools';
import { buildSide } from '../sides';
import { requireTurn, takeAction } from '../turns';
import { assistants, assistNote } from './assist';
import { cap } from './challenge';
import { spending, steerWithCriticals } from './critical-spending';
import { countExpertise, expertise } from './expertise';
import { checkAbilityLimit, checkAbilityUses, recordAbility } from './special-abilities';

// Unopposed Challenges and obstacles (personae-core-2011.txt "Unopposed Challenges", "Obstacles").

const UNOPPOSED = rule('core', 'Unopposed Challenges');

function difficultyOf(input: string | number): Difficulty {
  try {
    return parseDifficulty(input);
  } catch (e) {
    if (e instanceof DifficultyError) throw new RuleError('unknown-difficulty', e.message, 'difficulty', rule('core', 'Unopposed Challenges'));
    throw e;
  }
}

/**
 * A character commits to a task no one opposes, or comes up against a static obstacle or a hazard
 * the group chose to roll for. The GM assesses the skill, attribute and difficulty; the GM rolls one
 * die fewer than the character's skill (at least one) and adds the difficulty; the character must
 * meet or beat it (option unopposed says how the two rolls are compared). Everything a challenge
 * can carry on the character's side applies: special abilities, Expertise, assistants, criticals.
 */
export function unopposed(b: Batch, cmd: CommandOf<'unopposed'>, dice: DiceSource): void {
  const now = b.now;
  const who = requireTurn(b, cmd.actor, 'actor');
  const difficulty = difficultyOf(cmd.difficulty);
  const skill = skillUse(who.def, cmd.skill, cmd.attribute ?? 'competence');
  const attribute = cmd.attribute ?? skill.attribute;
  const helpers = assistants(b, who, cmd.assistants, [], 'unopposed', skill.name);
  const talent = expertise(b, who, cmd.expertise, 'expertise');
  const spent = spending(now, who, cmd.spend, skill.name, 'unopposed', 1);
  const critBonus: Labeled[] = spent && spent.bonus > 0 ? [{ value: spent.bonus, source: 'criticals spent' }] : [];
  const side = buildSide(
    now,
    {
      who,
      skill,
      attribute,
      role: 'issue',
      kind: 'unopposed',
      abilities: cmd.abilities ?? [],
      ...(talent ? { expertise: talent } : {}),
      modifiers: [...(cmd.modifiers ?? []), ...critBonus],
      dicePool: ACTOR_POOL,
    },
    'abilities',
  );
  const chosen = spent?.ability ? [...side.chosen, spent.ability] : side.chosen;
  checkAbilityLimit(b, who, chosen, 'abilities');
  checkAbilityUses(now, who, chosen, 'abilities');

  const against = cmd.obstacle ? ` against ${cmd.obstacle}` : '';
  takeAction(b, who, `attempts ${skill.name}${against} (${difficulty.label})`);
  recordAbility(b, who, chosen);
  countExpertise(b, who, talent);
  for (const a of helpers) if (now.combat?.assists[a.who.def.id] !== undefined) b.emit({ type: 'assist-spent', actor: a.who.def.id });
  const special = spent?.special;
  if (spent && special) spend(b, spent.bank, who.def.id, special.count, special.purpose, special.toGm ? { toGm: true } : {});
  const mechanical = (spent?.before ?? 0) - (special?.count ?? 0);
  if (spent && mechanical > 0) {
    spend(b, spent.bank, who.def.id, mechanical, spent.automatic ? `automatic success${spent.byDefault ? ' (option criticalDefaultUse = automatic-success)' : ''}` : `+${spent.bonus} to the result`);
  }
  const readied = who.readiedSuccess;
  if (readied) b.emit({ type: 'readied-success-used', actor: who.def.id });
  const automatic = spent?.automatic ? 'a critical spent before rolling' : readied ? 'a critical spent ahead for this challenge' : null;

  let result = resolveUnopposed(
    {
      player: side.spec,
      difficulty,
      ...(helpers.length ? { assistants: helpers.map((h) => ({ name: h.who.def.name })) } : {}),
      ...(side.steer.length ? { steer: side.steer } : {}),
      ...(automatic ? { automaticSuccess: { source: automatic } } : {}),
    },
    dice,
    now.options,
  );
  if (spent && spent.steer > 0) result = steerWithCriticals(b, who, spent, result, side.steer);
  const gmDice = unopposedGmDice(side.spec.pool.base);
  b.emit({
    type: 'challenge-resolved',
    kind: 'unopposed',
    actor: who.def.id,
    reactor: 'gm',
    skill: skill.name,
    reactorSkill: `difficulty ${difficulty.label}`,
    purpose: cmd.purpose ?? (cmd.obstacle ? `overcome ${cmd.obstacle}` : `succeed with ${skill.name}`),
    result,
    notes: [
      `Unopposed Challenge (${formatCitation(UNOPPOSED)}${cmd.obstacle ? `; ${formatCitation(rule('core', 'Obstacles'))}: ${cmd.obstacle}` : ''}): ${who.def.name} rolls ${skill.name} + ${cap(attribute)} against the GM's ${gmDice} ${gmDice === 1 ? 'die' : 'dice'} (one fewer than the skill, at least one) + ${difficulty.value} for ${difficulty.label} (option unopposed = ${now.options.unopposed}).`,
      ...side.notes,
      ...assistNote(helpers),
    ],
  });
  bankCriticals(b, who, result.criticals.actor, 'natural 10s in an unopposed challenge');
}
