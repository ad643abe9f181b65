import {
  ATTRIBUTES,
  ATTRIBUTE_LABELS,
  PRIORITIES,
  PRIORITY_LABELS,
  SHEET_VERSION,
  assignedProwessDice,
  attributeCaps,
  attributeSum,
  checkCreation,
  deriveCharacter,
  isDefenseSkill,
  potentialFromSum,
  prowessPool,
  traitUsage,
  type AttributeName,
  type CharacterOptions,
  type CharacterSheet,
  type CheckReport,
  type Priorities,
  type Priority,
  type Violation,
} from './rules';

/**
 * The character builder's model: a sheet being written, with each attribute's priority held apart
 * so that the player can move priorities around freely. The rules library checks the sheet after
 * every change; this module sorts what it says into the six creation steps.
 */

export type PriorityMap = Record<AttributeName, Priority>;

export interface Draft {
  sheet: CharacterSheet;
  priority: PriorityMap;
}

export const STEPS = [
  { id: 'concept', title: 'Concept and Potential', rule: 'Step 1: Establish Starting Potential' },
  { id: 'priorities', title: 'Order of importance', rule: 'Step 2: Determine the Order of Importance' },
  { id: 'attributes', title: 'Attributes', rule: 'Step 3: Allocate Attribute Points' },
  { id: 'maxima', title: 'Trait maxima', rule: 'Step 4: Determine Maximum Number of Traits' },
  { id: 'traits', title: 'Traits', rule: 'Step 5: Define Traits' },
  { id: 'gear', title: 'Starting gear', rule: 'Step 6: Determine Starting Gear' },
] as const;
export type StepId = (typeof STEPS)[number]['id'] | 'review';

/** How many attributes each priority takes. */
export const PRIORITY_SLOTS: Record<Priority, number> = { first: 2, second: 2, third: 1, handicap: 1 };

export function emptySheet(creationPoints: number): CharacterSheet {
  return {
    version: SHEET_VERSION,
    name: '',
    concept: '',
    role: 'main',
    creationPoints,
    attributes: { competence: 0, prowess: 0, cunning: 0, power: 0, knowledge: 0, stature: 0 },
    priorities: { first: ['competence', 'prowess'], second: ['cunning', 'power'], third: 'knowledge', handicap: 'stature' },
    skills: [],
    talents: [],
    specialAbilities: [],
    powers: [],
    gear: [],
    health: { hits: 0, status: 'unharmed' },
    criticals: 0,
    resourceBoosts: [],
    history: [],
    companions: [],
  };
}

export function priorityMapOf(priorities: Priorities): PriorityMap {
  const map = {} as PriorityMap;
  for (const p of PRIORITIES) {
    const names = p === 'first' ? priorities.first : p === 'second' ? priorities.second : [p === 'third' ? priorities.third : priorities.handicap];
    for (const a of names) if (!(a in map)) map[a] = p;
  }
  for (const a of ATTRIBUTES) if (!(a in map)) map[a] = 'handicap';
  return map;
}

export function newDraft(creationPoints: number): Draft {
  const sheet = emptySheet(creationPoints);
  return { sheet, priority: priorityMapOf(sheet.priorities) };
}

export function draftFromSheet(sheet: CharacterSheet): Draft {
  return { sheet: structuredClone(sheet), priority: priorityMapOf(sheet.priorities) };
}

/** The attributes given each priority, in the rulebook's order. */
export function attributesAt(map: PriorityMap, p: Priority): AttributeName[] {
  return ATTRIBUTES.filter((a) => map[a] === p);
}

/** Why the priorities are not yet two First, two Second, one Third and one Handicap; null when they are. */
export function priorityProblem(map: PriorityMap): string | null {
  const wrong = PRIORITIES.filter((p) => attributesAt(map, p).length !== PRIORITY_SLOTS[p]);
  if (wrong.length === 0) return null;
  const counts = PRIORITIES.map((p) => `${PRIORITY_LABELS[p]} ${attributesAt(map, p).length} of ${PRIORITY_SLOTS[p]}`).join(', ');
  return `The order of importance takes two First, two Second, one Third and one Handicap attribute; now: ${counts}.`;
}

export function prioritiesOf(map: PriorityMap): Priorities | null {
  if (priorityProblem(map)) return null;
  const [f1, f2] = attributesAt(map, 'first');
  const [s1, s2] = attributesAt(map, 'second');
  return { first: [f1!, f2!], second: [s1!, s2!], third: attributesAt(map, 'third')[0]!, handicap: attributesAt(map, 'handicap')[0]! };
}

/** The sheet the draft stands for, or null while the priorities are incomplete. */
export function draftSheet(draft: Draft): CharacterSheet | null {
  const priorities = prioritiesOf(draft.priority);
  return priorities ? { ...draft.sheet, priorities } : null;
}

/** Where a field path belongs in the six steps. */
export function stepOfPath(path: string): StepId {
  const head = path.split(/[.[]/)[0] ?? '';
  switch (head) {
    case 'name':
    case 'concept':
    case 'player':
    case 'role':
    case 'tier':
    case 'creationPoints':
      return 'concept';
    case 'priorities':
      return 'priorities';
    case 'attributes':
      return 'attributes';
    case 'skills':
      return /\.(weapon|shield)$/.test(path) ? 'gear' : 'traits';
    case 'talents':
    case 'specialAbilities':
    case 'powers':
    case 'companions':
      return 'traits';
    case 'gear':
      return 'gear';
    default:
      return 'review';
  }
}

export interface DraftCheck {
  readonly sheet: CharacterSheet | null;
  readonly report: CheckReport | null;
  /** Problems the rules library does not cover: an empty name or concept, incomplete priorities. */
  readonly missing: readonly { path: string; message: string }[];
  readonly valid: boolean;
}

export function checkDraft(draft: Draft, options: CharacterOptions): DraftCheck {
  const missing: { path: string; message: string }[] = [];
  if (!draft.sheet.name.trim()) missing.push({ path: 'name', message: 'The character needs a name.' });
  if (!draft.sheet.concept.trim()) missing.push({ path: 'concept', message: 'The character needs a concept: a few words that sum it up.' });
  const problem = priorityProblem(draft.priority);
  if (problem) missing.push({ path: 'priorities', message: problem });
  draft.sheet.skills.forEach((s, i) => {
    if (!s.name.trim()) missing.push({ path: `skills[${i}].name`, message: 'Every skill needs a name.' });
  });
  for (const [key, list] of [
    ['talents', draft.sheet.talents],
    ['specialAbilities', draft.sheet.specialAbilities],
    ['powers', draft.sheet.powers],
    ['gear', draft.sheet.gear],
  ] as const) {
    list.forEach((t, i) => {
      if (!t.name.trim()) missing.push({ path: `${key}[${i}].name`, message: 'Give it a name.' });
    });
  }
  const sheet = draftSheet(draft);
  const report = sheet ? checkCreation(sheet, options) : null;
  return { sheet, report, missing, valid: missing.length === 0 && report !== null && report.valid };
}

export interface Problem {
  readonly path: string;
  readonly message: string;
  readonly rule?: Violation['rule'];
  readonly source?: string;
}

export function problems(check: DraftCheck): Problem[] {
  return [...check.missing, ...(check.report?.errors ?? [])];
}

export function problemsAt(check: DraftCheck, path: string): Problem[] {
  return problems(check).filter((p) => p.path === path);
}

export function problemsIn(check: DraftCheck, step: StepId): Problem[] {
  return problems(check).filter((p) => stepOfPath(p.path) === step);
}

/** The limits a player works within, in words, with how much of each is used. */
export interface Budget {
  readonly key: 'points' | 'skills' | 'abilities' | 'powers' | 'talents' | 'prowess';
  readonly label: string;
  readonly used: number;
  readonly limit: number;
  readonly text: string;
  readonly why: string;
}

export function budgets(draft: Draft, options: CharacterOptions): Budget[] {
  const s = draft.sheet;
  const a = s.attributes;
  const used = traitUsage(s, options);
  const sum = attributeSum(a);
  const pool = prowessPool(s);
  const assigned = assignedProwessDice(s);
  const abilities = used.specialAbilities + used.specialAbilityUpgrades - used.upgradesFromPower;
  const powers = used.powers + used.upgradesFromPower;
  return [
    { key: 'points', label: 'Creation points', used: sum, limit: s.creationPoints, text: `${sum} of ${s.creationPoints} creation points`, why: 'The attributes are bought with the creation points.' },
    { key: 'skills', label: 'Skills', used: used.skills, limit: a.competence, text: `${used.skills} of ${a.competence} skills`, why: 'Competence is the most skills unlocked at creation; Block, Dodge and Resist are free.' },
    { key: 'abilities', label: 'Special abilities', used: abilities, limit: a.cunning, text: `${abilities} of ${a.cunning} special abilities`, why: 'Cunning is the most special abilities at creation; a Quality counts two, the culture ability is free.' },
    { key: 'powers', label: 'Powers', used: powers, limit: a.power, text: `${powers} of ${a.power} powers`, why: "Power is the most powers and power upgrades at creation; special ability upgrades beyond Cunning also use Power's points." },
    { key: 'talents', label: 'Talents', used: used.talents, limit: a.knowledge, text: `${used.talents} of ${a.knowledge} talents`, why: 'Knowledge is the most talents (and talent upgrades) at creation; the native language is free.' },
    { key: 'prowess', label: 'Prowess Pool', used: assigned, limit: pool, text: `${assigned} of ${pool} Prowess Pool dice`, why: 'The Prowess Pool is 3 x Prowess dice, assigned to skills above their starting 2.' },
  ];
}

/** What limits one attribute: its priority's cap and the attributes of the priority above it. */
export function attributeLimit(draft: Draft, attribute: AttributeName): { max: number; text: string } {
  const p = draft.priority[attribute];
  const caps = attributeCaps(draft.sheet.creationPoints);
  const index = PRIORITIES.indexOf(p);
  const above = index > 0 ? attributesAt(draft.priority, PRIORITIES[index - 1]!) : [];
  const ceiling = above.length ? Math.min(...above.map((a) => draft.sheet.attributes[a])) : Infinity;
  let text = `${ATTRIBUTE_LABELS[attribute]} can be at most ${caps[p]} as a ${PRIORITY_LABELS[p]} priority`;
  if (ceiling < caps[p]) {
    const names = above.filter((a) => draft.sheet.attributes[a] === ceiling).map((a) => ATTRIBUTE_LABELS[a]);
    text += `, and no higher than ${names.join(' or ')} (${ceiling}, ${PRIORITY_LABELS[PRIORITIES[index - 1]!]} priority)`;
  }
  return { max: Math.min(caps[p], ceiling), text: `${text}.` };
}

export function potentialOf(draft: Draft, options: CharacterOptions): number {
  return potentialFromSum(attributeSum(draft.sheet.attributes), options);
}

export function maxDiceOf(draft: Draft, options: CharacterOptions): number {
  return potentialOf(draft, options) + 2;
}

export function derivedOf(draft: Draft, options: CharacterOptions) {
  return deriveCharacter(draft.sheet, options);
}

/** Set the dice of Block, Dodge or Resist: listed on the sheet only when they carry pool dice. */
export function setDefenseDice(sheet: CharacterSheet, name: string, attribute: AttributeName, dice: number): CharacterSheet {
  const skills = sheet.skills.filter((s) => s.name.toLowerCase() !== name.toLowerCase());
  if (dice > 2) {
    const at = sheet.skills.findIndex((s) => s.name.toLowerCase() === name.toLowerCase());
    const entry = { name, attribute, dice };
    if (at >= 0) skills.splice(at, 0, entry);
    else skills.push(entry);
  }
  return { ...sheet, skills };
}

export function ownSkills(sheet: CharacterSheet) {
  return sheet.skills.map((skill, index) => ({ skill, index })).filter(({ skill }) => !isDefenseSkill(skill.name));
}

/**
 * "Spend the remaining points for me": the creation points not yet spent go to the attributes still
 * at 0, one point at a time to the one furthest below its priority's cap (in proportion to the cap),
 * so that every attribute gets its share and none is left at 0 while points remain. Values the
 * player set are kept; every cap and the order of importance hold throughout
 * (personae-core-2011.txt, "Step 3: Allocate Attribute Points").
 */
export function spreadAttributes(draft: Draft): CharacterSheet['attributes'] {
  const values = { ...draft.sheet.attributes };
  const caps = attributeCaps(draft.sheet.creationPoints);
  const open = ATTRIBUTES.filter((a) => values[a] === 0);
  const order = PRIORITIES.flatMap((p) => attributesAt(draft.priority, p));
  let left = draft.sheet.creationPoints - attributeSum(values);
  while (left > 0) {
    let best: AttributeName | null = null;
    let bestShare = Infinity;
    for (const a of order) {
      if (!open.includes(a)) continue;
      const p = draft.priority[a];
      const index = PRIORITIES.indexOf(p);
      const above = index > 0 ? attributesAt(draft.priority, PRIORITIES[index - 1]!) : [];
      const max = Math.min(caps[p], ...above.map((x) => values[x]));
      if (values[a] >= max) continue;
      const share = (values[a] + 1) / Math.max(1, caps[p]);
      if (share < bestShare) {
        best = a;
        bestShare = share;
      }
    }
    if (best === null) break;
    values[best] += 1;
    left -= 1;
  }
  return values;
}
