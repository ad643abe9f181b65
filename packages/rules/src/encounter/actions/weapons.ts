import { findSkill, findWeapon, same, skillUse, UNARMED, type AttributeKey, type SkillUse, type Weapon } from '../combatant';
import type { CommandOf } from '../commands';
import { RuleError } from '../errors';
import type { TableOptions } from '../../options';
import type { CharacterState } from '../state';

// personae-core-2011.txt "Weapons": which weapon and skill an attack uses, and the attribute added.

export function attackWeapon(who: CharacterState, cmd: CommandOf<'attack'>): { weapon: Weapon; skill: SkillUse } {
  const c = who.def;
  let skillName = cmd.skill;
  let weapon: Weapon | undefined;
  if (cmd.weapon) {
    weapon = findWeapon(c, cmd.weapon);
    if (!weapon) throw new RuleError('unknown-weapon', `${c.name} has no weapon "${cmd.weapon}"`, 'weapon');
    skillName ??= c.skills.find((s) => s.weapon && same(s.weapon, weapon!.name))?.name ?? (weapon === UNARMED ? c.skills.find((s) => same(s.name, 'Unarmed'))?.name : undefined);
  } else if (skillName) {
    const s = findSkill(c, skillName);
    weapon = s?.weapon ? findWeapon(c, s.weapon) : UNARMED;
    if (!weapon) throw new RuleError('unknown-weapon', `${c.name}'s skill ${skillName} names a weapon it does not carry`, 'skill');
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
export function weaponAttribute(now: { readonly options: Pick<TableOptions, 'attackAttribute'> }, weapon: Pick<Weapon, 'range'>, skill: Pick<SkillUse, 'attribute' | 'unskilled'>): AttributeKey {
  if (now.options.attackAttribute === 'skill' && !skill.unskilled) return skill.attribute;
  return weapon.range === 'ranged' ? 'cunning' : 'stature';
}

/**
 * What an attack or a parry with a weapon skill adds, in words, by the table's option attackAttribute:
 * the builder, the sheet and the roller say the same as the encounter does.
 */
export function weaponAttributeNote(options: Pick<TableOptions, 'attackAttribute'>, weapon: Pick<Weapon, 'range'>, skillAttribute: AttributeKey): { attribute: AttributeKey; text: string } {
  const attribute = weaponAttribute({ options }, weapon, { attribute: skillAttribute, unskilled: false });
  const name = (a: AttributeKey) => a.charAt(0).toUpperCase() + a.slice(1);
  const why =
    options.attackAttribute === 'skill'
      ? "the skill's own attribute (option attackAttribute = skill)"
      : `${weapon.range === 'ranged' ? 'Cunning for a ranged weapon' : 'Stature for a hand-to-hand weapon'} (option attackAttribute = by-weapon)`;
  const unlike = attribute !== skillAttribute ? `, not the skill's ${name(skillAttribute)}` : '';
  return { attribute, text: `Attacks and parries with it add ${name(attribute)}${unlike}: ${why}.` };
}
