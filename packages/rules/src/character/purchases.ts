import type { TableOptions } from '../options/options';
import {
  DEFENSE_SKILLS,
  abilityBaseValue,
  isDefenseSkill,
  sameName,
  type SpendEntry,
} from './derive';
import { TIERS, type CharacterSheet, type Purchase, type SlotTrait, type SpecialAbility, type Tier } from './schema';

/**
 * What development points buy, what each purchase costs, and how a purchase changes the sheet and
 * is taken back. personae-core-2011.txt "Advancement", "Upgrades", "Companion Development".
 */

export type PurchaseCategory = 'attributes' | 'traits' | 'none';

/** personae-core-2011.txt "Advancement": points go to attributes or to traits, not both. */
export function purchaseCategory(purchase: Purchase): PurchaseCategory {
  switch (purchase.kind) {
    case 'attribute':
    case 'companion-attribute':
      return 'attributes';
    case 'assign-dice':
    case 'priorities':
    case 'unspent-slot':
      return 'none';
    default:
      return 'traits';
  }
}

function findAbility(sheet: CharacterSheet, name: string): SpecialAbility | undefined {
  return sheet.specialAbilities.find((a) => sameName(a.name, name));
}

export function companionAbility(sheet: CharacterSheet, companion: string): SpecialAbility | undefined {
  return sheet.specialAbilities.find((a) => a.companion !== undefined && sameName(a.companion, companion));
}

function upgradeCost(ability: SpecialAbility, options: Pick<TableOptions, 'qualityUpgradeCost'>): number {
  // personae-core-2011.txt "Special Ability Identifiers": one free upgrade per Conditional limit.
  if (ability.upgrades < ability.conditional.length) return 0;
  // "Upgrades": a Quality's upgrades cost one point each unless the table says otherwise.
  return ability.quality ? options.qualityUpgradeCost : 1;
}

/** Development points a purchase costs on this sheet; null when the purchase names nothing on it. */
export function purchaseCost(sheet: CharacterSheet, purchase: Purchase, options: Pick<TableOptions, 'qualityUpgradeCost'>): number | null {
  switch (purchase.kind) {
    case 'assign-dice':
      return 0;
    // personae-core-2011.txt "The Order of Importance": a change of priorities, where the table allows one.
    case 'priorities':
      return 0;
    // "Step 4: Determine Maximum Number of Traits": a slot left unspent at creation is already paid for.
    case 'unspent-slot':
      return 0;
    case 'special-ability':
      // A Quality (and so Exceptional Gear) counts double when first taken.
      return abilityBaseValue(purchase.ability);
    case 'special-ability-upgrade': {
      const ability = findAbility(sheet, purchase.ability);
      return ability ? upgradeCost(ability, options) : null;
    }
    case 'companion-promotion': {
      const ability = companionAbility(sheet, purchase.companion);
      return ability ? upgradeCost(ability, options) : null;
    }
    default:
      return 1;
  }
}

export const nextTier = (tier: Tier | undefined): Tier | null => {
  const i = TIERS.indexOf(tier ?? 'minion');
  return i + 1 < TIERS.length ? TIERS[i + 1]! : null;
};

export interface Applied {
  readonly sheet: CharacterSheet;
  readonly previous?: SpendEntry['previous'];
}

/** A message saying why the purchase cannot be applied, or the changed sheet. */
export function applyPurchase(sheet: CharacterSheet, purchase: Purchase): Applied | string {
  const s = structuredClone(sheet);
  switch (purchase.kind) {
    case 'attribute':
      s.attributes[purchase.attribute] += 1;
      return { sheet: s };
    case 'companion-attribute': {
      const c = s.companions.find((x) => sameName(x.name, purchase.companion));
      if (!c) return `there is no companion called "${purchase.companion}"`;
      c.attributes[purchase.attribute] += 1;
      return { sheet: s };
    }
    case 'skill':
      s.skills.push(structuredClone(purchase.skill));
      return { sheet: s };
    case 'prowess-pool':
    case 'hit':
      // Both are read from the history: nothing else on the sheet changes.
      return { sheet: s };
    case 'assign-dice': {
      const skill = s.skills.find((x) => sameName(x.name, purchase.skill));
      if (skill) {
        skill.dice += purchase.dice;
        return { sheet: s };
      }
      const defense = DEFENSE_SKILLS.find((d) => sameName(d.name, purchase.skill));
      if (!defense) return `there is no skill called "${purchase.skill}"`;
      s.skills.push({ ...defense, dice: defense.dice + purchase.dice });
      return { sheet: s, previous: { listed: false } };
    }
    case 'special-ability':
      s.specialAbilities.push(structuredClone(purchase.ability));
      if (purchase.companion) s.companions.push(structuredClone(purchase.companion));
      return { sheet: s };
    case 'special-ability-upgrade':
    case 'companion-promotion': {
      const ability =
        purchase.kind === 'special-ability-upgrade' ? findAbility(s, purchase.ability) : companionAbility(s, purchase.companion);
      if (!ability) {
        return purchase.kind === 'special-ability-upgrade'
          ? `there is no special ability called "${purchase.ability}"`
          : `no special ability represents a companion called "${purchase.companion}"`;
      }
      ability.upgrades += 1;
      if (ability.companion === undefined) return { sheet: s };
      const companion = s.companions.find((c) => sameName(c.name, ability.companion!));
      if (!companion) return `there is no companion called "${ability.companion}"`;
      const to = nextTier(companion.tier);
      if (!to) return `${companion.name} is already a major ally`;
      const previousTier = companion.tier;
      companion.tier = to;
      return { sheet: s, previous: previousTier === undefined ? {} : { tier: previousTier } };
    }
    case 'quality': {
      const ability = findAbility(s, purchase.ability);
      if (!ability) return `there is no special ability called "${purchase.ability}"`;
      ability.quality = true;
      if (purchase.exceptionalGear !== undefined) ability.exceptionalGear = purchase.exceptionalGear;
      return { sheet: s };
    }
    case 'power':
      s.powers.push(structuredClone(purchase.power));
      return { sheet: s };
    case 'power-upgrade': {
      const power = s.powers.find((p) => sameName(p.name, purchase.power));
      if (!power) return `there is no power called "${purchase.power}"`;
      power.upgrades += 1;
      if (purchase.improve === 'targets') power.targets += 1;
      else if (purchase.improve === 'hits') power.hits += 1;
      else if (purchase.improve === 'duration') {
        if (!purchase.duration) return 'a duration upgrade names the new duration: independent or special';
        const previous = power.duration;
        power.duration = purchase.duration;
        return { sheet: s, previous: { duration: previous } };
      }
      return { sheet: s };
    }
    case 'talent':
      s.talents.push(structuredClone(purchase.talent));
      return { sheet: s };
    case 'talent-upgrade': {
      const talent = s.talents.find((t) => sameName(t.name, purchase.talent));
      if (!talent) return `there is no talent called "${purchase.talent}"`;
      talent[purchase.improve] += 1;
      return { sheet: s };
    }
    case 'priorities': {
      const previous = s.priorities;
      s.priorities = structuredClone(purchase.priorities);
      return { sheet: s, previous: { priorities: previous } };
    }
    case 'unspent-slot': {
      const t = purchase.trait;
      if (t.type === 'skill') s.skills.push(structuredClone(t.skill));
      else if (t.type === 'special-ability') s.specialAbilities.push(structuredClone(t.ability));
      else if (t.type === 'power') s.powers.push(structuredClone(t.power));
      else s.talents.push(structuredClone(t.talent));
      return { sheet: s };
    }
  }
}

function removeLast<T>(list: T[], match: (item: T) => boolean): boolean {
  for (let i = list.length - 1; i >= 0; i--) {
    if (match(list[i]!)) {
      list.splice(i, 1);
      return true;
    }
  }
  return false;
}

/** Take a spend back: the sheet as it was before it, or a message saying why that is impossible. */
export function invertPurchase(sheet: CharacterSheet, entry: SpendEntry): CharacterSheet | string {
  const s = structuredClone(sheet);
  const p = entry.purchase;
  const missing = (what: string) => `the history says ${what}, but the sheet does not have it`;
  switch (p.kind) {
    case 'attribute':
      s.attributes[p.attribute] -= 1;
      return s;
    case 'companion-attribute': {
      const c = s.companions.find((x) => sameName(x.name, p.companion));
      if (!c) return missing(`companion ${p.companion} was raised`);
      c.attributes[p.attribute] -= 1;
      return s;
    }
    case 'skill':
      return removeLast(s.skills, (x) => sameName(x.name, p.skill.name)) ? s : missing(`the skill ${p.skill.name} was unlocked`);
    case 'prowess-pool':
    case 'hit':
      return s;
    case 'assign-dice': {
      const i = s.skills.findIndex((x) => sameName(x.name, p.skill));
      const skill = s.skills[i];
      if (!skill) return missing(`dice were assigned to ${p.skill}`);
      skill.dice -= p.dice;
      if (entry.previous?.listed === false && isDefenseSkill(skill.name)) s.skills.splice(i, 1);
      return s;
    }
    case 'special-ability': {
      if (!removeLast(s.specialAbilities, (a) => sameName(a.name, p.ability.name))) {
        return missing(`the special ability ${p.ability.name} was acquired`);
      }
      if (p.companion && !removeLast(s.companions, (c) => sameName(c.name, p.companion!.name))) {
        return missing(`the companion ${p.companion.name} joined`);
      }
      return s;
    }
    case 'special-ability-upgrade':
    case 'companion-promotion': {
      const ability = p.kind === 'special-ability-upgrade' ? findAbility(s, p.ability) : companionAbility(s, p.companion);
      if (!ability) return missing(`a special ability was upgraded`);
      ability.upgrades -= 1;
      if (ability.companion !== undefined) {
        const companion = s.companions.find((c) => sameName(c.name, ability.companion!));
        if (!companion) return missing(`the companion ${ability.companion} was promoted`);
        if (entry.previous?.tier === undefined) delete companion.tier;
        else companion.tier = entry.previous.tier;
      }
      return s;
    }
    case 'quality': {
      const ability = findAbility(s, p.ability);
      if (!ability) return missing(`${p.ability} became a Quality`);
      ability.quality = false;
      if (p.exceptionalGear !== undefined) delete ability.exceptionalGear;
      return s;
    }
    case 'power':
      return removeLast(s.powers, (x) => sameName(x.name, p.power.name)) ? s : missing(`the power ${p.power.name} was acquired`);
    case 'power-upgrade': {
      const power = s.powers.find((x) => sameName(x.name, p.power));
      if (!power) return missing(`the power ${p.power} was upgraded`);
      power.upgrades -= 1;
      if (p.improve === 'targets') power.targets -= 1;
      else if (p.improve === 'hits') power.hits -= 1;
      else if (p.improve === 'duration' && entry.previous?.duration) power.duration = entry.previous.duration;
      return s;
    }
    case 'talent':
      return removeLast(s.talents, (x) => sameName(x.name, p.talent.name)) ? s : missing(`the talent ${p.talent.name} was acquired`);
    case 'talent-upgrade': {
      const talent = s.talents.find((x) => sameName(x.name, p.talent));
      if (!talent) return missing(`the talent ${p.talent} was upgraded`);
      talent[p.improve] -= 1;
      return s;
    }
    case 'priorities':
      if (!entry.previous?.priorities) return 'the history does not say what the order of importance was before it changed';
      s.priorities = structuredClone(entry.previous.priorities);
      return s;
    case 'unspent-slot': {
      const t = p.trait;
      const name = slotTraitName(t);
      const list: { name: string }[] = t.type === 'skill' ? s.skills : t.type === 'special-ability' ? s.specialAbilities : t.type === 'power' ? s.powers : s.talents;
      return removeLast(list, (x) => sameName(x.name, name)) ? s : missing(`the ${SLOT_LABEL[t.type]} ${name} was defined`);
    }
  }
}

const SLOT_LABEL: Record<SlotTrait['type'], string> = { skill: 'skill', 'special-ability': 'special ability', power: 'power', talent: 'talent' };

export function slotTraitName(t: SlotTrait): string {
  return t.type === 'skill' ? t.skill.name : t.type === 'special-ability' ? t.ability.name : t.type === 'power' ? t.power.name : t.talent.name;
}

/** A short description of a purchase, for history listings and messages. */
export function describePurchase(p: Purchase): string {
  switch (p.kind) {
    case 'attribute':
      return `+1 ${p.attribute}`;
    case 'companion-attribute':
      return `+1 ${p.attribute} for ${p.companion}`;
    case 'skill':
      return `unlock skill ${p.skill.name}`;
    case 'prowess-pool':
      return '+3 Prowess Pool dice';
    case 'assign-dice':
      return `assign ${p.dice} Prowess Pool ${p.dice === 1 ? 'die' : 'dice'} to ${p.skill}`;
    case 'special-ability':
      return `special ability ${p.ability.name}${p.companion ? ` (companion ${p.companion.name})` : ''}`;
    case 'special-ability-upgrade':
      return `upgrade ${p.ability}`;
    case 'quality':
      return `make ${p.ability} a Quality${p.exceptionalGear ? ` unlocking ${p.exceptionalGear}` : ''}`;
    case 'companion-promotion':
      return `promote companion ${p.companion}`;
    case 'power':
      return `power ${p.power.name}`;
    case 'power-upgrade':
      return `upgrade ${p.power} (${p.improve === 'duration' ? `duration ${p.duration ?? '?'}` : p.improve})`;
    case 'talent':
      return `talent ${p.talent.name}`;
    case 'talent-upgrade':
      return `upgrade ${p.talent} (${p.improve})`;
    case 'hit':
      return '+1 hit before Injured';
    case 'priorities': {
      const q = p.priorities;
      return `change the order of importance to First ${q.first.join(' and ')}, Second ${q.second.join(' and ')}, Third ${q.third}, Handicap ${q.handicap}`;
    }
    case 'unspent-slot':
      return `define the ${SLOT_LABEL[p.trait.type]} ${slotTraitName(p.trait)} in an unspent creation slot`;
  }
}
