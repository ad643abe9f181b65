import { describeEffect, effectUpgrades } from '../effects';
import {
  ATTRIBUTE_LABELS,
  PRIORITY_LABELS,
  STARTING_SKILL_DICE,
  assignedProwessDice,
  attributeCaps,
  attributeSum,
  attributesWithPriority,
  deriveCharacter,
  developmentPoints,
  effectiveSpends,
  freeCultureIndex,
  isDefenseSkill,
  DEFENSE_SKILLS,
  maxSkillDice,
  potentialFromSum,
  priorityOf,
  prowessPool,
  sameName,
  traitUsage,
  undoneIds,
  type CharacterOptions,
  type DerivedCharacter,
} from './derive';
import { applyPurchase, companionAbility, describePurchase, invertPurchase, purchaseCategory, purchaseCost } from './purchases';
import { violation, type Note, type Violation } from './rules';
import { ATTRIBUTES, PRIORITIES, TIERS, type AnySheet, type CharacterSheet, type CompanionSheet, type Power, type SpecialAbility } from './schema';

export interface CheckReport {
  /** True when no rule is broken. */
  readonly valid: boolean;
  /** Every broken rule, each with where, which rule and why. */
  readonly errors: readonly Violation[];
  /** Information that is not an error. */
  readonly notes: readonly Note[];
  readonly derived: DerivedCharacter;
}

const label = (a: string) => ATTRIBUTE_LABELS[a as keyof typeof ATTRIBUTE_LABELS] ?? a;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

class Collector {
  readonly errors: Violation[] = [];
  readonly notes: Note[] = [];
  private readonly seen = new Set<string>();
  constructor(private readonly prefix: string) {}
  error(rule: Violation['rule'], path: string, message: string): void {
    const full = this.prefix + path;
    const key = `${rule} ${full}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.errors.push(violation(rule, full, message));
  }
  note(message: string, path?: string): void {
    this.notes.push(path === undefined ? { message } : { path: this.prefix + path, message });
  }
}

// ---------------------------------------------------------------------------------------------
// Attributes and the order of importance.

/** personae-core-2011.txt "Step 1: Establish Starting Potential". */
function checkCreationPoints(sheet: AnySheet, options: CharacterOptions, c: Collector, embedded: boolean): void {
  const cp = sheet.creationPoints;
  if (!Number.isInteger(cp) || cp < 5) {
    c.error('creation-points', 'creationPoints', `Creation points are ${cp}; a character needs a whole number of at least 5 (a starting Potential of 1).`);
    return;
  }
  // personae-core-2011.txt "Companion Development": companions are built on ten creation points.
  if (sheet.role === 'companion' && cp !== 10) {
    c.error('companion-creation-points', 'creationPoints', `A companion is built on 10 creation points, but ${sheet.name} has ${cp}.`);
  }
  if (cp % 5 !== 0) c.note(`${cp} creation points is not a multiple of five; that is allowed, only less tidy.`, 'creationPoints');
  if (sheet.role === 'main' && !embedded && cp !== options.creationPoints) {
    c.note(`This sheet uses ${cp} creation points; the table option creationPoints is ${options.creationPoints}.`, 'creationPoints');
  }
}

/** personae-core-2011.txt "The Order of Importance": two First, two Second, one Third, one Handicap. */
function checkPrioritiesNamed(sheet: AnySheet, c: Collector): boolean {
  const named = [...sheet.priorities.first, ...sheet.priorities.second, sheet.priorities.third, sheet.priorities.handicap];
  const twice = ATTRIBUTES.filter((a) => named.filter((n) => n === a).length > 1);
  const missing = ATTRIBUTES.filter((a) => !named.includes(a));
  if (twice.length === 0 && missing.length === 0) return true;
  const parts: string[] = [];
  if (twice.length) parts.push(`${twice.map(label).join(' and ')} ${twice.length === 1 ? 'is' : 'are'} named more than once`);
  if (missing.length) parts.push(`${missing.map(label).join(' and ')} ${missing.length === 1 ? 'has' : 'have'} no priority`);
  c.error('priorities-each-attribute-once', 'priorities', `In the order of importance ${parts.join(', and ')}; each attribute has exactly one priority.`);
  return false;
}

/** personae-core-2011.txt "Attributes": whole numbers, never less than zero. */
function checkWholeNumbers(sheet: AnySheet, c: Collector): void {
  for (const a of ATTRIBUTES) {
    const v = sheet.attributes[a];
    if (!Number.isInteger(v) || v < 0) {
      c.error('attributes-whole-numbers', `attributes.${a}`, `${label(a)} is ${v}; attributes are whole numbers, zero or more.`);
    }
  }
}

/** personae-core-2011.txt "Potential": the attribute sum is at least five. */
function checkSumMinimum(sheet: AnySheet, c: Collector): void {
  const sum = attributeSum(sheet.attributes);
  if (sum < 5) {
    c.error('attribute-sum-minimum', 'attributes', `The attributes add up to ${sum}; they must add up to at least 5, or Potential would fall below 1.`);
  }
}

/** personae-core-2011.txt "Step 3: Allocate Attribute Points" (the table of priorities). */
function checkPriorityOrder(sheet: AnySheet, c: Collector): void {
  for (let i = 1; i < PRIORITIES.length; i++) {
    const lower = PRIORITIES[i]!;
    const higher = PRIORITIES[i - 1]!;
    for (const a of attributesWithPriority(sheet.priorities, lower)) {
      for (const b of attributesWithPriority(sheet.priorities, higher)) {
        if (sheet.attributes[a] > sheet.attributes[b]) {
          c.error(
            'priority-order',
            `attributes.${a}`,
            `${label(a)} (${PRIORITY_LABELS[lower]} priority) is ${sheet.attributes[a]}, above ${label(b)} (${PRIORITY_LABELS[higher]} priority) at ${sheet.attributes[b]}; a ${PRIORITY_LABELS[lower]}-priority attribute can never be higher than a ${PRIORITY_LABELS[higher]}.`,
          );
        }
      }
    }
  }
}

/** personae-core-2011.txt "Step 3: Allocate Attribute Points": the 40/30/20/10 percent caps. */
function checkCaps(created: AnySheet, c: Collector): void {
  const caps = attributeCaps(created.creationPoints);
  const of = priorityOf(created.priorities);
  for (const a of ATTRIBUTES) {
    const p = of[a];
    if (!p) continue;
    const v = created.attributes[a];
    if (v > caps[p]) {
      c.error(
        'priority-caps',
        `attributes.${a}`,
        `${label(a)} is ${v} but a ${PRIORITY_LABELS[p]}-priority attribute can be at most ${caps[p]} with ${created.creationPoints} creation points.`,
      );
    }
  }
}

/** personae-core-2011.txt "Creation Points" and "Step 3": attributes are bought with creation points. */
function checkSumWithinPoints(created: AnySheet, c: Collector): void {
  const sum = attributeSum(created.attributes);
  if (sum > created.creationPoints) {
    c.error(
      'attribute-sum-within-creation-points',
      'attributes',
      `The attributes add up to ${sum} at creation, but the character has only ${created.creationPoints} creation points.`,
    );
  } else if (sum < created.creationPoints) {
    c.note(`${plural(created.creationPoints - sum, 'creation point')} left unspent.`, 'attributes');
  }
}

// ---------------------------------------------------------------------------------------------
// Traits.

function checkUniqueNames(sheet: AnySheet, c: Collector): void {
  const lists: [string, readonly { name: string }[], string][] = [
    ['skills', sheet.skills, 'skills'],
    ['talents', sheet.talents, 'talents'],
    ['specialAbilities', sheet.specialAbilities, 'special abilities'],
    ['powers', sheet.powers, 'powers'],
    ['gear', sheet.gear, 'gear items'],
    ['companions', 'companions' in sheet ? sheet.companions : [], 'companions'],
  ];
  for (const [key, list, words] of lists) {
    list.forEach((item, i) => {
      if (list.findIndex((other) => sameName(other.name, item.name)) < i) {
        c.error('trait-names-unique', `${key}[${i}].name`, `Two ${words} are called "${item.name}"; give each its own name.`);
      }
    });
  }
}

/** personae-core-2011.txt "Skills" (starting rating two) and "Prowess Pool" (at most Potential + 2). */
function checkSkillRatings(sheet: AnySheet, options: CharacterOptions, c: Collector, when: string): void {
  const potential = potentialFromSum(attributeSum(sheet.attributes), options);
  const max = maxSkillDice(potential);
  sheet.skills.forEach((s, i) => {
    if (!Number.isInteger(s.dice) || s.dice < STARTING_SKILL_DICE) {
      c.error('skill-starting-rating', `skills[${i}].dice`, `${s.name} has ${plural(s.dice, 'die', 'dice')}; an unlocked skill is rated in whole dice, starting at 2.`);
    } else if (s.dice > max) {
      c.error(
        'skill-dice-within-maximum',
        `skills[${i}].dice`,
        `${s.name} has ${s.dice} dice but Potential ${potential}${when} allows at most ${max} (Potential + 2).`,
      );
    }
  });
}

/** personae-core-2011.txt "Prowess Pool". */
function checkProwessPool(sheet: AnySheet, c: Collector, when: string): void {
  const pool = prowessPool(sheet);
  const assigned = assignedProwessDice(sheet);
  if (assigned > pool) {
    c.error(
      'prowess-dice-within-pool',
      'skills',
      `Skills carry ${plural(assigned, 'die', 'dice')} above their starting 2, but the Prowess Pool${when} holds only ${pool}.`,
    );
  }
}

/** personae-core-2011.txt "At Character Creation" (the table of trait maxima) and "Step 4". */
function checkTraitMaxima(created: AnySheet, options: CharacterOptions, c: Collector): void {
  // An attribute that is not a whole number of zero or more is reported by its own rule; here it
  // allows no traits beyond its whole part.
  const a = Object.fromEntries(ATTRIBUTES.map((k) => [k, Math.max(0, Math.floor(created.attributes[k]))])) as typeof created.attributes;
  const used = traitUsage(created, options);
  // "Competence": unlocked skills; "Defense": Block, Dodge and Resist are free.
  if (used.skills > a.competence) {
    c.error(
      'skills-within-competence',
      'skills',
      `${plural(used.skills, 'skill is', 'skills are')} unlocked but Competence ${a.competence} allows at most ${a.competence} at creation (Block, Dodge and Resist are free).`,
    );
  } else if (used.skills < a.competence) {
    c.note(`${used.skills} of ${a.competence} skills unlocked; the others may be unlocked later.`, 'skills');
  }
  // "Cunning" and "Special Ability Identifiers": a Quality counts double, the culture ability is free.
  if (used.specialAbilities > a.cunning) {
    c.error(
      'special-abilities-within-cunning',
      'specialAbilities',
      `Special abilities count ${used.specialAbilities} (a Quality counts as two, the culture ability is free) but Cunning ${a.cunning} allows ${a.cunning} at creation.`,
    );
  }
  // "Using Power to Upgrade Special Abilities": upgrades beyond Cunning use Power's points.
  const powerUsed = used.powers + used.upgradesFromPower;
  if (powerUsed > a.power) {
    const fromUpgrades = used.upgradesFromPower
      ? `, and ${plural(used.upgradesFromPower, 'special ability upgrade')} beyond Cunning must be paid with Power's points`
      : '';
    c.error(
      'powers-within-power',
      'powers',
      `Powers and their upgrades count ${used.powers}${fromUpgrades}: ${powerUsed} in all, but Power ${a.power} allows ${a.power} at creation.`,
    );
  }
  const saTotal = used.specialAbilities + used.specialAbilityUpgrades;
  if (used.specialAbilities <= a.cunning && saTotal < a.cunning) {
    c.note(`Special abilities use ${saTotal} of ${a.cunning} (Cunning); the rest may be chosen later.`, 'specialAbilities');
  }
  if (powerUsed < a.power) {
    c.note(
      `Powers use ${powerUsed} of ${a.power} (Power); unused points may become powers, special ability upgrades or supernatural gear later.`,
      'powers',
    );
  }
  // "Talents" and "Languages": the native language is free.
  if (used.talents > a.knowledge) {
    c.error(
      'talents-within-knowledge',
      'talents',
      `Talents count ${used.talents} (each upgrade counts one; the native language is free) but Knowledge ${a.knowledge} allows ${a.knowledge} at creation.`,
    );
  } else if (used.talents < a.knowledge) {
    c.note(`${used.talents} of ${a.knowledge} talents chosen; the others may be chosen later.`, 'talents');
  }
}

/** Upgrades a power's targets, hits and duration take under "The Framework of Advancement". */
export function powerUpgrades(power: Power): number {
  return power.targets - 1 + Math.max(0, power.hits - 1) + (power.duration === 'independent' || power.duration === 'special' ? 1 : 0);
}

function checkAbilities(sheet: AnySheet, options: CharacterOptions, c: Collector): void {
  const gearNames = sheet.gear.map((g) => g.name);
  sheet.specialAbilities.forEach((sa: SpecialAbility, i) => {
    // "Special Ability Identifiers": Exceptional Gear must also be a Quality.
    if (sa.exceptionalGear !== undefined && !sa.quality) {
      c.error('exceptional-gear-is-quality', `specialAbilities[${i}].quality`, `${sa.name} is Exceptional Gear but not a Quality; an Exceptional Gear ability is always also a Quality.`);
    }
    if (sa.exceptionalGear !== undefined && !gearNames.some((g) => sameName(g, sa.exceptionalGear!))) {
      c.error('exceptional-gear-link', `specialAbilities[${i}].exceptionalGear`, `${sa.name} unlocks "${sa.exceptionalGear}", but the gear has no item of that name.`);
    }
    // "The Framework of Advancement": a benefit of one, more only through upgrades.
    const needed = effectUpgrades(sa.effect, options);
    if (needed > sa.upgrades) {
      c.error(
        'special-ability-framework',
        `specialAbilities[${i}].upgrades`,
        `${sa.name}'s effect (${describeEffect(sa.effect)}) takes ${plural(needed, 'upgrade')}, but it has ${sa.upgrades}.`,
      );
    }
  });
  if (sheet.role === 'main' && freeCultureIndex(sheet.specialAbilities) < 0) {
    c.note('No special ability is marked as the culture ability; every character may take one for free.', 'specialAbilities');
  }
  sheet.powers.forEach((p, i) => {
    if (p.gear !== undefined && !gearNames.some((g) => sameName(g, p.gear!))) {
      c.error('exceptional-gear-link', `powers[${i}].gear`, `${p.name} represents the supernatural quality of "${p.gear}", but the gear has no item of that name.`);
    }
    // "Duration / Duration Identifiers": supernatural attacks are always Instant.
    if (p.hits > 0 && p.duration !== 'instant') {
      c.error('injuring-powers-instant', `powers[${i}].duration`, `${p.name} inflicts ${plural(p.hits, 'hit')}, so it is a supernatural attack and lasts Instant, not ${p.duration}.`);
    }
    const needed = powerUpgrades(p);
    if (needed > p.upgrades) {
      c.error(
        'power-framework',
        `powers[${i}].upgrades`,
        `${p.name} affects ${plural(p.targets, 'target')}, inflicts ${plural(p.hits, 'hit')} and lasts ${p.duration}, which takes ${plural(needed, 'upgrade')}, but it has ${p.upgrades}.`,
      );
    }
  });
  // "Exceptional Gear": an item only helps once a special ability or power ties to it.
  sheet.gear.forEach((g, i) => {
    if (g.exceptional === undefined) return;
    const tied =
      sheet.specialAbilities.some((sa) => sa.exceptionalGear !== undefined && sameName(sa.exceptionalGear, g.name)) ||
      sheet.powers.some((p) => p.gear !== undefined && sameName(p.gear, g.name));
    if (!tied) c.note(`${g.name} is exceptional, but no special ability or power unlocks it, so it works like an ordinary item.`, `gear[${i}]`);
  });
}

/** personae-core-2011.txt "Step 6: Determine Starting Gear". */
function checkGear(sheet: AnySheet, c: Collector): void {
  sheet.skills.forEach((s, i) => {
    if (s.weapon !== undefined && !sheet.gear.some((g) => g.type === 'weapon' && sameName(g.name, s.weapon!))) {
      c.error('starting-gear', `skills[${i}].weapon`, `${s.name} is a weapon skill for "${s.weapon}", but the gear has no weapon of that name.`);
    }
    if (s.shield !== undefined && !sheet.gear.some((g) => g.type === 'shield' && sameName(g.name, s.shield!))) {
      c.error('starting-gear', `skills[${i}].shield`, `${s.name} is a shield skill for "${s.shield}", but the gear has no shield of that name.`);
    }
    if (isDefenseSkill(s.name)) {
      const d = DEFENSE_SKILLS.find((x) => sameName(x.name, s.name))!;
      if (d.attribute !== s.attribute) {
        c.note(`${s.name} adds ${label(s.attribute)} instead of its default ${label(d.attribute)}; agree this with the GM.`, `skills[${i}].attribute`);
      }
    }
  });
}

/** personae-core-2011.txt "Supporting Characters", "Companions". */
function checkRoleAndCompanions(sheet: AnySheet, options: CharacterOptions, c: Collector): void {
  if (sheet.role === 'main' && sheet.tier !== undefined) {
    c.error('supporting-character-tier', 'tier', `A main character has no tier; minion, minor and major describe supporting characters.`);
  }
  if ((sheet.role === 'ally' || sheet.role === 'adversary') && sheet.tier === undefined) {
    c.error('supporting-character-tier', 'tier', `An ${sheet.role} is a minion, a minor or a major ${sheet.role}; say which in "tier".`);
  }
  if (!('companions' in sheet)) return;
  const companions = sheet.companions;
  if (companions.length > options.companionsPerCharacter) {
    c.error(
      'companions-per-character',
      'companions',
      `${sheet.name} has ${plural(companions.length, 'companion')}; the table allows ${options.companionsPerCharacter} (option companionsPerCharacter).`,
    );
  }
  const potential = potentialFromSum(attributeSum(sheet.attributes), options);
  if (companions.length > 0 && potential < 4) {
    c.error('companion-prerequisites', 'companions', `Having a companion takes Potential 4 (attributes adding up to 20), but ${sheet.name} has Potential ${potential}.`);
  }
  companions.forEach((comp: CompanionSheet, i) => {
    const ability = companionAbility(sheet, comp.name);
    if (!ability) {
      c.error('companion-prerequisites', `companions[${i}]`, `No special ability of ${sheet.name} represents the companion ${comp.name}; a companion needs one.`);
    } else {
      const expected = TIERS[Math.min(ability.upgrades, TIERS.length - 1)]!;
      const actual = comp.tier ?? 'minion';
      if (actual !== expected) {
        c.error(
          'companion-tier',
          `companions[${i}].tier`,
          `${comp.name} is listed as ${actual}, but ${ability.name} has ${plural(ability.upgrades, 'upgrade')}, which makes it a ${expected} ally (minion, then minor, then major).`,
        );
      }
    }
    if (comp.role !== 'companion') {
      c.error('companion-tier', `companions[${i}].role`, `${comp.name} is held as a companion, so its role is "companion".`);
    }
  });
  sheet.specialAbilities.forEach((sa, i) => {
    if (sa.companion !== undefined && !companions.some((comp) => sameName(comp.name, sa.companion!))) {
      c.error('companion-prerequisites', `specialAbilities[${i}].companion`, `${sa.name} represents the companion ${sa.companion}, but no companion of that name is on the sheet.`);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Advancement history. personae-core-2011.txt "Advancement".

/**
 * Checks the history and recovers the sheet as it was created by taking back every spend in effect,
 * newest first. Returns null when the history cannot be replayed.
 */
function checkHistory(sheet: CharacterSheet, options: CharacterOptions, c: Collector): CharacterSheet | null {
  const history = sheet.history;
  const undone = undoneIds(history);
  const byId = new Map<number, (typeof history)[number]>();
  const live: number[] = []; // awards and spends in effect at each point, in order
  let lastId = 0;
  let wellFormed = true;
  history.forEach((e, i) => {
    const path = `history[${i}]`;
    if (e.id <= lastId) {
      c.error('history-well-formed', `${path}.id`, `History entry ${e.id} comes after entry ${lastId}; ids must increase.`);
      wellFormed = false;
    }
    lastId = Math.max(lastId, e.id);
    if (e.type === 'spend') {
      if (e.award === null) {
        if (e.cost > 0) {
          c.error('history-well-formed', `${path}.award`, `Spend ${e.id} (${describePurchase(e.purchase)}) costs ${e.cost} but names no award to draw on.`);
          wellFormed = false;
        }
      } else {
        const award = byId.get(e.award);
        if (!award || award.type !== 'award') {
          c.error('history-well-formed', `${path}.award`, `Spend ${e.id} draws on award ${e.award}, but no earlier award has that id.`);
          wellFormed = false;
        } else if (undone.has(award.id) && !undone.has(e.id)) {
          c.error('history-well-formed', `${path}.award`, `Spend ${e.id} draws on award ${e.award}, which was undone.`);
          wellFormed = false;
        }
      }
    }
    if (e.type === 'undo') {
      const target = byId.get(e.entry);
      if (!target || target.type === 'undo' || !live.includes(e.entry)) {
        c.error('history-well-formed', `${path}.entry`, `Undo ${e.id} names entry ${e.entry}, which is not an earlier award or spend still in effect.`);
        wellFormed = false;
      } else if (live[live.length - 1] !== e.entry) {
        c.error('undo-latest-first', `${path}.entry`, `Undo ${e.id} takes back entry ${e.entry} while the later entry ${live[live.length - 1]} is still in effect; undo newest first.`);
        wellFormed = false;
      } else {
        live.pop();
      }
    } else {
      live.push(e.id);
    }
    byId.set(e.id, e);
  });
  if (!wellFormed) return null;

  // Points and categories per award.
  const spends = effectiveSpends(history);
  const awardUse = new Map<number, { spent: number; categories: Set<string> }>();
  for (const s of spends) {
    if (s.award === null) continue;
    const use = awardUse.get(s.award) ?? { spent: 0, categories: new Set<string>() };
    use.spent += s.cost;
    const cat = purchaseCategory(s.purchase);
    if (cat !== 'none') use.categories.add(cat);
    awardUse.set(s.award, use);
  }
  for (const [id, use] of awardUse) {
    const i = history.findIndex((e) => e.id === id);
    const award = history[i] as Extract<(typeof history)[number], { type: 'award' }>;
    if (use.spent > award.points) {
      c.error('development-points-available', `history[${i}]`, `Award ${id} gave ${plural(award.points, 'point')} but ${use.spent} were spent from it.`);
    }
    if (use.categories.size > 1) {
      c.error('award-attributes-or-traits', `history[${i}]`, `Award ${id} was spent on both attributes and traits; one award goes to one or the other.`);
    }
  }

  // Take the spends back, newest first. Traits defined in unspent creation slots stay: they belong
  // to creation and count against its maxima ("Step 4: Determine Maximum Number of Traits").
  let state: CharacterSheet = sheet;
  for (let k = spends.length - 1; k >= 0; k--) {
    const entry = spends[k]!;
    if (entry.purchase.kind === 'unspent-slot') continue;
    const back = invertPurchase(state, entry);
    if (typeof back === 'string') {
      c.error('history-replays', `history[${history.indexOf(entry)}]`, `Spend ${entry.id} cannot be taken back: ${back}.`);
      return null;
    }
    state = back;
  }
  const created: CharacterSheet = { ...state, history: [] };

  // Replay them forward to confirm each recorded cost.
  let replay: CharacterSheet = created;
  for (const entry of spends) {
    if (entry.purchase.kind === 'unspent-slot') {
      if (entry.cost !== 0) {
        c.error('purchase-cost', `history[${history.indexOf(entry)}].cost`, `Spend ${entry.id} (${describePurchase(entry.purchase)}) is recorded at ${entry.cost} but costs 0.`);
      }
      replay = { ...replay, history: [...replay.history, entry] };
      continue;
    }
    const cost = purchaseCost(replay, entry.purchase, options);
    if (cost !== null && cost !== entry.cost) {
      c.error('purchase-cost', `history[${history.indexOf(entry)}].cost`, `Spend ${entry.id} (${describePurchase(entry.purchase)}) is recorded at ${entry.cost} but costs ${cost}.`);
    }
    const applied = applyPurchase(replay, entry.purchase);
    if (typeof applied === 'string') {
      c.error('history-replays', `history[${history.indexOf(entry)}]`, `Spend ${entry.id} cannot be replayed: ${applied}.`);
      return null;
    }
    replay = { ...applied.sheet, history: [...replay.history, entry] };
  }
  return created;
}

// ---------------------------------------------------------------------------------------------

function checkSheet(sheet: AnySheet, options: CharacterOptions, c: Collector, embedded: boolean, createdAs?: AnySheet): void {
  const hasHistory = 'history' in sheet;
  let created: AnySheet = createdAs ?? sheet;
  if (hasHistory && sheet.history.length > 0) {
    created = checkHistory(sheet, options, c) ?? sheet;
    const dp = developmentPoints(sheet);
    if (dp.unspent > 0) c.note(`${plural(dp.unspent, 'development point')} awarded but not yet spent.`, 'history');
  }
  checkCreationPoints(created, options, c, embedded);
  const prioritiesOk = checkPrioritiesNamed(sheet, c);
  checkWholeNumbers(sheet, c);
  checkSumMinimum(sheet, c);
  if (prioritiesOk) {
    checkPriorityOrder(sheet, c);
    checkPriorityOrder(created, c);
    checkCaps(created, c);
  }
  checkSumWithinPoints(created, c);
  checkUniqueNames(sheet, c);
  checkSkillRatings(sheet, options, c, '');
  checkSkillRatings(created, options, c, ' at creation');
  checkProwessPool(sheet, c, '');
  checkProwessPool(created, c, ' at creation (3 x Prowess)');
  checkTraitMaxima(created, options, c);
  checkAbilities(sheet, options, c);
  checkGear(sheet, c);
  checkRoleAndCompanions(sheet, options, c);
  const unassigned = prowessPool(sheet) - assignedProwessDice(sheet);
  if (unassigned > 0) c.note(`${plural(unassigned, 'Prowess Pool die', 'Prowess Pool dice')} not yet assigned to a skill.`, 'skills');
}

/** A companion as it was built: its owner's purchases of companion attributes taken back. */
function companionAsCreated(owner: CharacterSheet, companion: CompanionSheet): CompanionSheet {
  const attributes = { ...companion.attributes };
  for (const e of effectiveSpends(owner.history)) {
    if (e.purchase.kind === 'companion-attribute' && sameName(e.purchase.companion, companion.name)) attributes[e.purchase.attribute] -= 1;
  }
  return { ...companion, attributes };
}

/**
 * Checks a character against every creation rule and every rule that holds during play, and reports
 * every violation at once. Traits and attributes bought with development points are taken back
 * (using the history) before the creation maxima are checked.
 */
export function checkCreation(sheet: AnySheet, options: CharacterOptions): CheckReport {
  const c = new Collector('');
  checkSheet(sheet, options, c, false);
  const errors = [...c.errors];
  const notes = [...c.notes];
  if ('companions' in sheet) {
    sheet.companions.forEach((comp, i) => {
      const cc = new Collector(`companions[${i}].`);
      checkSheet(comp, options, cc, true, companionAsCreated(sheet, comp));
      errors.push(...cc.errors);
      notes.push(...cc.notes);
    });
  }
  return { valid: errors.length === 0, errors, notes, derived: deriveCharacter(sheet, options) };
}

/**
 * The sheet as it was created: every spend in effect taken back, newest first, except traits defined
 * in slots left unspent at creation, which belong to creation. Null when the history cannot be taken back.
 */
export function sheetAsCreated(sheet: CharacterSheet): CharacterSheet | null {
  let state: CharacterSheet = sheet;
  const spends = effectiveSpends(sheet.history);
  for (let k = spends.length - 1; k >= 0; k--) {
    const entry = spends[k]!;
    if (entry.purchase.kind === 'unspent-slot') continue;
    const back = invertPurchase(state, entry);
    if (typeof back === 'string') return null;
    state = back;
  }
  return { ...state, history: [] };
}

/** Trait slots of each kind a character may still fill from creation. */
export interface SlotsLeft {
  readonly skills: number;
  readonly specialAbilities: number;
  readonly powers: number;
  readonly talents: number;
}

/**
 * personae-core-2011.txt "Step 4: Determine Maximum Number of Traits": the creation maxima (Competence,
 * Cunning, Power and Knowledge as created) less the traits the sheet as created holds. Null when the
 * history cannot be taken back.
 */
export function unspentSlots(sheet: CharacterSheet, options: CharacterOptions): SlotsLeft | null {
  const created = sheetAsCreated(sheet);
  if (!created) return null;
  const whole = (n: number) => Math.max(0, Math.floor(n));
  const a = created.attributes;
  const used = traitUsage(created, options);
  return {
    skills: Math.max(0, whole(a.competence) - used.skills),
    specialAbilities: Math.max(0, whole(a.cunning) - used.specialAbilities - used.specialAbilityUpgrades),
    powers: Math.max(0, whole(a.power) - used.powers - used.upgradesFromPower),
    talents: Math.max(0, whole(a.knowledge) - used.talents),
  };
}
