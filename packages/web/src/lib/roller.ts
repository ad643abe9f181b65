import {
  ACTOR_POOL,
  DIFFICULTY_POOL,
  DEFENSE_SKILLS,
  RuleError,
  assistBenefit,
  combatantFromSheet,
  composeSide,
  poolSize,
  skillUse,
  challengeOdds,
  sameName,
  sumLabeled,
  unopposedOdds,
  type AttributeName,
  type ChallengeOdds,
  type CharacterSheet,
  type BuiltSide,
  type Labeled,
  describeEffect,
  weaponAttributeNote,
  type TableOptions,
} from './rules';

/**
 * The challenge roller's model: what the person chose for each side (a character's skill and
 * attribute, or a pool typed in), turned into the dice and labelled modifiers the table's `roll`
 * command takes, and into the exact odds shown before rolling.
 */

/** A character the roller can pick, as the table shows it. */
export interface RollerCharacter {
  id: string;
  name: string;
  sheet: CharacterSheet | null;
  /** Dice lost to the health status in effect, with its name ("Injured"). */
  penalty: { dice: number; status: string } | null;
}

export interface Modifier {
  value: number;
  source: string;
}

export interface SideInput {
  /** A character's id, or '' for a pool typed in. */
  character: string;
  /** Name of a pool typed in. */
  name: string;
  /** Skill name; '' for unskilled (one die). */
  skill: string;
  attribute: AttributeName;
  /** Dice of a pool typed in. */
  dice: number;
  /** Attribute value of a pool typed in. */
  bonus: number;
  modifiers: Modifier[];
  /** Names of the characters assisting (the actor only). */
  assistants: string[];
  /** The special ability used this challenge; '' for none. */
  ability: string;
  /** Physical dice, as typed ("7 5 2"). */
  given: string;
}

export type RollMode = 'opposed' | 'unopposed';

export interface RollerInput {
  actor: SideInput;
  mode: RollMode;
  reactor: SideInput;
  difficulty: number;
  gmGiven: string;
  hidden: boolean;
  purpose: string;
}

export function emptySide(name: string): SideInput {
  return { character: '', name, skill: '', attribute: 'competence', dice: 2, bonus: 0, modifiers: [], assistants: [], ability: '', given: '' };
}

export function emptyRoller(): RollerInput {
  return { actor: emptySide('Actor'), mode: 'opposed', reactor: emptySide('Reactor'), difficulty: 2, gmGiven: '', hidden: false, purpose: '' };
}

/** One side, ready to roll: the dice, every modifier with its source, and what could not be applied. */
export interface ResolvedSide {
  name: string;
  dice: number;
  /** Where the dice come from, in words: "Warhammer 5 dice, -1 die Injured". */
  diceParts: Labeled[];
  modifiers: Labeled[];
  modifier: number;
  potentialThreshold?: number;
  notes: string[];
  given: number[] | null;
  givenProblem: string | null;
}

export interface SkillChoice {
  name: string;
  dice: number;
  /** The attribute rolled with it: for a weapon skill, the one the table's option attackAttribute adds, as in an encounter. */
  attribute: AttributeName;
  defense: boolean;
  /** For a weapon skill, what an attack or parry with it adds and why. */
  attackNote?: string;
}

/** The skills a roll may use; with the table's options, a weapon skill takes the attribute an attack with it adds. */
export function skillsOf(sheet: CharacterSheet | null, options?: Pick<TableOptions, 'attackAttribute'>): SkillChoice[] {
  if (!sheet) return [];
  const listed = sheet.skills.map((s) => {
    const weapon = options && s.weapon ? sheet.gear.find((g) => g.type === 'weapon' && sameName(g.name, s.weapon!)) : undefined;
    const note = weapon && weapon.type === 'weapon' && options ? weaponAttributeNote(options, weapon, s.attribute) : undefined;
    return { name: s.name, dice: s.dice, attribute: note?.attribute ?? s.attribute, defense: DEFENSE_SKILLS.some((d) => sameName(d.name, s.name)), ...(note ? { attackNote: note.text } : {}) };
  });
  const missing = DEFENSE_SKILLS.filter((d) => !sheet.skills.some((s) => sameName(s.name, d.name))).map((d) => ({ name: d.name, dice: d.dice, attribute: d.attribute, defense: true }));
  return [...listed.filter((s) => !s.defense), ...listed.filter((s) => s.defense), ...missing];
}

/** Read typed dice: "7 5 2", "7,5,2". Returns null when nothing was typed. */
export function parseGiven(text: string, expected: number): { dice: number[] | null; problem: string | null } {
  const words = text.split(/[\s,;]+/).filter(Boolean);
  if (words.length === 0) return { dice: null, problem: null };
  const dice: number[] = [];
  for (const w of words) {
    const n = Number(w);
    if (!Number.isInteger(n) || n < 1 || n > 10) return { dice: null, problem: `"${w}" is not a d10 result (1 to 10).` };
    dice.push(n);
  }
  if (dice.length !== expected) return { dice, problem: `${dice.length} ${dice.length === 1 ? 'die was' : 'dice were'} entered; this pool rolls ${expected}.` };
  return { dice, problem: null };
}

/**
 * One side as the roller will roll it. A character's side is built by the rules' composeSide, the
 * function the encounter builds its sides with (skill, attribute, Qualities, the chosen special
 * ability, the injury penalty, circumstances); the assistants' benefit is the rules' assistBenefit.
 * A free roll takes dice and modifiers only, so effects that act after the roll are named in notes.
 */
export function resolveSide(input: SideInput, characters: readonly RollerCharacter[], options: TableOptions, role: 'actor' | 'reactor'): ResolvedSide {
  const notes: string[] = [];
  const circumstances: Labeled[] = [];
  for (const m of input.modifiers) {
    if (!Number.isFinite(m.value) || m.value === 0) continue;
    circumstances.push({ value: Math.trunc(m.value), source: m.source.trim() || 'circumstance' });
  }
  const assist = role === 'actor' && input.assistants.length > 0 ? assistance(input.assistants, options, notes) : { modifiers: [], bonusDice: [] };
  const c = characters.find((x) => x.id === input.character);
  const penalty: Labeled[] = c?.penalty && c.penalty.dice > 0 ? [{ value: c.penalty.dice, source: c.penalty.status }] : [];
  let name = input.name.trim() || (role === 'actor' ? 'Actor' : 'Reactor');
  let base: Labeled = { value: Math.max(0, Math.floor(input.dice)), source: 'pool' };
  let bonusDice: Labeled[] = [];
  let modifiers: Labeled[] = input.bonus ? [{ value: input.bonus, source: 'attribute' }] : [];
  let maxDice: number | undefined;
  let potentialThreshold: number | undefined;
  if (c) {
    name = c.name;
    if (c.sheet) {
      const built = characterSide(c.sheet, input, options, role, circumstances, notes);
      const skill = built.spec.pool;
      base = { value: skill.base, source: skill.baseSource };
      bonusDice = [...(skill.bonusDice ?? [])];
      modifiers = [...built.spec.modifiers];
      maxDice = skill.maxDice;
      potentialThreshold = built.spec.potentialThreshold;
    } else {
      // A hidden character: its sheet stays with the GM, so its pool is typed in like a free one.
      notes.push(`${c.name}'s sheet is kept by the GM: type in the dice and attribute the GM announces.`);
      modifiers.push(...circumstances);
    }
  } else modifiers.push(...circumstances);
  modifiers.push(...assist.modifiers);
  bonusDice.push(...assist.bonusDice);
  const pool = poolSize({ base: base.value, baseSource: base.source, bonusDice, penaltyDice: penalty, ...(maxDice !== undefined ? { maxDice } : {}) }, options);
  const diceParts: Labeled[] = [base, ...bonusDice, ...penalty.map((p) => ({ value: -p.value, source: p.source }))];
  const given = parseGiven(input.given, pool.dice);
  return {
    name,
    dice: pool.dice,
    diceParts,
    modifiers,
    modifier: sumLabeled(modifiers),
    ...(potentialThreshold !== undefined ? { potentialThreshold } : {}),
    notes,
    given: given.dice,
    givenProblem: given.problem,
  };
}

/** A character's side from its sheet, as the encounter builds it; a refused ability becomes a note and the roll goes on without it. */
function characterSide(sheet: CharacterSheet, input: SideInput, options: TableOptions, role: 'actor' | 'reactor', circumstances: Labeled[], notes: string[]): BuiltSide {
  const def = combatantFromSheet(sheet, options);
  const listed = skillsOf(sheet).find((s) => sameName(s.name, input.skill));
  // Not on the sheet: one die, named as the roller always named it.
  const skill = listed ? skillUse(def, listed.name, input.attribute) : { name: `unskilled${input.skill ? ` (${input.skill})` : ''}`, dice: 1, attribute: input.attribute, unskilled: false };
  const req = { skill, attribute: input.attribute, role: role === 'actor' ? ('issue' as const) : ('answer' as const), kind: 'other' as const, modifiers: circumstances };
  const basis = { def, options, penaltyDice: [], granted: [] };
  const ability = input.ability ? sheet.specialAbilities.find((a) => sameName(a.name, input.ability)) : undefined;
  let built: BuiltSide;
  try {
    built = composeSide(basis, { ...req, abilities: ability ? [ability.name] : [] }, 'ability');
  } catch (e) {
    if (!(e instanceof RuleError)) throw e;
    notes.push(`${e.message}.`);
    built = composeSide(basis, req, 'ability');
  }
  if (ability && built.chosen.length > 0) {
    const kind = ability.effect.type;
    if (kind === 'described') notes.push(`${ability.name} has no rolled effect; agree its benefit at the table.`);
    else if (kind !== 'bonus-result' && kind !== 'bonus-dice') notes.push(`${ability.name} (${describeEffect(ability.effect)}) is applied by the encounter tracker's actions, not by a free roll.`);
  }
  return built;
}

/** What the assistants give, by the table's option assist; too many assistants is said, and the roll shows all of them. */
function assistance(names: readonly string[], options: TableOptions, notes: string[]): { modifiers: Labeled[]; bonusDice: Labeled[] } {
  if (options.maxAssistants !== null && names.length > options.maxAssistants) {
    notes.push(`The table allows ${options.maxAssistants} assistant${options.maxAssistants === 1 ? '' : 's'} (option maxAssistants).`);
  }
  if (options.assist === 'srd-v4') notes.push('Under the srd-v4 assist rule each assistant steers the result one grade: apply it when reading the result.');
  const benefit = assistBenefit(names.map((name) => ({ name })), { ...options, maxAssistants: null });
  return { modifiers: benefit.modifiers, bonusDice: benefit.bonusDice };
}

export interface OddsPoint {
  label: string;
  dice: number;
  success: number;
}

export interface RollerOdds {
  odds: ChallengeOdds;
  /** The actor's chance with one die fewer, as declared, and one die more. */
  actorSweep: OddsPoint[];
  /** The same for the reactor (opposed challenges only). */
  reactorSweep: OddsPoint[];
}

function side(r: ResolvedSide) {
  return { dice: r.dice, modifier: r.modifier, ...(r.potentialThreshold !== undefined ? { potentialThreshold: r.potentialThreshold } : {}) };
}

/** The exact odds of one challenge: against the reactor, or without one against the difficulty. */
export function declaredOdds(actor: ResolvedSide, reactor: ResolvedSide | null, difficulty: number, options: TableOptions): ChallengeOdds {
  return reactor ? challengeOdds({ actor: side(actor), reactor: side(reactor) }, options) : unopposedOdds({ player: side(actor), difficulty }, options);
}

/** The exact odds of the declared challenge, and how one die more or fewer on either side moves them. */
export function rollerOdds(actor: ResolvedSide, reactor: ResolvedSide | null, difficulty: number, options: TableOptions): RollerOdds {
  const opposed = (a: number, r: number) => challengeOdds({ actor: { ...side(actor), dice: a }, reactor: { ...side(reactor!), dice: r } }, options);
  const at = (a: number, r: number) => declaredOdds({ ...actor, dice: a }, reactor && { ...reactor, dice: r }, difficulty, options);
  const odds = at(actor.dice, reactor?.dice ?? 0);
  const min = options.minimumPool;
  const sweep = (n: number, f: (d: number) => number): OddsPoint[] =>
    [n - 1, n, n + 1]
      .filter((d) => d >= min && d <= 30)
      .map((d) => ({ label: d === n ? 'as declared' : d < n ? 'one die fewer' : 'one die more', dice: d, success: d === n ? odds.success : f(d) }));
  const actorSweep = sweep(actor.dice, (d) => at(d, reactor?.dice ?? 0).success);
  const reactorSweep = reactor ? sweep(reactor.dice, (d) => opposed(actor.dice, d).success) : [];
  return { odds, actorSweep, reactorSweep };
}

/**
 * The table's `roll` command for the declared challenge, and the physical dice typed in, by the named
 * pool each fills: "actor", "reactor", or "difficulty" for the GM's dice against an unopposed roll.
 * Pools left out are rolled by the table.
 */
export function rollCommand(input: RollerInput, actor: ResolvedSide, reactor: ResolvedSide | null, gmGiven: number[] | null) {
  const free = (r: ResolvedSide) => ({
    name: r.name,
    dice: r.dice,
    modifiers: r.modifiers.map((m) => ({ value: m.value, source: m.source.slice(0, 200) })),
    ...(r.potentialThreshold !== undefined ? { potentialThreshold: r.potentialThreshold } : {}),
  });
  const dice: Record<string, number[]> = {};
  if (actor.given) dice[ACTOR_POOL] = actor.given;
  if (reactor?.given) dice.reactor = reactor.given;
  if (!reactor && gmGiven) dice[DIFFICULTY_POOL] = gmGiven;
  const command = {
    type: 'roll' as const,
    actor: free(actor),
    ...(reactor ? { reactor: free(reactor) } : { difficulty: input.difficulty }),
    hidden: input.hidden,
    ...(input.purpose.trim() ? { purpose: input.purpose.trim().slice(0, 300) } : {}),
    // A character issuing the challenge: the table counts it toward the character's development tally.
    ...(input.actor.character ? { character: input.actor.character } : {}),
  };
  return { command, dice };
}
