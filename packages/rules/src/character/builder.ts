import { effectUpgrades, type AbilityEffect } from '../effects';
import { checkCreation, powerUpgrades } from './checks';
import {
  ATTRIBUTE_LABELS,
  PRIORITY_LABELS,
  DEFENSE_SKILLS,
  STARTING_SKILL_DICE,
  abilityBaseValue,
  attributeCaps,
  attributesWithPriority,
  isDefenseSkill,
  maxSkillDice,
  potentialFromSum,
  attributeSum,
  sameName,
  talentValue,
  type CharacterOptions,
} from './derive';
import type { Violation } from './rules';
import {
  ATTRIBUTES,
  CharacterSheetSchema,
  PRIORITIES,
  SHEET_VERSION,
  type AttributeName,
  type Attributes,
  type CharacterSheet,
  type Gear,
  type Priorities,
  type Role,
  type Tier,
} from './schema';

/**
 * The character builder behind `personae sheet new`: it follows the six creation steps of
 * personae-core-2011.txt "The Character Creation Process" and always produces a legal sheet,
 * trimming requests that go beyond what the rules allow and saying what it trimmed.
 */

export interface BuilderSkill {
  name: string;
  attribute?: AttributeName;
  dice?: number;
  /** A weapon skill: the weapon's name (an ordinary weapon is added to the gear if missing). */
  weapon?: string;
  shield?: string;
}
export interface BuilderTalent {
  name: string;
  kind: 'language' | 'expertise' | 'resource';
  native?: boolean;
}
export interface BuilderAbility {
  name: string;
  description?: string;
  effect?: AbilityEffect;
  conditional?: string[];
  culture?: boolean;
  quality?: boolean;
  exceptionalGear?: string;
  upgrades?: number;
}
export interface BuilderPower {
  name: string;
  description?: string;
  skill?: string;
  duration?: 'instant' | 'maintain' | 'independent' | 'special';
  targets?: number;
  hits?: number;
  upgrades?: number;
  gear?: string;
}

export interface BuilderInput {
  name: string;
  concept: string;
  player?: string;
  role?: Role;
  tier?: Tier;
  /** Step 1. Defaults to the table option creationPoints (companions: 10). */
  creationPoints?: number;
  /** Step 2. */
  priorities: Priorities;
  /** Step 3. Attributes left out are filled in, highest priority first. */
  attributes?: Partial<Attributes>;
  /** Step 5. */
  skills?: BuilderSkill[];
  talents?: BuilderTalent[];
  specialAbilities?: BuilderAbility[];
  powers?: BuilderPower[];
  /** Step 6. */
  gear?: Gear[];
}

export type BuildResult =
  | { ok: true; sheet: CharacterSheet; adjustments: string[] }
  | { ok: false; errors: { path: string; message: string }[] };

const label = (a: AttributeName) => ATTRIBUTE_LABELS[a];

/** Ordered from First to Handicap. */
function byPriority(priorities: Priorities): { attribute: AttributeName; priority: (typeof PRIORITIES)[number] }[] {
  return PRIORITIES.flatMap((p) => attributesWithPriority(priorities, p).map((attribute) => ({ attribute, priority: p })));
}

export function prioritiesValid(priorities: Priorities): boolean {
  const named = [...priorities.first, ...priorities.second, priorities.third, priorities.handicap];
  return ATTRIBUTES.every((a) => named.filter((n) => n === a).length === 1);
}

/**
 * Step 3: attribute values within the priority caps, the order of importance and the creation
 * points. Requested values are kept where they fit; the rest of the points go to unrequested
 * attributes, highest priority first.
 */
export function allocateAttributes(creationPoints: number, priorities: Priorities, requested: Partial<Attributes> = {}, adjustments: string[] = []): Attributes {
  const caps = attributeCaps(creationPoints);
  const order = byPriority(priorities);
  const values = Object.fromEntries(ATTRIBUTES.map((a) => [a, 0])) as Attributes;
  const ceiling = (i: number) => {
    const { priority } = order[i]!;
    const higher = order.slice(0, i).filter((o) => o.priority !== priority);
    return Math.min(caps[priority], ...higher.map((o) => values[o.attribute]));
  };
  order.forEach(({ attribute, priority }, i) => {
    const want = requested[attribute];
    if (want === undefined) return;
    const whole = Math.max(0, Math.floor(Number.isFinite(want) ? want : 0));
    const top = ceiling(i);
    if (whole > top) {
      adjustments.push(`${label(attribute)} lowered from ${want} to ${top}: the most a ${PRIORITY_LABELS[priority]}-priority attribute can have here.`);
    }
    values[attribute] = Math.min(whole, top);
  });
  // Over budget: take points back from the lowest priority first, which keeps the order intact.
  let over = attributeSum(values) - creationPoints;
  for (let i = order.length - 1; i >= 0 && over > 0; i--) {
    const a = order[i]!.attribute;
    const cut = Math.min(values[a], over);
    if (cut > 0) {
      values[a] -= cut;
      over -= cut;
      adjustments.push(`${label(a)} lowered by ${cut} to stay within ${creationPoints} creation points.`);
    }
  }
  let left = creationPoints - attributeSum(values);
  order.forEach(({ attribute }, i) => {
    if (requested[attribute] !== undefined || left <= 0) return;
    const give = Math.min(left, ceiling(i));
    values[attribute] = give;
    left -= give;
  });
  return values;
}

function defaultWeapon(name: string, ranged: boolean): Gear {
  return { type: 'weapon', name, size: 'one-handed', range: ranged ? 'ranged' : 'melee', group: 'unspecified' };
}

/** Build a legal sheet from the answers to the six creation steps. */
export function buildCharacter(input: BuilderInput, options: CharacterOptions): BuildResult {
  const errors: { path: string; message: string }[] = [];
  const adjustments: string[] = [];
  const role: Role = input.role ?? 'main';
  // Step 1. personae-core-2011.txt "Step 1" and "Companion Development".
  let creationPoints = input.creationPoints ?? (role === 'companion' ? 10 : options.creationPoints);
  if (role === 'companion' && creationPoints !== 10) {
    adjustments.push('A companion is built on 10 creation points.');
    creationPoints = 10;
  }
  if (!Number.isInteger(creationPoints) || creationPoints < 5) errors.push({ path: 'creationPoints', message: 'Creation points are a whole number of at least 5.' });
  // Step 2.
  if (!prioritiesValid(input.priorities)) {
    errors.push({ path: 'priorities', message: 'Give each attribute exactly one priority: two First, two Second, one Third, one Handicap.' });
  }
  if (!input.name.trim()) errors.push({ path: 'name', message: 'The character needs a name.' });
  if (!input.concept.trim()) errors.push({ path: 'concept', message: 'The character needs a concept: a few words that sum it up.' });
  if (errors.length) return { ok: false, errors };

  // Step 3.
  const attributes = allocateAttributes(creationPoints, input.priorities, input.attributes, adjustments);
  if (attributeSum(attributes) < 5) {
    return { ok: false, errors: [{ path: 'attributes', message: 'The attributes add up to less than 5; Potential would fall below 1.' }] };
  }
  // Step 4: the maxima are the attributes themselves.
  const potential = potentialFromSum(attributeSum(attributes), options);
  const maxDice = maxSkillDice(potential);

  // Step 5.
  const gear: Gear[] = structuredClone(input.gear ?? []);
  const hasGear = (name: string, type?: Gear['type']) => gear.some((g) => sameName(g.name, name) && (!type || g.type === type));
  const skills: CharacterSheet['skills'] = [];
  let unlocked = 0;
  let poolLeft = 3 * attributes.prowess;
  for (const s of input.skills ?? []) {
    if (!s.name.trim() || skills.some((x) => sameName(x.name, s.name))) continue;
    const defense = isDefenseSkill(s.name);
    if (!defense && unlocked >= attributes.competence) {
      adjustments.push(`${s.name} left out: Competence ${attributes.competence} allows ${attributes.competence} unlocked skills.`);
      continue;
    }
    const want = Math.max(STARTING_SKILL_DICE, Math.floor(s.dice ?? STARTING_SKILL_DICE));
    const dice = Math.min(want, maxDice, STARTING_SKILL_DICE + poolLeft);
    if (dice < want) adjustments.push(`${s.name} set to ${dice} dice (at most ${maxDice}, and the Prowess Pool has ${poolLeft} dice left).`);
    poolLeft -= dice - STARTING_SKILL_DICE;
    const attribute = s.attribute ?? DEFENSE_SKILLS.find((d) => sameName(d.name, s.name))?.attribute ?? 'competence';
    const skill: CharacterSheet['skills'][number] = { name: s.name.trim(), attribute, dice };
    // Step 6 ("Determine Starting Gear"): one weapon per weapon skill, a shield for a shield skill.
    if (s.weapon) {
      skill.weapon = s.weapon;
      if (!hasGear(s.weapon, 'weapon')) gear.push(defaultWeapon(s.weapon, attribute === 'cunning'));
    }
    if (s.shield) {
      skill.shield = s.shield;
      if (!hasGear(s.shield, 'shield')) gear.push({ type: 'shield', name: s.shield, weight: 'light' });
    }
    skills.push(skill);
    if (!defense) unlocked += 1;
  }

  const talents: CharacterSheet['talents'] = [];
  let knowledgeLeft = attributes.knowledge;
  let nativeTaken = false;
  for (const t of input.talents ?? []) {
    if (!t.name.trim() || talents.some((x) => sameName(x.name, t.name))) continue;
    const native = t.kind === 'language' && !!t.native && !nativeTaken;
    const talent = { name: t.name.trim(), kind: t.kind, native, uses: 1, dice: 1, resourceCap: 1 };
    const cost = native ? 0 : talentValue(talent);
    if (cost > knowledgeLeft) {
      adjustments.push(`${t.name} left out: Knowledge ${attributes.knowledge} allows ${attributes.knowledge} talents.`);
      continue;
    }
    knowledgeLeft -= cost;
    if (native) nativeTaken = true;
    talents.push(talent);
  }

  const powers: CharacterSheet['powers'] = [];
  let powerLeft = attributes.power;
  for (const p of input.powers ?? []) {
    if (!p.name.trim() || powers.some((x) => sameName(x.name, p.name))) continue;
    const hits = Math.max(0, Math.floor(p.hits ?? 0));
    // personae-core-2011.txt "Duration / Duration Identifiers": supernatural attacks are always Instant.
    const duration = hits > 0 ? 'instant' : (p.duration ?? 'instant');
    if (duration !== (p.duration ?? 'instant')) adjustments.push(`${p.name} inflicts hits, so it lasts Instant, not ${p.duration}.`);
    const power = {
      name: p.name.trim(),
      ...(p.description ? { description: p.description } : {}),
      ...(p.skill ? { skill: p.skill } : {}),
      duration,
      targets: Math.max(1, Math.floor(p.targets ?? 1)),
      hits,
      upgrades: 0,
      ...(p.gear ? { gear: p.gear } : {}),
    };
    power.upgrades = Math.max(Math.floor(p.upgrades ?? 0), powerUpgrades(power));
    if (1 + power.upgrades > powerLeft) {
      adjustments.push(`${p.name} left out: it needs ${1 + power.upgrades} of Power's points and ${powerLeft} are left.`);
      continue;
    }
    powerLeft -= 1 + power.upgrades;
    if (power.gear && !hasGear(power.gear)) gear.push({ type: 'item', name: power.gear, exceptional: 'supernatural' });
    powers.push(power);
  }

  const abilities: CharacterSheet['specialAbilities'] = [];
  let cunningLeft = attributes.cunning;
  let cultureTaken = false;
  for (const a of input.specialAbilities ?? []) {
    if (!a.name.trim() || abilities.some((x) => sameName(x.name, a.name))) continue;
    const effect = a.effect ?? { type: 'described' as const };
    const quality = !!a.quality || a.exceptionalGear !== undefined;
    if (a.exceptionalGear !== undefined && !a.quality) adjustments.push(`${a.name} made a Quality: Exceptional Gear is always a Quality.`);
    const ability: CharacterSheet['specialAbilities'][number] = {
      name: a.name.trim(),
      ...(a.description ? { description: a.description } : {}),
      conditional: [...(a.conditional ?? [])],
      culture: !!a.culture && !cultureTaken,
      quality,
      ...(a.exceptionalGear ? { exceptionalGear: a.exceptionalGear } : {}),
      upgrades: 0,
      effect,
    };
    ability.upgrades = Math.max(Math.floor(a.upgrades ?? 0), effectUpgrades(effect, options));
    const base = abilityBaseValue(ability) - (ability.culture ? 1 : 0);
    const paid = Math.max(0, ability.upgrades - ability.conditional.length) * (quality ? options.qualityUpgradeCost : 1);
    const fromCunning = Math.min(Math.max(0, cunningLeft - base), paid);
    const fromPower = paid - fromCunning;
    if (base > cunningLeft || fromPower > powerLeft) {
      adjustments.push(`${a.name} left out: Cunning ${attributes.cunning} (and Power's unused points for upgrades) cannot pay for it.`);
      continue;
    }
    cunningLeft -= base + fromCunning;
    powerLeft -= fromPower;
    if (ability.culture) cultureTaken = true;
    if (ability.exceptionalGear && !hasGear(ability.exceptionalGear)) gear.push({ type: 'item', name: ability.exceptionalGear, exceptional: 'craft' });
    abilities.push(ability);
  }

  const tier = role === 'main' ? undefined : input.tier ?? (role === 'companion' ? 'minion' : 'major');
  const raw = {
    version: SHEET_VERSION,
    name: input.name.trim(),
    concept: input.concept.trim(),
    ...(input.player ? { player: input.player } : {}),
    role,
    ...(tier ? { tier } : {}),
    creationPoints,
    attributes,
    priorities: structuredClone(input.priorities),
    skills,
    talents,
    specialAbilities: abilities,
    powers,
    gear,
  };
  const parsed = CharacterSheetSchema.safeParse(raw);
  if (!parsed.success) {
    return { ok: false, errors: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) };
  }
  const report = checkCreation(parsed.data, options);
  if (!report.valid) return { ok: false, errors: report.errors.map((e: Violation) => ({ path: e.path, message: `${e.message} [${e.rule}]` })) };
  return { ok: true, sheet: parsed.data, adjustments };
}
