import { z } from 'zod';

/**
 * Table options: every point the Personae documents leave to the group, or settle differently from
 * one revision to the next. Each option names the document and section it comes from. Values that
 * come from one document are named after it: `core-2011` (personae-core-2011.txt), `web`
 * (personae-playing-web.txt) and `srd-v4` (personae-v4-srd-playing.txt).
 */
export const PRESETS = ['core-2011', 'srd-v4'] as const;
export type Preset = (typeof PRESETS)[number];

const doc = {
  core: 'personae-core-2011.txt',
  web: 'personae-playing-web.txt',
  v4: 'personae-v4-srd-playing.txt',
} as const;

interface OptionMeta<S extends z.ZodType = z.ZodType> {
  readonly schema: S;
  readonly summary: string;
  readonly sources: readonly string[];
  readonly defaults: Readonly<Record<Preset, z.infer<S>>>;
  /** What each value means, for enumerated options. */
  readonly values?: Readonly<Record<string, string>>;
}

function option<S extends z.ZodType>(meta: OptionMeta<S>): OptionMeta<S> {
  return meta;
}
function same<const T>(value: T): Record<Preset, T> {
  return { 'core-2011': value, 'srd-v4': value };
}
function byPreset<const T>(core: T, v4: T): Record<Preset, T> {
  return { 'core-2011': core, 'srd-v4': v4 };
}
function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values);
}

export const OPTION_DEFINITIONS = {
  criticals: option({
    schema: oneOf(['core-2011', 'web', 'srd-v4']),
    summary: 'Who earns criticals from natural 10s, and how many.',
    sources: [`${doc.core} "Critical Success"`, `${doc.web} "Critical Success"`, `${doc.v4} "Critical Success"`],
    values: {
      'core-2011': 'every natural 10 beyond the first is a critical, for both sides, win or lose, no cap',
      web: 'every natural 10 beyond the first, only for the side that succeeds, capped at the Potential Threshold',
      'srd-v4':
        'a challenger who wins on the highest die with a natural 10 banks one, plus one per further natural 10, capped at the Potential Threshold; none after a tie-break; a responder never banks. A challenger\'s natural 10 turns a lost tie into a glancing success; a responder\'s natural 10 beats a tie',
    },
    defaults: byPreset('core-2011', 'srd-v4'),
  }),
  natTenLowerTotal: option({
    schema: oneOf(['failure', 'glancing-success']),
    summary: 'srd-v4 criticals only: what a challenger earns with a natural 10 whose total is below the opponent\'s.',
    sources: [`${doc.v4} "Critical Success" (nat-10s "guarantee success", but the bullets cover only totals that exceed or tie)`],
    values: { failure: 'the bullets are read literally: a lower total fails', 'glancing-success': 'the nat-10 guarantee is read literally: a lower total still succeeds at a glance' },
    defaults: same('failure'),
  }),
  natTenBothTied: option({
    schema: oneOf(['responder', 'challenger']),
    summary: 'srd-v4 criticals only: when both sides tie on the highest die and both rolled a natural 10, whose rule prevails.',
    sources: [`${doc.v4} "Critical Success" (challenge and respond bullets)`],
    values: { responder: 'the responder\'s natural 10 beats the tie: the challenge fails', challenger: 'the challenger still achieves a glancing success' },
    defaults: same('responder'),
  }),
  criticalBankCap: option({
    schema: oneOf(['none', 'potential-threshold']),
    summary: 'How many criticals a character may hold at once.',
    sources: [`${doc.core} "Critical Success" (no cap)`, `${doc.web} "Critical Success" (Potential Threshold by default)`],
    defaults: byPreset('none', 'potential-threshold'),
  }),
  criticalsLast: option({
    schema: oneOf(['end-of-encounter', 'next-scene', 'next-day', 'next-session', 'until-spent']),
    summary: 'How long banked criticals are kept before they expire.',
    sources: [`${doc.core} "Critical Success"`],
    defaults: same('until-spent'),
  }),
  criticalDefaultUse: option({
    schema: oneOf(['gm-special', 'automatic-success', 'steer']),
    summary:
      'What spending a critical does when the spend names no other purpose: spend-criticals without a purpose, and spend.criticals on a challenge.',
    sources: [`${doc.core} "Critical Success" (turn in to the GM)`, `${doc.web} "Critical Success" (automatic success)`, `${doc.v4} "Critical Success" (steer)`],
    values: {
      'gm-special': 'turned in to the GM for something special: the spend must say what for (purpose), and is recorded as handed to the GM, with no effect on the dice',
      'automatic-success': 'one critical makes a challenge an automatic success: spent ahead, the spender\'s next challenge; on a challenge, that one',
      steer: 'before the result the action succeeds (spent ahead: the next challenge succeeds); on a challenge, after the dice, one critical steers a failure to a glancing success (a glancing success is steered further only by abilities, powers and assistants)',
    },
    defaults: byPreset('gm-special', 'steer'),
  }),
  criticalsTransferable: option({
    schema: z.boolean(),
    summary: 'Whether criticals may be given to other characters.',
    sources: [`${doc.web} "Critical Success"`, `${doc.v4} "Critical Success"`],
    defaults: byPreset(false, true),
  }),
  gmCriticals: option({
    schema: oneOf(['none', 'common-pool']),
    summary: 'Whether the GM\'s characters earn criticals (into one common GM pool).',
    sources: [`${doc.core} "Critical Success"`, `${doc.core} "Adversaries"`],
    defaults: same('none'),
  }),
  secondaryCharactersEarnCriticals: option({
    schema: z.boolean(),
    summary: 'Whether player-controlled identities other than main characters (companions) earn criticals.',
    sources: [
      `${doc.core} "Critical Success" (every unadjusted 10 beyond the first is a critical; only the GM's characters are left to the group)`,
      `${doc.web} "Critical Success" (main characters)`,
      `${doc.v4} "Critical Success" (left to the group)`,
    ],
    defaults: byPreset(true, false),
  }),
  fullTie: option({
    schema: oneOf(['tie', 'actor', 'reactor', 'reroll']),
    summary: 'What happens when every compared die ties and both pools are the same size.',
    sources: [`${doc.core} "The Challenge" step 4 (not settled)`],
    values: {
      tie: 'the challenge is a standoff: neither side succeeds (reported as a tie)',
      actor: 'ties go to the actor',
      reactor: 'ties go to the reactor (the status quo holds)',
      reroll: 'both sides roll again; every attempt is kept in the log',
    },
    defaults: same('tie'),
  }),
  minimumPool: option({
    schema: z.union([z.literal(0), z.literal(1)]),
    summary: 'The fewest dice a side rolls after penalty dice (0: a side may be left with no dice and loses to any die).',
    sources: [`${doc.core} "Skills" (an unskilled character always rolls one die)`, `${doc.core} "Injury and Death"`],
    defaults: same(1 as 0 | 1),
  }),
  unopposed: option({
    schema: oneOf(['highest-die', 'tie-break']),
    summary: 'How an unopposed challenge compares the player\'s roll with the GM\'s difficulty roll.',
    sources: [`${doc.core} "Unopposed Challenges"`],
    values: {
      'highest-die': 'literal 2011 reading: highest die + attribute meets or exceeds the GM\'s highest die + difficulty',
      'tie-break': 'compare like an opposed challenge, breaking ties with further dice; a full tie still meets the target',
    },
    defaults: same('highest-die'),
  }),
  assist: option({
    schema: oneOf(['core-2011', 'web', 'srd-v4']),
    summary: 'What each assistant gives the primary actor.',
    sources: [`${doc.core} "Assisting in a Challenge"`, `${doc.web} "Assisting In A Challenge"`, `${doc.v4} "Assisting in a Challenge"`],
    values: { 'core-2011': '+1 to the result per assistant', web: '+1 die per assistant', 'srd-v4': 'each assistant steers the result one step' },
    defaults: byPreset('core-2011', 'srd-v4'),
  }),
  maxAssistants: option({
    schema: z.number().int().min(0).nullable(),
    summary: 'How many may assist one challenge (null: no limit).',
    sources: [`${doc.core} "Assisting in a Challenge"`],
    defaults: same<number | null>(null),
  }),
  bonusDiceMayExceedCap: option({
    schema: z.boolean(),
    summary: 'Whether bonus dice from special abilities may take a pool above the maximum skill rating (Potential + 2).',
    sources: [`${doc.core} "What Special Abilities Can Do"`],
    defaults: same(true),
  }),
  armorIgnores: option({
    schema: oneOf(['highest', 'lowest']),
    summary: 'Which of the attacker\'s dice armor that ignores dice sets aside (after rerolls).',
    sources: [`${doc.core} "Armor"`],
    defaults: same('highest'),
  }),
  concertedEffortPerScene: option({
    schema: z.number().int().min(0),
    summary: 'How many concerted efforts the player characters may make per scene or encounter.',
    sources: [`${doc.v4} "Concerted Effort"`],
    defaults: byPreset(0, 1),
  }),
  grades: option({
    schema: oneOf(['core-2011', 'srd-v4']),
    summary: 'Whether successes are graded clear or glancing, with steering between grades.',
    sources: [`${doc.core} "The Challenge"`, `${doc.v4} "Clear Success, Glancing Success, and Steering"`],
    values: { 'core-2011': 'success or failure (the grade is still reported, as whether the highest die decided)', 'srd-v4': 'clear success, glancing success, failure; steering moves a result one grade' },
    defaults: byPreset('core-2011', 'srd-v4'),
  }),
  developmentCountsOnlyClear: option({
    schema: z.boolean(),
    summary:
      'Whether only clear successes count in the tally of successes and failures kept for each character (the challenges it issues, per session), shown in the table view for awarding development points.',
    sources: [`${doc.v4} "Clear Success, Glancing Success, and Steering"`],
    values: {
      false: 'every success counts, glancing ones too',
      true: 'only clear successes count (srd-v4 default); glancing successes are listed as not counted',
    },
    defaults: byPreset(false, true),
  }),
  potential: option({
    schema: oneOf(['core-2011', 'later']),
    summary: 'How Potential is computed from the attribute sum.',
    sources: [`${doc.core} "Potential" (sum / 5)`, 'later published revisions (sum / 10)'],
    values: { 'core-2011': 'attribute sum / 5, remainder ignored', later: 'attribute sum / 10, remainder ignored' },
    defaults: same('core-2011'),
  }),
  creationPoints: option({
    schema: z.number().int().min(5),
    summary: 'Creation points each character starts with (a multiple of five is easiest).',
    sources: [`${doc.core} "Step 1: Establish Starting Potential"`],
    defaults: same(20),
  }),
  prioritiesChangeable: option({
    schema: z.boolean(),
    summary: 'Whether attribute priorities may change after character creation (an advancement spend of kind priorities, at no cost, recorded and undoable).',
    sources: [`${doc.core} "The Order of Importance"`],
    values: {
      false: 'a change of priorities is refused (rule priorities-changeable)',
      true: 'a change of priorities is allowed while the order still holds against the current values (no Second above a First, and so on)',
    },
    defaults: same(false),
  }),
  unspentTraits: option({
    schema: oneOf(['between-sessions', 'during-session']),
    summary: 'When trait slots left unspent at creation may be defined (an advancement spend of kind unspent-slot, at no cost, within the creation maxima).',
    sources: [`${doc.core} "Step 4: Determine Maximum Number of Traits"`],
    values: {
      'between-sessions': 'the table refuses it while a session is in progress: from the set-up or begin-session until the GM ends the session (end-session)',
      'during-session': 'allowed at any time, during a session too',
    },
    defaults: same('between-sessions'),
  }),
  qualityUpgradeCost: option({
    schema: z.number().int().min(1),
    summary: 'Points each upgrade of a Special Quality costs.',
    sources: [`${doc.core} "Step 5: Define Traits"`, `${doc.core} "Upgrades"`],
    defaults: same(1),
  }),
  rerollDefault: option({
    schema: oneOf(['second', 'better']),
    summary: 'Which result a newly taken reroll ability keeps unless it says otherwise.',
    sources: [`${doc.core} "What Special Abilities Can Do"`, `${doc.core} "The Framework of Advancement"`],
    defaults: same('second'),
  }),
  actionOrder: option({
    schema: oneOf(['seating', 'initiative-skill', 'declared-skill']),
    summary: 'How the action order of a violent encounter is set.',
    sources: [`${doc.core} "The Action Order, and Actions"`],
    defaults: same('seating'),
  }),
  escalation: option({
    schema: oneOf(['core-2011', 'srd-v4']),
    summary: 'The steps a scene escalates through.',
    sources: [`${doc.core} "Escalation"`, `${doc.v4} "The Challenge"`],
    values: { 'core-2011': 'scene, non-violent encounter, violent encounter', 'srd-v4': 'scene, non-violent encounter, hostile encounter, violent encounter' },
    defaults: byPreset('core-2011', 'srd-v4'),
  }),
  nonViolentExtended: option({
    schema: oneOf(['separate-challenges', 'subsequent-challenges', 'health-track']),
    summary: 'How an extended challenge in a non-violent encounter is resolved.',
    sources: [`${doc.core} "Non-Violent Encounters"`, `${doc.core} "Subsequent vs. Additional Challenges"`],
    values: {
      'separate-challenges': 'each Interaction Challenge is rolled and stands alone',
      'subsequent-challenges': 'an interact with subsequent: true right after an interaction against the same target compares the next-highest dice of that roll, rolling nothing',
      'health-track':
        'each character has a resolve track in the encounter, 1 + the attribute it answers with (Power by default); each interaction challenge won against it wears one, and worn through it yields',
    },
    defaults: same('separate-challenges'),
  }),
  distance: option({
    schema: oneOf(['relative', 'grid']),
    summary: 'How distance is tracked: the form of the destination a move may name, kept as the character\'s position.',
    sources: [`${doc.core} "Distance and Location"`],
    values: {
      relative: 'a relative term: "close", "adjacent", "very near", "pretty far" or any word the group uses; coordinates are refused',
      grid: 'a square of the grid, { x, y }; words are refused',
    },
    defaults: same('relative'),
  }),
  companionsPerCharacter: option({
    schema: z.number().int().min(0),
    summary: 'The most companions one main character may have.',
    sources: [`${doc.core} "Companions"`],
    defaults: same(1),
  }),
  raiseDead: option({
    schema: z.boolean(),
    summary: 'Whether powers or special abilities may revive the dead.',
    sources: [`${doc.core} "Healing and Recovery"`],
    defaults: same(false),
  }),
  terms: option({
    schema: oneOf(['core-2011', 'later']),
    summary: 'Display words only: GM and individual (2011) or chorus and identity (later revisions).',
    sources: [`${doc.core} "Introduction"`, `${doc.web} "The Challenge"`],
    defaults: same('core-2011'),
  }),
  escalationMaySkip: option({
    schema: z.boolean(),
    summary:
      'Whether a scene may escalate past a step in one go (a scene straight to a violent encounter, as in an ambush; under escalation srd-v4, a non-violent encounter to a violent one without a hostile step).',
    sources: [`${doc.core} "Escalation" (the order of escalation)`, `${doc.v4} "The Challenge" (encounters escalate or de-escalate as it makes sense in the fiction; no text makes the hostile step mandatory)`],
    values: { false: 'each step of the escalation order is taken in turn', true: 'any later step may be reached at once' },
    defaults: byPreset(false, true),
  }),
  minionThreshold: option({
    schema: oneOf(['one-hit', 'stature']),
    summary: 'How many hits take a minion to its first status (Incapacitated): minions have only Incapacitated and Dying.',
    sources: [`${doc.core} "Adversaries" (minion, minor and major supporting characters)`],
    values: {
      'one-hit': 'one hit, as a minor character reaches Injured with one hit',
      stature: '1 + Stature + bonuses, as a main character reaches Injured',
    },
    defaults: same('one-hit'),
  }),
  obstacleHealth: option({
    schema: oneOf(['none', 'hits']),
    summary: 'Whether an obstacle or hazard played as an identity with its own pool can be worn down by hits.',
    sources: [`${doc.core} "Obstacles" (how static obstacles and hazards play out, mechanically too, is for the group to decide)`],
    values: {
      none: 'an obstacle sustains no hits: a challenge won against it overcomes it as the group narrates',
      hits: 'an obstacle given health sustains hits; as many as its health overcome it (out of play, like Incapacitated); one without health sustains none',
    },
    defaults: same('none'),
  }),
  injuryTiming: option({
    schema: oneOf(['end-of-round', 'immediate']),
    summary: 'When a new health status (and its penalty) takes effect in a violent encounter; hits are tallied at once either way.',
    sources: [`${doc.core} "Injury and Death" (injury takes effect at the end of a round)`],
    values: { 'end-of-round': 'at the end of the round in which the hits were tallied', immediate: 'as soon as the hits are tallied' },
    defaults: same('end-of-round'),
  }),
  injuryPenaltyLasts: option({
    schema: oneOf(['until-recovered', 'violent-encounters']),
    summary: 'Where the dice penalty of a health status applies.',
    sources: [`${doc.core} "Injury and Death" (on all challenges until the end of a violent encounter; persists until recovery)`],
    values: {
      'until-recovered': 'on every challenge, in and out of encounters, until the status is recovered from',
      'violent-encounters': 'only on challenges in violent encounters',
    },
    defaults: same('until-recovered'),
  }),
  attackAttribute: option({
    schema: oneOf(['by-weapon', 'skill']),
    summary: 'The attribute added to an attack: by the weapon (Stature for unarmed and hand-to-hand, Cunning for ranged) or the default attribute of the skill rolled.',
    sources: [`${doc.core} "Weapons"`, `${doc.core} "Skills" (the default attribute chosen when a skill is unlocked)`],
    defaults: same('by-weapon'),
  }),
  hiddenSideShown: option({
    schema: oneOf(['outcome', 'dice']),
    summary:
      "What players and observers see of a hidden character's side of a challenge made in the open (an attack on a hidden adversary, its parry, its roll for the action order); the log text follows the same rule. The GM, and a player whose own character is hidden, always see everything.",
    sources: [`${doc.core} "Character Concept" (background a participant wants kept secret from the group); the documents leave what the GM shows of its rolls to the table`],
    values: {
      outcome: "its name and the outcome only: no pool, dice, modifiers, skill or ability names",
      dice: 'its dice and its modifiers summed into one unlabelled number, and the outcome; no pool breakdown, skill or ability names',
    },
    defaults: same('outcome'),
  }),
} as const;

export type OptionName = keyof typeof OPTION_DEFINITIONS;
export type TableOptions = { -readonly [K in OptionName]: z.infer<(typeof OPTION_DEFINITIONS)[K]['schema']> };

const shape = Object.fromEntries(Object.entries(OPTION_DEFINITIONS).map(([k, v]) => [k, v.schema])) as {
  [K in OptionName]: (typeof OPTION_DEFINITIONS)[K]['schema'];
};
/** The options of one table, every option present. */
export const TableOptionsSchema = z.strictObject(shape);
/** A preset with some options set differently. */
export const TableOptionsInputSchema = z.strictObject({
  preset: z.enum(PRESETS).default('core-2011'),
  options: z.strictObject(shape).partial().default({}),
});

export function presetOptions(preset: Preset): TableOptions {
  const entries = Object.entries(OPTION_DEFINITIONS).map(([name, def]) => [name, def.defaults[preset]]);
  return Object.fromEntries(entries) as TableOptions;
}

export class OptionError extends Error {
  override readonly name = 'OptionError';
  constructor(
    readonly option: string,
    message: string,
  ) {
    super(message);
  }
}

/** The preset's options with some set differently; unknown names and bad values are refused by name. */
export function tableOptions(preset: Preset = 'core-2011', overrides: Partial<TableOptions> = {}): TableOptions {
  const base = presetOptions(preset);
  for (const [name, value] of Object.entries(overrides)) {
    const def = (OPTION_DEFINITIONS as Record<string, OptionMeta>)[name];
    if (!def) throw new OptionError(name, `unknown option "${name}"; known options: ${Object.keys(OPTION_DEFINITIONS).join(', ')}`);
    const parsed = def.schema.safeParse(value);
    if (!parsed.success) {
      throw new OptionError(name, `option "${name}" cannot be ${JSON.stringify(value)}: ${describeAllowed(def)}`);
    }
    (base as Record<string, unknown>)[name] = parsed.data;
  }
  return base;
}

/** The values an enumerated option accepts, or undefined for numbers and booleans. */
export function allowedValues(schema: z.ZodType): readonly unknown[] | undefined {
  const options = (schema as unknown as { options?: readonly unknown[] }).options;
  if (!options) return undefined;
  return options.map((o) => (typeof o === 'object' && o !== null && 'value' in o ? (o as { value: unknown }).value : o));
}

function describeAllowed(def: OptionMeta): string {
  const values = allowedValues(def.schema);
  if (values) return `expected one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
  const sample = def.defaults['core-2011'];
  if (typeof sample === 'boolean') return 'expected true or false';
  return 'expected a whole number' + (sample === null ? ' or null' : '');
}

/**
 * Read `name=value` text (as typed on a command line) into a typed option value.
 * Numbers, booleans and `null` are read as such; anything else stays text.
 */
export function parseOptionAssignment(text: string): [OptionName, unknown] {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new OptionError(text, `"${text}" is not name=value`);
  const name = text.slice(0, eq).trim();
  const raw = text.slice(eq + 1).trim();
  if (!(name in OPTION_DEFINITIONS)) {
    throw new OptionError(name, `unknown option "${name}"; known options: ${Object.keys(OPTION_DEFINITIONS).join(', ')}`);
  }
  let value: unknown = raw;
  if (raw === 'true' || raw === 'false') value = raw === 'true';
  else if (raw === 'null') value = null;
  else if (/^-?\d+$/.test(raw)) value = Number(raw);
  return [name as OptionName, value];
}

export function isPreset(value: string): value is Preset {
  return (PRESETS as readonly string[]).includes(value);
}
