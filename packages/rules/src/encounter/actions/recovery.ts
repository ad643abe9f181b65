import { formatCitation } from '@personae/core';
import type { DiceSource } from '@personae/dice';
import { resolveChallenge, type OpposedChallengeSpec } from '../../challenge';
import { getCharacter, type Batch } from '../batch';
import { skillUse } from '../combatant';
import type { CommandOf } from '../commands';
import { bankCriticals } from '../criticals';
import { RuleError, rule } from '../errors';
import { applyStatusNow, talliedStatus } from '../health';
import { ladder, STATUS_LABEL, threshold } from '../injury';
import { ACTOR_POOL, DIFFICULTY_POOL } from '../pools';
import { buildSide } from '../sides';
import type { CharacterState } from '../state';
import { requireTurn, takeAction } from '../turns';
import { assistants } from './assist';
import { checkAbilityLimit, checkAbilityUses, recordAbility } from './special-abilities';

// Recovery (personae-core-2011.txt "Healing and Recovery").

/** The GM's dice against a recovery: 1 up to Injured, 2 Wounded, 3 Incapacitated, 4 Dying. */
export const RECOVERY_DICE = { unharmed: 1, injured: 1, wounded: 2, incapacitated: 3, dying: 4, dead: 4 } as const;

export function recover(b: Batch, cmd: CommandOf<'recover'>, dice: DiceSource): void {
  const now = b.now;
  const section = rule('core', 'Healing and Recovery');
  const id = cmd.target ?? cmd.actor;
  if (cmd.actor !== 'gm' && id !== cmd.actor) throw new RuleError('recover-self', 'a character attempts its own recovery; others may assist', 'target', section);
  const who = getCharacter(now, id, 'target');
  const scene = now.clock.scene;
  const status = talliedStatus(now, who);
  if (status === 'dead') throw new RuleError('cannot-recover', `${who.def.name} is dead`, 'target', section);
  if (who.hits === 0) throw new RuleError('nothing-to-recover', `${who.def.name} has no hits to recover from`, 'target', section);
  if (who.lastRecoveryScene === scene) throw new RuleError('recovery-once-per-scene', `${who.def.name} has already attempted recovery this scene`, 'type', section);
  if (now.clock.stage === 'violent') {
    if (status !== 'unharmed' && status !== 'injured') {
      throw new RuleError('recovery-during-violence', `${who.def.name} is ${STATUS_LABEL[status]}: during a violent encounter only a character no worse than Injured may attempt recovery`, 'type', section);
    }
    if (cmd.actor !== 'gm') requireTurn(b, id, 'actor');
  }
  if (who.recoverFromScene > scene) {
    throw new RuleError('recovery-too-soon', `${who.def.name} may next attempt recovery in scene ${who.recoverFromScene} (this is scene ${scene})`, 'type', section);
  }
  if (status === 'dying' && !who.stabilized) throw new RuleError('not-stabilized', `${who.def.name} is Dying and must be stabilized first`, 'target', section);
  const skill = skillUse(who.def, 'Recovery', 'stature');
  const helpers = assistants(b, who, cmd.assistants, [], 'recovery', skill.name);
  const actorSide = buildSide(now, { who, skill, attribute: 'stature', role: 'issue', kind: 'recovery', abilities: cmd.abilities ?? [], dicePool: ACTOR_POOL }, 'abilities');
  checkAbilityLimit(b, who, actorSide.chosen, 'abilities');
  checkAbilityUses(now, who, actorSide.chosen, 'abilities');
  const gmDice = RECOVERY_DICE[status];
  const spec: OpposedChallengeSpec = {
    actor: actorSide.spec,
    reactor: {
      name: 'GM',
      pool: { base: gmDice, baseSource: `GM's recovery dice against ${STATUS_LABEL[status]}` },
      modifiers: [{ value: who.hits, source: 'hits sustained' }],
      dicePool: DIFFICULTY_POOL,
    },
    ...(helpers.length ? { assistants: helpers.map((h) => ({ name: h.who.def.name })) } : {}),
    ...(actorSide.steer.length ? { steer: actorSide.steer } : {}),
  };
  takeAction(b, who, 'attempts recovery', false);
  recordAbility(b, who, actorSide.chosen);
  for (const a of helpers) if (now.combat?.assists[a.who.def.id] !== undefined) b.emit({ type: 'assist-spent', actor: a.who.def.id });
  const result = resolveChallenge(spec, dice, now.options);
  b.emit({
    type: 'challenge-resolved',
    kind: 'recovery',
    actor: who.def.id,
    reactor: 'gm',
    skill: skill.name,
    reactorSkill: `${gmDice} GM ${gmDice === 1 ? 'die' : 'dice'}`,
    purpose: `recover from ${who.hits} hit(s) (${STATUS_LABEL[status]})`,
    result,
    notes: [`Recovery Challenge (${formatCitation(section)}): ${who.def.name} rolls ${skill.unskilled ? 'one die' : skill.name} + Stature against the GM's ${gmDice} dice + ${who.hits} hits sustained.`, ...actorSide.notes],
  });
  bankCriticals(b, who, result.criticals.actor, 'natural 10s in a recovery challenge');
  bankCriticals(b, 'gm', result.criticals.reactor, "the GM's natural 10s against a recovery");
  b.emit({ type: 'recovery-set', target: id, lastRecoveryScene: scene, reason: 'one recovery challenge a scene' });
  if (result.outcome !== 'success') return;
  recoverySuccess(b, who, status, scene);
}

function recoverySuccess(b: Batch, who: CharacterState, status: ReturnType<typeof talliedStatus>, scene: number): void {
  const now = b.now;
  const id = who.def.id;
  const t = threshold(who.def, now.options);
  const steps = ladder(who.def);
  const level = steps.indexOf(status as (typeof steps)[number]);
  const setHits = (after: number, reason: string) => {
    if (after !== who.hits) b.emit({ type: 'hits-removed', target: id, before: who.hits, after, reason });
  };
  const next = { type: 'recovery-set' as const, target: id, recoverFromScene: scene + 1 };
  if (status === 'unharmed') {
    setHits(0, 'recovered: every hit short of Injured is removed');
  } else if (level === 0 && status === 'injured') {
    const removed = Math.floor(who.hits / 2);
    setHits(who.hits - removed, `recovered from Injured: half the hits (${removed}, rounded down) are removed now`);
    b.emit({ ...next, healLater: { hits: who.hits - removed, atEndOfScene: scene + 1 }, reason: 'the other half are removed at the end of the following scene' });
  } else if ((status === 'incapacitated' || status === 'dying') && !who.conscious) {
    b.emit({ type: 'consciousness-changed', target: id, conscious: true, reason: `recovered, though still ${STATUS_LABEL[status]}` });
    b.emit({
      ...next,
      ...(status === 'incapacitated' ? { relapse: true } : {}),
      reason:
        status === 'incapacitated'
          ? 'may act normally; acting in a violent encounter before a non-violent encounter is completed knocks it out again; recovery from Incapacitated at the end of the following scene'
          : 'still unable to act normally; recovery from Dying at the end of the following scene',
    });
  } else {
    // One status rolled back: the hit that reached it is removed.
    const after = level > 0 ? t + level - 1 : t - 1;
    setHits(after, `recovered: ${STATUS_LABEL[status]} rolled back one status`);
    b.emit({ ...next, reason: 'the next recovery comes in the following scene' });
  }
  applyStatusNow(b, id, 'recovery');
}
