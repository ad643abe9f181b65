import { findSkill, findWeapon, same, skillUse, UNARMED, type AttributeKey, type SkillUse, type Weapon } from '../combatant';
import type { CommandOf } from '../commands';
import { DomainError } from '../errors';
import type { CharacterState, Snapshot } from '../state';

// personae-core-2011.txt "Weapons": which weapon and skill an attack uses, and the attribute added.

export function attackWeapon(who: CharacterState, cmd: CommandOf<'attack'>): { weapon: Weapon; skill: SkillUse } {
  const c = who.def;
  let skillName = cmd.skill;
  let weapon: Weapon | undefined;
  if (cmd.weapon) {
    weapon = findWeapon(c, cmd.weapon);
    if (!weapon) throw new DomainError('unknown-weapon', `${c.name} has no weapon "${cmd.weapon}"`, 'weapon');
    skillName ??= c.skills.find((s) => s.weapon && same(s.weapon, weapon!.name))?.name ?? (weapon === UNARMED ? c.skills.find((s) => same(s.name, 'Unarmed'))?.name : undefined);
  } else if (skillName) {
    const s = findSkill(c, skillName);
    weapon = s?.weapon ? findWeapon(c, s.weapon) : UNARMED;
    if (!weapon) throw new DomainError('unknown-weapon', `${c.name}'s skill ${skillName} names a weapon it does not carry`, 'skill');
  } else {
    const s = c.skills.find((x) => x.weapon && findWeapon(c, x.weapon));
    skillName = s?.name;
    weapon = s ? findWeapon(c, s.weapon!)! : UNARMED;
  }
  const attribute: AttributeKey = weapon.range === 'ranged' ? 'cunning' : 'stature';
  const skill = skillUse(c, skillName ?? (weapon === UNARMED ? 'Unarmed' : weapon.name), attribute);
  return { weapon, skill };
}

/** personae-core-2011.txt "Weapons": Cunning for ranged attacks, Stature for unarmed and hand-to-hand (option attackAttribute). */
export function weaponAttribute(now: Snapshot, weapon: Weapon, skill: SkillUse): AttributeKey {
  if (now.options.attackAttribute === 'skill' && !skill.unskilled) return skill.attribute;
  return weapon.range === 'ranged' ? 'cunning' : 'stature';
}
