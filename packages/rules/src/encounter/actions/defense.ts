import { withArticle } from '@personae/core';
import type { Batch } from '../batch';
import { allows, findPower, findSkill, findWeapon, same, skillUse, weaponWeight, type AttributeKey, type Weapon } from '../combatant';
import type { CommandOf, DefenseChoice } from '../commands';
import { RuleError, rule } from '../errors';
import type { CharacterState, Snapshot } from '../state';
import { requireTurn, takeAction } from '../turns';
import { weaponAttribute } from './weapons';
import { cap, type Answer } from './challenge';
import { obstacleAnswer } from './obstacles';

// The answer to an attack (personae-core-2011.txt "Defense", "Passive vs. Active Defense").

const DEFENSE = rule('core', 'Passive vs. Active Defense');

export function passive(c: CharacterState, which: 'dodge' | 'block'): Answer {
  // personae-core-2011.txt "Defense": Dodge with Cunning, Block with Stature.
  const attribute: AttributeKey = which === 'dodge' ? 'cunning' : 'stature';
  return { skill: skillUse(c.def, which === 'dodge' ? 'Dodge' : 'Block', attribute), attribute, notes: [`${c.def.name} answers with a passive defense: ${which === 'dodge' ? 'Dodge + Cunning' : 'Block + Stature'}.`] };
}

function betterPassive(c: CharacterState): 'dodge' | 'block' {
  const d = skillUse(c.def, 'Dodge', 'cunning').dice + c.def.attributes.cunning;
  const k = skillUse(c.def, 'Block', 'stature').dice + c.def.attributes.stature;
  return k > d ? 'block' : 'dodge';
}

export function declaredOrAutonomic(now: Snapshot, c: CharacterState, kind: 'parry' | 'block' | 'power', field: string): { skill: string; power?: string; autonomic?: string } {
  const declared = now.combat?.defenses[c.def.id];
  if (declared && declared.kind === kind) return declared;
  const auto = allows(c.def, 'autonomic-defense');
  if (auto) return { skill: '', autonomic: auto.name };
  throw new RuleError(
    'active-defense-not-declared',
    `${c.def.name} has not declared an action to ${kind === 'power' ? 'resist with a power' : kind}: an active defense is declared ahead with an action`,
    field,
    DEFENSE,
  );
}

export function activePower(now: Snapshot, c: CharacterState, named: string | undefined, declared: { power?: string | undefined }, field: string): Answer {
  const p = findPower(c.def, named ?? declared.power ?? '') ?? c.def.powers.find((x) => x.activeDefense);
  if (!p) throw new RuleError('unknown-power', `${c.def.name} has no power to defend with`, field);
  if (!p.activeDefense) throw new RuleError('not-a-defense', `${p.name} is not a power that defends`, field, DEFENSE);
  return { skill: skillUse(c.def, p.skill, 'power'), attribute: 'power', notes: [`${c.def.name} defends actively with the power ${p.name}: ${p.skill} + Power.`] };
}

export function attackDefense(now: Snapshot, c: CharacterState, weapon: Weapon, cmd: CommandOf<'attack'>): Answer {
  if (c.def.obstacle) return obstacleAnswer(now, c, cmd.defenseSkill, 'defenseSkill');
  const declared = now.combat?.defenses[c.def.id];
  const choice: DefenseChoice = cmd.defense ?? (declared ? (declared.kind === 'block' ? 'shield' : declared.kind) : betterPassive(c));
  switch (choice) {
    case 'dodge':
    case 'block':
      return passive(c, choice);
    case 'resist':
      throw new RuleError('defense-not-allowed', 'Resist answers Power and Interaction Challenges, not attacks: dodge, block, or an active defense', 'defense', rule('core', 'Defense'));
    case 'power': {
      const d = declaredOrAutonomic(now, c, 'power', 'defense');
      return activePower(now, c, cmd.defensePower, d, 'defensePower');
    }
    case 'parry': {
      const d = declaredOrAutonomic(now, c, 'parry', 'defense');
      const name = cmd.defenseSkill ?? (d.skill || c.def.skills.find((s) => s.weapon && findWeapon(c.def, s.weapon)?.range === 'melee')?.name);
      const s = name ? findSkill(c.def, name) : undefined;
      if (!s || !s.weapon) throw new RuleError('parry-needs-weapon', `${c.def.name} has no weapon skill${name ? ` "${name}"` : ''} to parry with`, 'defenseSkill', DEFENSE);
      const w = findWeapon(c.def, s.weapon);
      if (!w) throw new RuleError('unknown-weapon', `${c.def.name} does not carry ${s.weapon}`, 'defenseSkill');
      const any = allows(c.def, 'parry-any-weight');
      // Like against like: light parries light, heavy parries heavy (small and one-handed are light).
      if (weaponWeight(w) !== weaponWeight(weapon) && !any) {
        throw new RuleError(
          'illegal-parry',
          `like against like: ${c.def.name}'s ${w.name} (${w.size}, ${weaponWeight(w)}) cannot parry ${weapon.name === 'unarmed' ? 'an unarmed attack' : withArticle(weapon.name)} (${weapon.size}, ${weaponWeight(weapon)})`,
          'defense',
          DEFENSE,
        );
      }
      const use = { ...s, unskilled: false };
      const attribute = weaponAttribute(now, w, use);
      return { skill: use, attribute, notes: [`${c.def.name} parries with ${w.name} (${weaponWeight(w)} against ${weaponWeight(weapon)}${any ? `; ${any.name} allows any weight` : ''}): ${s.name} + ${cap(attribute)}.`] };
    }
    case 'shield': {
      const d = declaredOrAutonomic(now, c, 'block', 'defense');
      const name = cmd.defenseSkill ?? (d.skill || c.def.skills.find((s) => s.shield)?.name);
      const s = name ? findSkill(c.def, name) : undefined;
      if (!s || !s.shield) throw new RuleError('block-needs-shield', `${c.def.name} has no shield skill${name ? ` "${name}"` : ''}: blocking with a shield takes its own skill`, 'defenseSkill', DEFENSE);
      const sh = c.def.shields.find((x) => same(x.name, s.shield!));
      if (!sh) throw new RuleError('unknown-shield', `${c.def.name} does not carry ${s.shield}`, 'defenseSkill');
      // Heavy shields block any weapon; light shields only light weapons.
      if (sh.weight === 'light' && weaponWeight(weapon) === 'heavy') {
        throw new RuleError('illegal-block', `${c.def.name}'s light shield ${sh.name} cannot block a heavy ${weapon.name}`, 'defense', DEFENSE);
      }
      return { skill: { ...s, unskilled: false }, attribute: s.attribute, notes: [`${c.def.name} blocks with the ${sh.weight} shield ${sh.name}: ${s.name} + ${cap(s.attribute)}.`] };
    }
  }
}

/** personae-core-2011.txt "Passive vs. Active Defense": an active defense is declared with an action. */
export function defend(b: Batch, command: CommandOf<'defend'>): void {
  const who = requireTurn(b, command.actor, 'actor');
  const c = who.def;
  const section = rule('core', 'Passive vs. Active Defense');
  if (command.kind === 'power') {
    const p = command.power ? findPower(c, command.power) : c.powers.find((x) => x.activeDefense);
    if (!p) throw new RuleError('unknown-power', `${c.name} has no power${command.power ? ` "${command.power}"` : ''} to defend with`, 'power');
    if (!p.activeDefense) throw new RuleError('not-a-defense', `${p.name} is not a power that resists or deflects`, 'power', section);
    takeAction(b, who, `declares an active defense with ${p.name}`);
    b.emit({ type: 'defense-declared', actor: c.id, defense: { kind: 'power', skill: p.skill, power: p.name, round: b.now.combat?.round ?? 0 } });
    return;
  }
  const wanted = command.kind === 'parry' ? 'weapon' : 'shield';
  const skill = command.skill ? findSkill(c, command.skill) : c.skills.find((s) => (wanted === 'weapon' ? s.weapon && findWeapon(c, s.weapon)?.range === 'melee' : s.shield));
  if (!skill) throw new RuleError('unknown-skill', `${c.name} has no ${wanted} skill${command.skill ? ` "${command.skill}"` : ''} to ${command.kind} with`, 'skill', section);
  if (command.kind === 'parry' && !skill.weapon) throw new RuleError('parry-needs-weapon', `${skill.name} is not a weapon skill: parrying takes a weapon`, 'skill', section);
  if (command.kind === 'block' && !skill.shield) {
    throw new RuleError('block-needs-shield', `${skill.name} is not a shield skill: blocking actively takes a separate shield skill`, 'skill', section);
  }
  takeAction(b, who, `declares an active defense: ${command.kind} with ${skill.name}`);
  b.emit({ type: 'defense-declared', actor: c.id, defense: { kind: command.kind, skill: skill.name, round: b.now.combat?.round ?? 0 } });
}
