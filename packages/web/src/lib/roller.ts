import {
  ATTRIBUTE_LABELS,
  DEFENSE_SKILLS,
  challengeOdds,
  deriveCharacter,
  sameName,
  sumLabeled,
  unopposedOdds,
  type AttributeName,
  type ChallengeOdds,
  type CharacterSheet,
  type Labeled,
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
  attribute: AttributeName;
  defense: boolean;
}

export function skillsOf(sheet: CharacterSheet | null): SkillChoice[] {
  if (!sheet) return [];
  const listed = sheet.skills.map((s) => ({ name: s.name, dice: s.dice, attribute: s.attribute, defense: DEFENSE_SKILLS.some((d) => sameName(d.name, s.name)) }));
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

export function resolveSide(input: SideInput, characters: readonly RollerCharacter[], options: TableOptions, role: 'actor' | 'reactor'): ResolvedSide {
  const notes: string[] = [];
  const modifiers: Labeled[] = [];
  const diceParts: Labeled[] = [];
  let name = input.name.trim() || (role === 'actor' ? 'Actor' : 'Reactor');
  let potentialThreshold: number | undefined;
  const c = characters.find((x) => x.id === input.character);
  if (c) {
    name = c.name;
    if (c.sheet) {
      const skill = skillsOf(c.sheet).find((s) => sameName(s.name, input.skill));
      diceParts.push(skill ? { value: skill.dice, source: skill.name } : { value: 1, source: `unskilled${input.skill ? ` (${input.skill})` : ''}` });
      modifiers.push({ value: c.sheet.attributes[input.attribute], source: ATTRIBUTE_LABELS[input.attribute] });
      potentialThreshold = deriveCharacter(c.sheet, options).potentialThreshold;
      const ability = c.sheet.specialAbilities.find((a) => sameName(a.name, input.ability));
      if (ability) {
        const e = ability.effect;
        if (e.type === 'bonus-result') modifiers.push({ value: e.amount, source: ability.name });
        else if (e.type === 'bonus-dice') diceParts.push({ value: e.dice, source: ability.name });
        else if (e.type === 'described') notes.push(`${ability.name} has no rolled effect; agree its benefit at the table.`);
        else notes.push(`${ability.name} (${e.type.replace(/-/g, ' ')}) is applied by the encounter tracker's actions, not by a free roll.`);
      }
    } else {
      // A hidden character: its sheet stays with the GM, so its pool is typed in like a free one.
      diceParts.push({ value: Math.max(0, Math.floor(input.dice)), source: 'pool' });
      if (input.bonus) modifiers.push({ value: input.bonus, source: 'attribute' });
      notes.push(`${c.name}'s sheet is kept by the GM: type in the dice and attribute the GM announces.`);
    }
    if (c.penalty && c.penalty.dice > 0) diceParts.push({ value: -c.penalty.dice, source: c.penalty.status });
  } else {
    diceParts.push({ value: Math.max(0, Math.floor(input.dice)), source: 'pool' });
    if (input.bonus) modifiers.push({ value: input.bonus, source: 'attribute' });
  }
  for (const m of input.modifiers) {
    if (!Number.isFinite(m.value) || m.value === 0) continue;
    modifiers.push({ value: Math.trunc(m.value), source: m.source.trim() || 'circumstance' });
  }
  if (role === 'actor' && input.assistants.length > 0) {
    const n = input.assistants.length;
    if (options.maxAssistants !== null && n > options.maxAssistants) {
      notes.push(`The table allows ${options.maxAssistants} assistant${options.maxAssistants === 1 ? '' : 's'} (option maxAssistants).`);
    }
    for (const a of input.assistants) {
      if (options.assist === 'core-2011') modifiers.push({ value: 1, source: `assist (${a})` });
      else if (options.assist === 'web') diceParts.push({ value: 1, source: `assist (${a})` });
    }
    if (options.assist === 'srd-v4') notes.push('Under the srd-v4 assist rule each assistant steers the result one grade: apply it when reading the result.');
  }
  const raw = diceParts.reduce((s, d) => s + d.value, 0);
  const dice = Math.max(options.minimumPool, raw);
  const given = parseGiven(input.given, dice);
  return {
    name,
    dice,
    diceParts,
    modifiers,
    modifier: sumLabeled(modifiers),
    ...(potentialThreshold !== undefined ? { potentialThreshold } : {}),
    notes,
    given: given.dice,
    givenProblem: given.problem,
  };
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

/** The exact odds of the declared challenge, and how one die more or fewer on either side moves them. */
export function rollerOdds(actor: ResolvedSide, reactor: ResolvedSide | null, difficulty: number, options: TableOptions): RollerOdds {
  const opposed = (a: number, r: number) => challengeOdds({ actor: { ...side(actor), dice: a }, reactor: { ...side(reactor!), dice: r } }, options);
  const unopposed = (a: number) => unopposedOdds({ player: { ...side(actor), dice: a }, difficulty }, options);
  const at = (a: number, r: number) => (reactor ? opposed(a, r) : unopposed(a));
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

/** The table's `roll` command for the declared challenge. */
export function rollCommand(input: RollerInput, actor: ResolvedSide, reactor: ResolvedSide | null, gmGiven: number[] | null) {
  const free = (r: ResolvedSide) => ({
    name: r.name,
    dice: r.dice,
    modifiers: r.modifiers.map((m) => ({ value: m.value, source: m.source.slice(0, 200) })),
    ...(r.given ? { given: r.given } : {}),
    ...(r.potentialThreshold !== undefined ? { potentialThreshold: r.potentialThreshold } : {}),
  });
  return {
    type: 'roll' as const,
    actor: free(actor),
    ...(reactor ? { reactor: free(reactor) } : { difficulty: input.difficulty, ...(gmGiven ? { gmGiven } : {}) }),
    hidden: input.hidden,
    ...(input.purpose.trim() ? { purpose: input.purpose.trim().slice(0, 300) } : {}),
  };
}
