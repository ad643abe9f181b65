import { asPoolDice, chainItems, chainPush, newCharacterId, ownersSeenBy, requireCharacterRoom, requireSeen, requireSheetSize, RuleError, type Actor, type Chain, type DecideContext, type Decider, type ParseResult } from '@personae/core';
import { recordingDice, type DiceSource } from '@personae/dice';
import { AILMENTS, ailmentsAtTurnEnd, ailmentsAtTurnStart, confusedActs, inflictAilment, panicFlees, type AilmentName, type ConfusedAct } from './ailments';
import { allEnemiesStaggered, resolveAllOutAttack } from './allOutAttack';
import { ANALYSE_CITATION, ANALYSE_LEVEL, analysed, d100Audience, knownDetails, redactFighter, redactSheet, shownOf, struck, type Knowledge, type ShownFighter, type ShownSheet } from './analyse';
import { controllerOf, controls, requireAuthority } from './authority';
import { drawIn, recordingPools, tableDice, type TableDice } from './draws';
import { attackModifiers, landHit, resolveAttack, takeInjuries, SITUATIONS, type AttackKind, type AttackResult, type AttackSpec, type Counted } from './attack';
import { batonAdvantages, checkBatonPass } from './batonPass';
import { DISRUPT_CITATION, DISRUPT_SKILLS, disruptionsEnd, scaryFaceAgainst, type Disruption } from './disrupt';
import { afterReloadAction, afterShot, reloadable, reloadTotal, RELOAD_CITATION, shotsIn, spareLoadsOf, type HurrySkill } from './ammunition';
import { afterEquip, applyConsumable, CONSUMABLE_REACH, consumablesLeft, equipCost, EQUIPMENT_CITATION, heldIn, weaponOf } from './equipment';
import { FULL_SPEED_DISADVANTAGES, STEALTH_CITATION, type StealthTest } from './stealth';
import { BLOOD_LOSS_TESTS, bloodLossTest, miasmaStress, type BloodLossTestName } from './conditions';
import { isImmune, type Element as ElementName, type RegularElement } from './elements';
import { afterBlocking, blocksOnHit, weeklyRefresh, spendPoint, spendRemoveAilment, spendRestoreLight, spendRestoreResource, spendRevivePersona, useResource, FATE_SPENDS } from './fate';
import { modifier, sumModifiers, type Modifier } from '@personae/core';
import { adjacent, effectiveAffinity, ailmentScoreDisadvantages, altitudeOf, armourAt, bonus, canOppose, defenseToughnessBonus, disadvantagesOnAllTests, fatigue, hasAilment, livingPersona, protectorFor, terrainDisadvantages, terrainOf, toughness, type Conditions, type Fighter, type Position, type Resource, type Score, type Terrain } from './fighter';
import { altitudeBar, bandsCrossed, crashMetres, fallDamage, scatter, scatterLanding, fullSpeedFailure, moveAllowance, movementOutcome, separation, type Altitude, type MovementOutcome, type MovementTest } from './movement';
import { armDisabled, bleedingReturns, hasBruisedRib, injuriesAfterRestoring, injuryStress, injuryTestDisadvantages, treatInjuries } from './injuries';
import { initiativeOrder, type InitiativeEntry } from './initiative';
import { hitLocation, type Location } from './location';
import { attackOdds, type AttackOdds } from './odds';
import { resolveOptions, type D100Options } from './options';
import { ruleCitation, seed } from './rules';
import { checkSheet, fighterFromSheet, type D100Sheet } from './sheet';
import { resolveOpposed, resolveTest, testOdds, type TestOdds, type TestResult, type TieRoll } from './test';
import { fateAdvantages } from './fate';
import { applyWounds, isOut, restoreWounds } from './wounds';
import { commandSchema, CONDITIONS_SET, WITHHELD, type EncounterCommand } from './commands';
import { crashesAtRoundEnd, nextIn, testsAtTurnEnd, turnStartTests } from './turns';
import { afterPaying, ECONOMY_LABELS, NOTHING_SPENT, payFor, remaining, spentOf, spendsOneMore, type Cost, type Remaining } from './economy';

export { CHANCE_TRIGGERS, commandSchema, WITHHELD, type EncounterCommand } from './commands';

/**
 * A d100 encounter as events (d100-combat-rules.txt, "Structured Time", "Combat Structure"): the GM
 * adds characters, initiative orders them, each takes a turn; One More, Baton Pass and the All Out
 * Attack let characters act out of order; ailments expire on the sufferer's turns. Every event
 * carries the dice it used, so folding the events again never rolls; undo takes back the last
 * command's events.
 */

export type EncounterEvent =
  | { type: 'options-set'; data: { group: number; preset: string; options: Record<string, unknown> } }
  | { type: 'character-added'; data: { group: number; id: string; sheet: D100Sheet; controller?: string | null } }
  | { type: 'controller-set'; data: { group: number; id: string; controller: string | null } }
  | { type: 'encounter-started'; data: { group: number; order: InitiativeEntry[]; dice: number[]; surprised?: string[] } }
  | { type: 'miasma-set'; data: { group: number; rate: number } }
  | { type: 'fell'; data: { group: number; who: string; metres: number; test: (TestRecord & { degrees: number }) | null; locationRoll: number; damage: number; location: Location; defense: number; wounds: readonly string[] } }
  | { type: 'turn-started'; data: { group: number; id: string; round: number; dice: number[]; confused?: ConfusedRecord; miasma?: TestRecord; bloodLoss?: BloodLossRecord; fate?: FateSpentOn; fleeing?: string } }
  | { type: 'bleeding-test-chosen'; data: { group: number; who: string; test: BloodLossTestName } }
  | { type: 'fate-block-declared'; data: { group: number; who: string; heavy: number } }
  | { type: 'confused-target-chosen'; data: { group: number; who: string; target: string } }
  | { type: 'attack-resolved'; data: { group: number; attacker: string; defender: string; spec: AttackSpec; dice: number[]; summary: AttackSummary; protector?: string; shockTest?: TestRecord } }
  | { type: 'exhaustion-tested'; data: { group: number; who: string; target: number; roll: number; success: boolean; minutes: number; fate?: number } }
  | { type: 'analysed'; data: { group: number; who: string; target: string; advanced: boolean } }
  | { type: 'staunched'; data: { group: number; who: string; target: string; test: TestRecord } }
  | { type: 'stemming-declared'; data: { group: number; who: string; stem: boolean } }
  | { type: 'power-wasted'; data: { group: number; who: string; power: string } }
  | { type: 'disrupted'; data: { group: number; who: string; target: string; kind: Disruption; result: OpposedRecord; won: boolean } }
  | { type: 'equipped'; data: { group: number; who: string; item: string; stow?: string; cost: 'free' | 'action' } }
  | { type: 'scattered'; data: { group: number; attacker: string; defender: string; attackTest: number; direction: string; metres: number; to?: { x: number; y: number } } }
  | { type: 'reloading'; data: { group: number; who: string; weapon: string; total: number; left: number; hurry?: TestRecord & { skill: HurrySkill; degrees: number } } }
  | { type: 'consumable-used'; data: { group: number; who: string; item: string; target: string } }
  | { type: 'went-stealthy'; data: { group: number; who: string } }
  | { type: 'trick-resolved'; data: { group: number; attacker: string; defender: string; kind: 'push' | 'knockdown'; attack: number; attackRoll: number; evasion: number | null; evasionRoll: number | null; won: boolean; metres: number; impact?: PushImpact; tieRolls?: readonly TieRoll[] } }
  | { type: 'ailment-fought'; data: { group: number; who: string; ailment: 'burning' | 'despaired' | 'panicked'; test: TestRecord | null; ended: boolean; fate?: number } }
  | { type: 'baton-passed'; data: { group: number; from: string; to: string; advantages: number } }
  | { type: 'all-out-attack'; data: { group: number; participants: { id: string; target: number; roll: number }[]; woundsEach: number; killed: string[]; fateSpent?: Record<string, number> } }
  | { type: 'defending'; data: { group: number; id: string } }
  | { type: 'protecting'; data: { group: number; id: string; ally: string } }
  | { type: 'placed'; data: { group: number; target: string; position: Position; altitude?: Altitude } }
  | { type: 'moved'; data: { group: number; who: string; from: Position; to: Position; run: boolean; metres: number; allowance: number; left: string[]; engaged: string[]; oneMore: boolean; stealth?: StealthTest; terrainTest?: TerrainTestRecord; altitude?: Altitude; flight?: string } }
  | { type: 'terrain-set'; data: { group: number; target: string; dtn: number; kind?: Terrain; damage?: number } }
  | { type: 'movement-tested'; data: { group: number; who: string; kind: MovementTest; target: number; roll: number; success: boolean; degrees: number; outcome: MovementOutcome } }
  | { type: 'wounds-restored'; data: { group: number; target: string; light: number; heavy: number } }
  | { type: 'injuries-treated'; data: { group: number; target: string; how: 'rest' | 'medical' } }
  | { type: 'ailment-inflicted'; data: { group: number; target: string; ailment: AilmentName; turns: number | null | undefined; source?: string; resistance?: ResistanceRecord } }
  | { type: 'condition-set'; data: { group: number; target: string; condition: (typeof CONDITIONS_SET)[number]; value: boolean } }
  | { type: 'fate-spent'; data: { group: number; who: string; spend: (typeof FATE_SPENDS)[number]; ailment?: AilmentName; location?: Location; resource?: Resource } }
  | { type: 'resource-used'; data: { group: number; who: string; resource: Resource; amount: number; label: string } }
  | { type: 'test-rolled'; data: { group: number; who: string; score: Score; label: string; target: number; roll: number; success: boolean; degrees: number; modifiers: { label: string; value: number }[]; hand?: 'right' | 'left' } }
  | { type: 'disengaged'; data: { group: number; who: string; method: 'test' | 'action'; results: OpposedRecord[]; fled: string[]; from?: string[] } }
  | { type: 'fled'; data: { group: number; who: string; from: string[]; reason: string } }
  | { type: 'grapple-resolved'; data: { group: number; attacker: string; defender: string; attack: number; attackRoll: number; evasion: number | null; evasionRoll: number | null; won: boolean; tieRolls?: readonly TieRoll[] } }
  | { type: 'grapple-escape'; data: { group: number; who: string; grappler: string; declared: 'move' | 'action' | 'attack' | 'evasion' | 'released'; result: OpposedRecord | null; won: boolean } }
  | { type: 'test-rerolled'; data: { group: number; who: string; test: 'attack' | 'evasion' | 'test'; oldRoll: number; newRoll: number; kept: number; replacement: EncounterEvent; forcedBy?: string } }
  | { type: 'turn-ended'; data: { group: number; id: string; expired: AilmentName[]; forfeited: boolean; frozen?: TestRecord; fate?: number } }
  | { type: 'round-ended'; data: { group: number; round: number; crashes?: { who: string; locationRoll: number }[] } }
  | { type: 'week-started'; data: { group: number } }
  | { type: 'undone'; data: { group: number } };

/** The target's test to resist an ailment (U42, option ailmentResistScore): passed, the ailment does not take hold. */
export interface ResistanceRecord {
  readonly score: Score;
  /** The element of what inflicts it, whose Weak or Resist counted. */
  readonly element?: ElementName;
  readonly target: number;
  readonly roll: number;
  readonly success: boolean;
  readonly degrees: number;
  readonly modifiers: readonly { readonly label: string; readonly value: number }[];
}

/** A Confused character's start-of-turn Intelligence test and what it makes it do (the ailments passage). */
export interface ConfusedRecord {
  readonly target: number;
  readonly roll: number;
  readonly success: boolean;
  readonly degrees: number;
  readonly acts: readonly ConfusedAct[];
  readonly hand?: 'left' | 'right';
  /** What fell from that hand when it dropped everything in it (the weapons it held there; none from an empty hand). */
  readonly dropped?: readonly string[];
}

/**
 * The attack a Confused character owes this Turn (the Confused row of the ailments passage: 4+ DoF,
 * it attacks the nearest character; 5+, itself): the characters that may be the nearest, one once it
 * is known, or itself alone.
 */
export interface ConfusedAttack {
  readonly who: string;
  readonly candidates: readonly string[];
  /** Under confusedBands=both at 5+ DoF: the attack on itself is owed once the one on the nearest is made. */
  readonly thenItself?: true;
  /** The attack on itself that follows the one on the nearest: the Action that made that one makes it too. */
  readonly paid?: true;
}

/**
 * The Blood Loss test at the start of a bleeder's turn ("Blood Loss"): Toughness with every
 * Disadvantage its tests carry (Fatigue, ailments, Injuries) and, when it stems the bleeding with its
 * Action, three Advantages.
 */
export interface BloodLossRecord {
  /** Which test it made: Toughness or Endurance (Injury), as its player declared, else the better of the two. */
  readonly test?: BloodLossTestName;
  readonly chosen?: 'declared' | 'better';
  /** The test's own target before its modifiers, and the other test's (the one not made). */
  readonly base?: number;
  readonly otherBase?: number;
  readonly target: number;
  readonly roll: number;
  readonly success: boolean;
  readonly degrees: number;
  readonly stemmed: boolean;
  readonly modifiers: readonly { readonly label: string; readonly value: number }[];
  /** Fate Points spent blocking the Heavy wound a failure cost ("Fate Points", Block Heavy Wound, as declared with fate-block). */
  readonly fateSpent?: number;
}

/** Which start-of-turn test a Fate Point Advantage bought beforehand went to ("Fate Points"): the first the turn's start makes. */
export type FateSpentOn = { readonly test: 'bloodLoss' | 'confused' | 'miasma'; readonly advantages: number };

/** A test a turn's start or end makes by itself (Miasma's Willpower, Frozen's break-free test), with the Stress it cost. */
export interface TestRecord {
  readonly target: number;
  readonly roll: number;
  readonly success: boolean;
  readonly stress?: number;
}

/**
 * A pushed character meeting a solid object ("Analysing Targets, Disrupting Targets and Tricks",
 * Push): the metres it still had to go, as Stress and as damage, the latter a blow at a rolled location.
 */
export interface PushImpact {
  /** How far it could go before the object. */
  readonly obstacle: number;
  /** The metres of the push it had left. */
  readonly left: number;
  readonly locationRoll: number;
  readonly location: Location;
  readonly damage: number;
  readonly defense: number;
  readonly wounds: readonly string[];
}

/** One opposed test as recorded: each side's target and roll, and who won. */
export interface OpposedRecord {
  readonly enemy: string;
  readonly target: number;
  readonly roll: number;
  readonly enemyTarget: number | null;
  readonly enemyRoll: number | null;
  readonly won: boolean;
  /** The pairs rolled again to break a tie (option opposedTie=reroll): the actor's roll, then the enemy's. */
  readonly tieRolls?: readonly TieRoll[];
}

/** What a Burst Attack's extra target took. */
export interface BurstHit {
  readonly id: string;
  readonly location: string;
  readonly damage: number;
  readonly defense: number;
  readonly wounds: readonly string[];
  readonly out: boolean;
}

export interface AttackSummary {
  readonly hit: boolean;
  readonly roll: number;
  readonly evasionRoll: number | null;
  readonly critical: boolean;
  readonly fumble: boolean;
  readonly location: string | null;
  readonly damage: number | null;
  readonly defense: number | null;
  readonly wounds: readonly string[];
  readonly savage: readonly string[];
  readonly repelled: boolean;
  readonly oneMore: boolean;
  /** The protector the hit landed on instead ("Defending and Protecting"). */
  readonly protectedBy?: string;
  /** Both attack rolls against a Condemned target, when a second was rolled. */
  readonly condemnedRolls?: readonly number[];
  /** The ailment a magic Critical Hit gave (option magicCritical=signature-ailment). */
  readonly criticalAilment?: AilmentName;
  /** The pairs of rolls made again to break a tie of the opposed test (option opposedTie=reroll). */
  readonly tieRolls?: readonly TieRoll[];
  /** The defender did not oppose: it had already evaded this Round (option evasionsPerRound). */
  readonly evasionSpent?: boolean;
  /** Fate Points the one hit spent blocking Heavy wounds ("Fate Points", Block Heavy Wound). */
  readonly fateSpent?: number;
  /** Burst Attack: the purchases made and the extra targets hit (with the location dice drawn for them). */
  readonly burst?: { readonly purchases: readonly ({ extraTarget: string } | { extraWound: string })[]; readonly extra: readonly BurstHit[]; readonly dice: readonly number[] };
}

export interface OneMore {
  readonly holder: string;
  /** Who has given or received a Baton Pass in this chain. */
  readonly chain: readonly string[];
  /** Advantages the holder gains from a Baton Pass. */
  readonly advantages: number;
}

export interface EncounterState {
  readonly options: D100Options;
  readonly preset: string;
  readonly fighters: Readonly<Record<string, Fighter>>;
  readonly sheets: Readonly<Record<string, D100Sheet>>;
  readonly order: readonly string[];
  readonly initiative: readonly InitiativeEntry[];
  readonly round: number;
  /** Whose turn it is, or null before the start. */
  readonly current: string | null;
  readonly oneMore: OneMore | null;
  /** How many events the encounter has folded, undos included: the table's version. */
  readonly seq: number;
  /** Events of the commands in effect, by command, newest on top (shared with earlier states; see groupsOf). */
  readonly groups: Chain<readonly EncounterEvent[]> | null;
  /** The participant controlling each character (absent or null: the GM). */
  readonly controllers?: Readonly<Record<string, string | null>>;
  /** The Miasma growth rate of the Sea of Chaos the fight is in; 0 or absent outside it ("Unprotected from Miasma"). */
  readonly miasma?: number;
  /** The preset and options the table was set up with, when not the seed's; a fold from the start begins from them. */
  readonly setup?: { readonly preset: string; readonly options: Readonly<Record<string, unknown>> };
  /** What the party has learnt of each character's affinities (Analyse Target; option affinityReveal). */
  readonly knowledge?: Readonly<Record<string, Knowledge>>;
  /** The attack on the nearest character a Confused character owes in its Turn; absent or null: none. */
  readonly confusedAttack?: ConfusedAttack | null;
}

/** The empty encounter of a table set up with `preset` and `overrides` (checked: a bad option throws). */
export function initialEncounter(preset = 'seed', overrides: Readonly<Record<string, unknown>> = {}): EncounterState {
  const setup = preset === 'seed' && Object.keys(overrides).length === 0 ? {} : { setup: { preset, options: { ...overrides } } };
  return { options: resolveOptions(preset, overrides), preset, fighters: {}, sheets: {}, order: [], initiative: [], round: 0, current: null, oneMore: null, seq: 0, groups: null, ...setup };
}

function given(values: readonly number[]): DiceSource {
  let i = 0;
  return { kind: 'given', die: () => { if (i >= values.length) throw new Error('an event ran out of its recorded dice'); return values[i++]!; } };
}

function refuse(code: string, message: string, field?: string, rule = ruleCitation('structuredTime')): never {
  throw new RuleError(code, message, field, rule);
}

function fighter(state: EncounterState, who: string, field: string): Fighter {
  const f = Object.prototype.hasOwnProperty.call(state.fighters, who) ? state.fighters[who] : undefined;
  if (!f) refuse('unknown-character', `${field}: no character "${who}" in this encounter`, field);
  return f;
}

function put(state: EncounterState, f: Fighter): EncounterState {
  return { ...state, fighters: { ...state.fighters, [f.id]: f } };
}

function update(state: EncounterState, who: string, change: (f: Fighter) => Fighter): EncounterState {
  return put(state, change(state.fighters[who]!));
}

export type AttackCommand = Extract<EncounterCommand, { type: 'attack' }>;

/** The attack a command declares, filled from the attacker's weapon and sheet. */
export function attackSpec(state: Pick<EncounterState, 'sheets' | 'oneMore' | 'fighters'> & { readonly options?: D100Options }, c: AttackCommand): AttackSpec {
  const sheet = state.sheets[c.attacker]!;
  const defSheet = state.sheets[c.defender]!;
  const weapon = weaponOf(sheet, state.fighters[c.attacker]!, c.weapon);
  const kind = c.kind ?? (weapon ? (weapon.class === 'melee' || weapon.class === 'thrown' ? 'melee' : weapon.class === 'magic' ? 'magic' : 'ballistic') : 'melee');
  const element = c.element ?? weapon?.element ?? (kind === 'ballistic' ? 'missile' : 'melee');
  const damage = c.damage ?? weapon?.damage;
  if (damage === undefined) refuse('no-damage', `damage: ${sheet.name} has no weapon; give the attack's damage`, 'damage', ruleCitation('damage'));
  const score = kind === 'melee' ? 'melee' : kind === 'ballistic' ? 'ballistic' : 'magic';
  // Option evasionVsMagic (C1): a mental attack is a magic attack of the Psychic element
  const evasion = evasionOf(defSheet, state.options?.evasionVsMagic === 'no-dodge-vs-mental' && kind === 'magic' && element === 'psy');
  const baton = state.oneMore && state.oneMore.holder === c.attacker && state.oneMore.advantages ? [{ label: 'Baton Pass', count: state.oneMore.advantages }] : [];
  const attacker = state.fighters[c.attacker]!;
  const defender = state.fighters[c.defender]!;
  // "Fate Points": Advantages bought for the next test; "Movement and Combat": a Flee's Chance Attack gains Advantage
  const fate = attacker.pendingAdvantages ? [{ label: 'Fate Point', count: attacker.pendingAdvantages }] : [];
  const flee = c.chance && c.trigger === 'flee' ? [{ label: 'Flee', count: 1 }] : [];
  const evasionFate = defender.pendingAdvantages ? [{ label: 'Fate Point', count: defender.pendingAdvantages }] : [];
  // Going Stealthy: an attack from stealth is Ambushing (option stealthAttack)
  const hidden = attacker.conditions.stealthy && state.options?.stealthAttack === 'ambushing' ? [{ label: 'Ambushing (from stealth)', count: 1 }] : [];
  // Scary Face: a Disadvantage on tests against its maker or an ally adjacent to it, the evasion included
  const scared = scaryFaceAgainst(state.fighters, attacker, defender) ? [{ label: 'Scary Face', count: 1 }] : [];
  const evasionScared = scaryFaceAgainst(state.fighters, defender, attacker) ? [{ label: 'Scary Face', count: 1 }] : [];
  // "Standard Attack and other Attack Actions": a Burst Attack takes a Disadvantage
  const burst = c.burst ? [{ label: 'Burst Attack', count: 1 }] : [];
  // "How Attacks Work", Size (Larger) and Size (Smaller): one per category from Normal (sheet `size`, U23)
  const size = defSheet.size ?? 0;
  const larger = size > 0 ? [{ label: 'Size (Larger)', count: size }] : [];
  const smaller = size < 0 ? [{ label: 'Size (Smaller)', count: -size }] : [];
  const table = situationEntries({ situations: mapSituations(state, c, kind, weapon) }, kind, state.options?.hazeWeather ?? 'count-once');
  // Charge and Focused Attack give Advantage in their text and in the table (option doubleListedAdvantage, C16)
  const twice = state.options?.doubleListedAdvantage === 'count-twice';
  if (c.action === 'charge' && kind !== 'melee') refuse('charge-not-melee', 'action: a Charge is a melee attack', 'action', seed('Standard Attack and other Attack Actions'));
  if (c.action === 'focused' && attacker.conditions.moved) refuse('focused-after-move', `action: ${attacker.name} has moved this turn and cannot make a Focused Attack`, 'action', seed('Standard Attack and other Attack Actions'));
  const action = c.action === 'charge' || c.action === 'focused' ? [{ label: c.action === 'charge' ? 'Charge' : 'Focused Attack', count: twice ? 2 : 1 }] : [];
  // All-Weapon Attack: one attack per equipped weapon, each with a Disadvantage, the off hand's with another
  const allWeapon = c.action === 'all-weapon' ? [{ label: 'All-Weapon Attack', count: 1 }, ...(c.hand === 'left' ? [{ label: 'off hand', count: 1 }] : [])] : [];
  return {
    kind,
    element,
    tier: c.tier ?? weapon?.tier ?? 1,
    ...(weapon?.clip !== undefined ? { ammunition: weapon.name } : {}),
    ...(weapon?.criticalAilment ? { criticalAilment: weapon.criticalAilment } : {}),
    damage,
    attackTarget: c.attackTarget ?? sheet.scores[score],
    // Brainwashed: no opposing the controller's attacks or its allies'
    evasionTarget: brainwashedBy(state, defender, attacker) ? null : c.evasionTarget !== undefined ? c.evasionTarget : evasion.target,
    ...((c.evasionTarget === undefined && evasion.target !== null) || c.evasionTarget === null ? { evasionScore: evasion.score, evasionParry: evasion.parry } : {}),
    advantages: [...c.advantages, ...baton, ...fate, ...flee, ...action, ...table.advantages, ...hidden, ...larger],
    disadvantages: [...c.disadvantages, ...burst, ...allWeapon, ...table.disadvantages, ...scared, ...smaller],
    ...(evasionFate.length ? { evasionAdvantages: evasionFate } : {}),
    ...(evasionScared.length ? { evasionDisadvantages: evasionScared } : {}),
    ...(c.hand ? { hand: c.hand } : {}),
    ...(c.called ? { called: c.called } : {}),
    fateBlocks: c.fateBlocks,
    chanceAttack: c.chance,
    ...(c.ignoreProtector ? { ignoreProtector: true } : {}),
    ...(c.action ? { action: c.action } : {}),
  };
}

/** Refuses an attack that cannot reach between the two altitude bands (the flight passage after "Difficult Terrain"). */
function requireReach(state: EncounterState, attacker: Fighter, defender: Fighter, melee: boolean, weaponName?: string): void {
  const longRange = !melee && !!weaponOf(state.sheets[attacker.id]!, attacker, weaponName)?.longRange;
  const bar = altitudeBar(attacker, defender, melee, longRange);
  if (bar) refuse('out-of-reach', `defender: ${bar}`, 'defender', ruleCitation('flight'));
}

/** Whether `defender` is Brainwashed by `attacker` or one of its allies (the Brainwashed row of the ailments passage). */
function brainwashedBy(state: Pick<EncounterState, 'fighters'>, defender: Fighter, attacker: Fighter): boolean {
  return defender.ailments.some((a) => a.name === 'brainwashed' && a.source !== undefined && (a.source === attacker.id || state.fighters[a.source]?.side === attacker.side));
}

/** Metres within which a Ballistic attack is at Point Blank ("How Attacks Work", the Advantage table). */
const POINT_BLANK_METRES = 3;

/**
 * The range entries of the Advantage table ("How Attacks Work") for a Ballistic attack whose two
 * characters are on the map (U24): beyond the weapon's `range` it cannot be made (Step One); within
 * half of it, Range (Close); within 3 m and not engaged in melee with it, Range (Point Blank); a Prone
 * target not at Point Blank, Shooting at Prone. Off the map, or without a range for Close, they are
 * the declaration's; on it, a declared entry the distance contradicts is refused.
 */
function mapSituations(state: Pick<EncounterState, 'fighters'>, c: AttackCommand, kind: AttackKind, weapon: { readonly range?: number | undefined } | undefined): NonNullable<AttackCommand['situations']> {
  const declared = c.situations ?? [];
  const a = state.fighters[c.attacker]!;
  const d = state.fighters[c.defender]!;
  const metres = kind === 'ballistic' && a.id !== d.id ? separation(a, d) : null;
  if (metres === null) return declared;
  const range = c.damage === undefined ? weapon?.range : undefined;
  if (range !== undefined && metres > range) refuse('out-of-range', `defender: ${d.name} is ${metres} m away, beyond the ${range} m of ${a.name}'s weapon`, 'defender', seed('How Attacks Work'));
  const pointBlank = metres <= POINT_BLANK_METRES && !adjacent(a, d);
  const holds: Partial<Record<(typeof declared)[number], boolean>> = { 'point-blank': pointBlank, 'shooting-at-prone': d.conditions.prone && !pointBlank, ...(range !== undefined ? { 'close-range': metres <= range / 2 } : {}) };
  declared.forEach((n, i) => {
    if (holds[n] === false) refuse('situation-off-map', `situations.${i}: ${SITUATIONS[n].label} does not hold: ${d.name} is ${metres} m from ${a.name}${d.conditions.prone ? '' : ' and not Prone'}`, `situations.${i}`, seed('How Attacks Work'));
  });
  return [...declared, ...Object.entries(holds).filter(([, h]) => h).map(([n]) => n as (typeof declared)[number])];
}

/**
 * The Advantage table entries a declaration names, checked against the attack's kind. Bad Weather
 * and Obscuring Haze describe the same smoke or fog (option hazeWeather, C3): counted once, or both.
 */
function situationEntries(c: Pick<AttackCommand, 'situations'>, kind: AttackKind, haze: D100Options['hazeWeather']): { advantages: Counted[]; disadvantages: Counted[] } {
  const names = [...new Set(c.situations ?? [])];
  const advantages: Counted[] = [];
  const disadvantages: Counted[] = [];
  names.forEach((n, i) => {
    const e: { label: string; sign: 1 | -1; kind?: AttackKind } = SITUATIONS[n];
    if (e.kind && e.kind !== kind) refuse('situation-kind', `situations.${i}: ${e.label} holds for ${e.kind} attacks only, not a ${kind} attack`, `situations.${i}`, seed('How Attacks Work'));
    if (n === 'obscuring-haze' && haze === 'count-once' && names.includes('bad-weather')) return;
    (e.sign > 0 ? advantages : disadvantages).push({ label: e.label, count: 1 });
  });
  return { advantages, disadvantages };
}

/**
 * Exact odds of a declared attack before it is rolled, from the same spec the table would resolve
 * (weapon, evasion skill, Baton Pass Advantages). It needs only what a viewer is shown of the two
 * characters, so a client computes it from its own view.
 */
export function declaredAttackOdds(state: Pick<EncounterState, 'fighters' | 'sheets' | 'oneMore' | 'options'>, c: AttackCommand, fateReroll = false): AttackOdds {
  const attacker = Object.prototype.hasOwnProperty.call(state.fighters, c.attacker) ? state.fighters[c.attacker] : undefined;
  const defender = Object.prototype.hasOwnProperty.call(state.fighters, c.defender) ? state.fighters[c.defender] : undefined;
  if (!attacker || !state.sheets[c.attacker]) refuse('unknown-character', `attacker: no character "${c.attacker}" in this encounter`, 'attacker');
  if (!defender || !state.sheets[c.defender]) refuse('unknown-character', `defender: no character "${c.defender}" in this encounter`, 'defender');
  return attackOdds(attacker, defender, attackSpec(state, c), state.options, protectorOf(state, attacker, defender, c), fateReroll);
}

export type TestCommand = Extract<EncounterCommand, { type: 'test' }>;

/**
 * The modifiers of a plain test ("How Attacks Work": each Advantage +10, each Disadvantage -10): the
 * declared ones, the Fate Point Advantages waiting for the character's next test ("Fate Points"), and
 * the burdens it carries (Fatigue, ailments, Injuries, terrain).
 */
export function testModifiers(f: Fighter, c: Pick<TestCommand, 'score' | 'advantages' | 'disadvantages' | 'hand'>, options: D100Options): Modifier[] {
  return [
    ...c.advantages.filter((a) => a.count).map((a) => modifier('advantage', a.label, 10 * a.count)),
    ...fateModifiers(f),
    ...c.disadvantages.filter((a) => a.count).map((a) => modifier('disadvantage', a.label, -10 * a.count)),
    ...testBurdens(f, { score: c.score, ...(c.hand ? { hand: c.hand } : {}) }, options),
  ];
}

/**
 * Exact odds of a declared test before it is rolled, with the modifiers the table would apply; from
 * what the viewer is shown of the one character, so a client computes it from its own view.
 */
export function declaredTestOdds(state: Pick<EncounterState, 'fighters' | 'options'>, c: TestCommand, fateReroll = false): TestOdds & { readonly target: number; readonly modifiers: readonly Modifier[] } {
  const f = Object.prototype.hasOwnProperty.call(state.fighters, c.who) ? state.fighters[c.who] : undefined;
  if (!f) refuse('unknown-character', `who: no character "${c.who}" in this encounter`, 'who');
  const mods = testModifiers(f, c, state.options);
  const base = c.target ?? f.scores[c.score];
  return { ...testOdds(base, mods, state.options, fateReroll), target: base + sumModifiers(mods), modifiers: mods };
}

const TRAINING = { untrained: -20, known: 0, trained: 10, experienced: 20, master: 30 } as const;

/**
 * The defender's best evasion skill, else its Agility; with the Score behind it and whether it is a
 * Parry. Against a mental attack under evasionVsMagic=no-dodge-vs-mental, Dodge, Acrobatics and the
 * plain Agility evasion do not count, and with nothing else the defender does not oppose.
 */
function evasionOf(sheet: D100Sheet, mental = false): { target: number | null; score: Score; parry: boolean } {
  let best: { target: number | null; score: Score; parry: boolean } = { target: mental ? null : sheet.scores.agility, score: 'agility', parry: false };
  let found = false;
  for (const sk of sheet.skills) {
    const text = `${sk.name} ${sk.focus ?? ''}`;
    if (!/acrobatics|parry|dodge|awareness|evasion/i.test(text)) continue;
    if (mental && /acrobatics|dodge/i.test(text)) continue;
    const target = sheet.scores[sk.score] + TRAINING[sk.training];
    if (!found || target > (best.target ?? -Infinity)) best = { target, score: sk.score, parry: /parry/i.test(text) };
    found = true;
  }
  return best;
}

/** "Fate Points" (Advantage): the Advantages a Fate Point bought for the fighter's next test, which that test spends. */
function fateModifiers(f: Fighter): Modifier[] {
  return f.pendingAdvantages ? [modifier('advantage', 'Fate Point', 10 * f.pendingAdvantages)] : [];
}

/** The best of a character's skills matching `pattern`, else the best of the fallback Scores (untrained: at -20). */
function bestSkill(sheet: D100Sheet, pattern: RegExp, fallback: readonly Score[], untrained = false): { target: number; score: Score } {
  let best = fallback.map((sc) => ({ target: sheet.scores[sc] + (untrained ? TRAINING.untrained : 0), score: sc })).reduce((a, b) => (b.target > a.target ? b : a));
  for (const sk of sheet.skills) if (pattern.test(`${sk.name} ${sk.focus ?? ''}`) && sheet.scores[sk.score] + TRAINING[sk.training] > best.target) best = { target: sheet.scores[sk.score] + TRAINING[sk.training], score: sk.score };
  return best;
}

/** The Disadvantages every test of the fighter carries (Fatigue, ailments), its Injuries' and its terrain's on this test. */
function testBurdens(f: Fighter, test: { score?: Score; hand?: 'right' | 'left' }, options: D100Options, terrain = true): Modifier[] {
  return [...disadvantagesOnAllTests(f), ...ailmentScoreDisadvantages(f, test.score), ...injuryTestDisadvantages(f.injuries, f.injuriesIgnored, test, options), ...(terrain ? terrainDisadvantages(f, test.score ?? null, options) : [])].map((d) => modifier('disadvantage', d.label, -10 * d.count));
}

export function summarize(r: AttackResult): AttackSummary {
  const o = r.outcome;
  return {
    hit: r.hit,
    roll: r.attack.roll,
    evasionRoll: r.evasion?.roll ?? null,
    critical: r.critical,
    fumble: r.fumble,
    location: o?.location.location ?? null,
    damage: o?.damage ?? null,
    defense: o ? o.defense : null,
    wounds: o?.wounds ?? [],
    savage: o?.savage ?? [],
    repelled: r.repelled,
    oneMore: r.oneMore,
    ...(r.protector ? { protectedBy: r.protector.id } : {}),
    ...(r.condemnedRolls ? { condemnedRolls: r.condemnedRolls } : {}),
    ...(r.tieRolls ? { tieRolls: r.tieRolls } : {}),
    ...(o && !r.repelled && o.criticalAilment ? { criticalAilment: o.criticalAilment } : {}),
    ...(r.evasionSpent ? { evasionSpent: true } : {}),
    ...(o?.fateSpent ? { fateSpent: o.fateSpent } : {}),
  };
}

/**
 * The character protecting `defender` from this attack ("Defending and Protecting", Protect), or
 * null. A Called Attack may ignore the protector (with one more Disadvantage).
 */
function protectorOf(state: Pick<EncounterState, 'fighters'>, attacker: Fighter, defender: Fighter, c: Pick<AttackCommand, 'called' | 'ignoreProtector'>): Fighter | null {
  const p = protectorFor(state.fighters, attacker.id, defender.id);
  if (c.ignoreProtector) {
    const cite = seed('Defending and Protecting');
    if (!c.called) refuse('ignore-protector-uncalled', 'ignoreProtector: only a Called Attack may ignore a protector', 'ignoreProtector', cite);
    if (!p) refuse('no-protector', `ignoreProtector: nobody protects ${defender.name}`, 'ignoreProtector', cite);
    return null;
  }
  return p;
}

function enemiesOf(state: EncounterState, who: string): Fighter[] {
  const side = state.fighters[who]!.side;
  return Object.values(state.fighters).filter((f) => f.side !== side);
}

/** The next character in initiative order still in the fight, after `who`; null at the end of the round. */
function nextInOrder(state: EncounterState, who: string | null): string | null {
  return nextIn(state.order, who, (id) => state.fighters[id]);
}

function turnStartEvent(state: EncounterState, who: string, round: number, table: DiceSource, group: number): EncounterEvent {
  const dice = drawIn(table, `turn:${who}`);
  const rec = recordingDice(dice);
  const f = state.fighters[who]!;
  const rate = state.miasma ?? 0;
  const tests = turnStartTests(f, state.sheets[who]?.kind === 'evoker', rate);
  // "Fate Points": an Advantage bought beforehand goes to the first test the turn's start makes, and only to it
  let fate: FateSpentOn | undefined;
  const fateFor = (test: FateSpentOn['test']): Modifier[] => {
    if (fate || !f.pendingAdvantages) return [];
    fate = { test, advantages: f.pendingAdvantages };
    return fateModifiers(f);
  };
  // Blood Loss: a free Toughness or Endurance (Injury) test at the start of the bleeder's turn
  let bloodLoss: BloodLossRecord | undefined;
  if (tests.includes('bloodLoss')) {
    const stemmed = !!f.conditions.stemming;
    const choice = bloodLossChoice(state.sheets[who]!, f);
    // the ailments it still suffers once its turn has begun burden the test
    const g = { ...f, ailments: ailmentsAtTurnStart(f.ailments, f.turnsStarted + 1).active };
    const mods = [...(stemmed ? [modifier('advantage', STEM_LABEL, 10 * STEM_ADVANTAGES)] : []), ...fateFor('bloodLoss'), ...testBurdens(g, { score: choice.score }, state.options, false)];
    const t = resolveTest(choice.base, rec.dice.die(100), mods, state.options);
    const { fateSpent } = bloodLossTest(f, t, state.options);
    bloodLoss = { test: choice.test, chosen: choice.chosen, base: choice.base, otherBase: choice.otherBase, target: t.target, roll: t.roll, success: t.success, degrees: t.degrees, stemmed, modifiers: mods.map((m) => ({ label: m.label, value: m.value })), ...(fateSpent ? { fateSpent } : {}) };
  }
  // Confused: an Intelligence test at the start of its turn; its DoF say what it does (option confusedBands)
  let confused: ConfusedRecord | undefined;
  if (tests.includes('confused')) {
    const t = resolveTest(f.scores.intelligence, dice.die(100), [...fateFor('confused'), ...testBurdens(f, { score: 'intelligence' }, state.options)], state.options);
    const acts = confusedActs(t, state.options);
    const dropped = acts.hand ? { hand: acts.hand, dropped: heldIn(state.sheets[who]!, f, acts.hand) } : {};
    confused = { target: t.target, roll: t.roll, success: t.success, degrees: t.degrees, acts: acts.acts, ...dropped };
  }
  // "Unprotected from Miasma": an Evoker with no living Persona tests Willpower each round of a battle in the Sea of Chaos
  let miasma: TestRecord | undefined;
  if (tests.includes('miasma')) {
    const t = resolveTest(f.scores.willpower, dice.die(100), [...fateFor('miasma'), ...testBurdens(f, { score: 'willpower' }, state.options)], state.options);
    miasma = { target: t.target, roll: t.roll, success: t.success, stress: miasmaStress(f, rate, t) };
  }
  const spent = fate as FateSpentOn | undefined;
  // Panicked: a failed test against the source by the margin spends this Turn's Move and Action fleeing from it
  const panic = f.conditions.mustFlee ? ailmentsAtTurnStart(f.ailments, f.turnsStarted + 1).active.find((a) => a.name === 'panicked' && a.source) : undefined;
  return { type: 'turn-started', data: { group, id: who, round, dice: rec.drawn, ...(confused ? { confused } : {}), ...(miasma ? { miasma } : {}), ...(bloodLoss ? { bloodLoss } : {}), ...(spent ? { fate: spent } : {}), ...(panic?.source ? { fleeing: panic.source } : {}) } };
}

/** A score as it stands now: Toughness less its decay ("Score Decay"), the others as on the sheet. */
function scoreNow(f: Fighter, score: Score): number {
  return score === 'toughness' ? toughness(f) : f.scores[score];
}

/**
 * Endurance (Injury): the best Endurance skill on the sheet, untrained (Toughness -20) without one. The
 * Blood Loss test, and the opposing test against a Grapple, Push or Knockdown, take it.
 */
function enduranceInjury(sheet: D100Sheet, f: Fighter): { target: number; score: Score } {
  const skills = sheet.skills.filter((sk) => /endurance/i.test(`${sk.name} ${sk.focus ?? ''}`)).map((sk) => ({ target: scoreNow(f, sk.score) + TRAINING[sk.training], score: sk.score }));
  return skills.length ? skills.reduce((a, b) => (b.target > a.target ? b : a)) : { target: toughness(f) + TRAINING.untrained, score: 'toughness' };
}

/**
 * "Blood Loss": the bleeder tests Toughness or Endurance (Injury). The choice is the bleeder's; its
 * player may declare it ahead (`bleeding-test`), since the test is rolled as the turn starts, and
 * without a declaration the engine takes the better target for it.
 */
function bloodLossChoice(sheet: D100Sheet, f: Fighter): { test: BloodLossTestName; chosen: 'declared' | 'better'; base: number; otherBase: number; score: Score } {
  const endurance = enduranceInjury(sheet, f);
  const of = { toughness: { target: toughness(f), score: 'toughness' as Score }, endurance };
  const declared = f.conditions.bleedingTest;
  const test: BloodLossTestName = declared ?? (endurance.target > toughness(f) ? 'endurance' : 'toughness');
  const other: BloodLossTestName = test === 'toughness' ? 'endurance' : 'toughness';
  return { test, chosen: declared ? 'declared' : 'better', base: of[test].target, otherBase: of[other].target, score: of[test].score };
}

/** "Blood Loss": stemming one's own bleeding takes the Action and gives three Advantages on the test. */
const STEM_LABEL = 'stemming the bleeding';
/** Panicked: what the flight spends the Turn's Move and Action on. */
const FLIGHT_LABEL = 'fleeing (Panicked)';
/** Confused: a start-of-turn test failed by 0 or 1 DoF spends the Turn doing nothing; by 2 or 3, the Action dropping what one hand holds. */
const IDLE_LABEL = 'doing nothing (Confused)';
const dropLabel = (hand: 'left' | 'right') => `dropping what its ${hand} hand holds (Confused)`;

/** Whether a Confused character's owed attack is the one on itself (5+ DoF), not on the nearest character. */
export const owedOnItself = (owed: Pick<ConfusedAttack, 'who' | 'candidates'>): boolean => owed.candidates[0] === owed.who;

/** Whom a Confused character's owed attack is on, in words. */
const owedTarget = (owed: ConfusedAttack) => (owedOnItself(owed) ? 'itself' : 'the nearest character');

/**
 * A Turn an ailment has taken (the ailments passage): a Panicked character's flight is its Move and
 * its Action, and a Confused one whose test named "nothing" does nothing that Turn (it still opposes
 * attacks, which spend neither). Any other action that would spend the Move or Action is refused, a
 * One More included. The flight itself is one Move away from the source (see `move`).
 */
function refuseTakenTurn(state: EncounterState, cost: Cost, event: EncounterEvent): void {
  const f = state.fighters[cost.who];
  if (!f || state.current !== f.id) return;
  const what = cost.action ?? cost.move ?? 'act';
  // Confused at 4+ DoF: its Action is the attack on the nearest character (checked with the attack itself)
  const owed = state.confusedAttack?.who === f.id && cost.action && event.type !== 'attack-resolved' && event.type !== 'power-wasted';
  if (owed) refuse('confused-nearest', `type: ${f.name} is Confused and its Action this Turn is an attack on ${owedTarget(state.confusedAttack!)}: no ${what}`, 'type', ruleCitation('ailments'));
  const source = f.conditions.fleeing;
  if (source) refuse('fleeing', `type: ${f.name} is Panicked and spends this Turn's Move and Action fleeing from ${state.fighters[source]?.name ?? source}: no ${what}`, 'type', ruleCitation('ailments'));
  if (spentOf(f).action === IDLE_LABEL) refuse('confused', `type: ${f.name} is Confused and does nothing this Turn (its Intelligence test failed by 0 or 1 DoF), though it may still oppose attacks: no ${what}`, 'type', ruleCitation('ailments'));
}

const STEM_ADVANTAGES = 3;

/**
 * The start-of-turn Blood Loss test as recorded; a record from before the test counted Fatigue and
 * ailments carries no modifiers, and is folded as it was then made (its Injuries' Disadvantages only).
 */
function bloodLossRoll(f: Fighter, roll: number, recorded: BloodLossRecord | undefined, options: D100Options): TestResult {
  const mods = recorded ? recorded.modifiers.map((m) => modifier(m.value >= 0 ? 'advantage' : 'disadvantage', m.label, m.value)) : injuryTestDisadvantages(f.injuries, f.injuriesIgnored, { score: 'toughness' }, options).map((d) => modifier('disadvantage', d.label, -10 * d.count));
  return resolveTest(recorded?.base ?? toughness(f), roll, mods, options);
}

/**
 * The flight of a Panicked character in the Turn it flees (the ailments passage): one Move, ending
 * further from the source than it began when both stand on the map, altitude bands counted as height
 * (the flight passage). `moved` is the character where the Move leaves it. Returns the source fled
 * from, or null for an ordinary Move.
 */
function fleeingMove(state: EncounterState, f: Fighter, moved: Fighter): string | null {
  const source = f.conditions.fleeing;
  if (!source || state.current !== f.id) return null;
  const cite = ruleCitation('ailments');
  const s = state.fighters[source];
  if (f.conditions.moved) refuse('fleeing', `who: ${f.name} has made its flight from ${s?.name ?? source} this Turn; a Panicked flight is one Move`, 'who', cite);
  const before = s ? separation(f, s) : null;
  const after = s ? separation(moved, s) : null;
  const to = moved.conditions.position!;
  if (before !== null && after !== null && after <= before) refuse('flee-away', `x: ${f.name} is Panicked and flees from ${s!.name}: (${to.x}, ${to.y}) is ${after} m from it, no further than the ${before} m it starts at`, 'x', cite);
  return source;
}

/**
 * Sources of Hindrance on a Move ("Hindered Movement"): being Prone, a leg Injury of Broken Foot or
 * worse, and Difficult Terrain crossed at Hindered speed.
 */
function hindranceOf(f: Fighter, fullSpeed = false, stealthFullSpeed = false): number {
  let n = 0;
  // Stealth: moving in stealth is Hindered, unless it risks full speed
  if (f.conditions.stealthy && !stealthFullSpeed) n++;
  if (f.conditions.prone) n++;
  if (f.injuries.some((i) => (i.location === 'right-leg' || i.location === 'left-leg') && i.level >= 2 && !f.injuriesIgnored.includes(i.location))) n++;
  if (terrainOf(f) !== null && !fullSpeed) n++;
  return n;
}

/**
 * A flyer's change of altitude band on a Move (the flight passage after "Difficult Terrain"): one band
 * up or down, as part of a Basic Move, by a character that can fly and is not falling. Returns the new
 * band, or undefined when it stays.
 */
function flightMove(state: EncounterState, f: Fighter, c: { altitude?: Altitude | undefined; run: boolean }): Altitude | undefined {
  if (c.altitude === undefined || c.altitude === altitudeOf(f)) return undefined;
  const cite = ruleCitation('flight');
  if (!state.sheets[f.id]!.flight) refuse('cannot-fly', `altitude: ${f.name} cannot fly (no flight on its sheet)`, 'altitude', cite);
  if (f.conditions.falling) refuse('falling', `altitude: ${f.name} is falling and cannot climb or dive`, 'altitude', cite);
  if (c.run) refuse('band-on-run', 'altitude: the band changes as part of a Basic Move, not a Run', 'altitude', cite);
  const n = bandsCrossed(altitudeOf(f), c.altitude);
  if (n > 1) refuse('two-bands', `altitude: a Move changes the band by one; ${altitudeOf(f)} to ${c.altitude} is ${n}`, 'altitude', cite);
  return c.altitude;
}

/** What a full-speed crossing of Difficult Terrain came to ("Difficult Terrain"). */
export interface TerrainTestRecord {
  readonly target: number;
  readonly roll: number;
  readonly success: boolean;
  readonly degrees: number;
  readonly prone: boolean;
  /** Damaging terrain: its damage plus the degrees of failure, with the location die; null otherwise. */
  readonly damage: number | null;
  readonly locationRoll?: number;
}

/**
 * "Difficult Terrain": crossing it at full speed takes an Athletics (Running) or Acrobatics (Balance)
 * test with the Difficult Terrain Number as Disadvantages.
 */
function fullSpeedTest(state: EncounterState, f: Fighter, dice: DiceSource): TerrainTestRecord {
  const terrain = terrainOf(f);
  if (terrain === null) refuse('no-terrain', `fullSpeed: ${f.name} is not in Difficult Terrain`, 'fullSpeed', seed('Difficult Terrain'));
  const skill = bestSkill(state.sheets[f.id]!, /athletic|acrobat|running|balance/i, ['agility']);
  const dtn = f.conditions.difficultTerrain;
  const mods: Modifier[] = [...fateModifiers(f), ...testBurdens(f, { score: skill.score }, state.options, false), ...(dtn ? [modifier('disadvantage', 'Difficult Terrain Number', -10 * dtn)] : [])];
  const t = resolveTest(skill.target, dice.die(100), mods, state.options);
  const failure = fullSpeedFailure(terrain, t, f.conditions.terrainDamage ?? 0);
  return { target: t.target, roll: t.roll, success: t.success, degrees: t.degrees, prone: failure.prone, damage: failure.damage, ...(failure.damage !== null ? { locationRoll: dice.die(100) } : {}) };
}

/** Damaging terrain's hit: its damage and the degrees of failure against Defense (Armour counts) at a rolled location. */
function landTerrain(f: Fighter, t: TerrainTestRecord, options: D100Options) {
  const dof = t.success ? 0 : t.degrees;
  const steps: Modifier[] = [modifier('terrain', 'Damaging terrain', (t.damage ?? 0) - dof), ...(dof ? [modifier('degrees', 'Degrees of Failure', dof)] : [])];
  return landBlow(f, steps, t.locationRoll ?? 1, false, options).target;
}

/** The moments a grappled character's escape test is called for (option grappleEscape, C6). */
const GRAPPLE_TRIGGERS: Readonly<Record<D100Options['grappleEscape'], readonly string[]>> = {
  union: ['move', 'action', 'attack', 'evasion'],
  'action-text': ['move', 'action', 'attack', 'evasion'],
  'condition-text': ['move', 'attack'],
};

/** A grappled character must first win its escape test ("Grappled and Immobilised"). */
function grappleBlocks(state: EncounterState, f: Fighter, what: 'move' | 'attack'): void {
  const by = f.conditions.grappledBy;
  if (by === null || state.fighters[by]?.out) return;
  refuse('grappled', `${f.name} is grappled by ${state.fighters[by]!.name}: to ${what} it must first win an escape test (escape-grapple)`, 'type', ruleCitation('grappled'));
}

/** The enemies a character leaves, checked: enemies, in the fight, each named once. */
function engagedEnemies(state: EncounterState, f: Fighter, ids: readonly string[]): Fighter[] {
  if (new Set(ids).size !== ids.length) refuse('duplicate-enemy', 'from: each enemy is named once', 'from', ruleCitation('disengage'));
  return ids.map((e, i) => {
    const x = fighter(state, e, `from.${i}`);
    if (x.side === f.side) refuse('not-an-enemy', `from.${i}: ${x.name} is not an enemy of ${f.name}`, `from.${i}`, ruleCitation('disengage'));
    if (x.out) refuse('enemy-out', `from.${i}: ${x.name} is out of the fight`, `from.${i}`, ruleCitation('disengage'));
    return x;
  });
}

/** An opposed test recorded; a tie under opposedTie=reroll is rolled again from the actor's `dice` and the enemy's pool. */
function opposedRecord(enemy: Fighter, own: TestResult, target: number, theirs: TestResult | null, theirTarget: number, options: D100Options, dice: DiceSource): OpposedRecord {
  const r = resolveOpposed(own, theirs, options, { actor: () => dice.die(100), reactor: () => drawIn(dice, `target:${enemy.id}`).die(100) });
  return { enemy: enemy.id, target, roll: own.roll, enemyTarget: theirs ? theirTarget : null, enemyRoll: theirs?.roll ?? null, won: r.actorWins, ...(r.tieRolls ? { tieRolls: r.tieRolls } : {}) };
}

/** The actor and the enemy in the fight that an Analyse, a Distract or a Scary Face names. */
function enemyInFight(state: EncounterState, who: string, target: string): [Fighter, Fighter] {
  const f = fighter(state, who, 'who');
  const t = fighter(state, target, 'target');
  if (t.side === f.side) refuse('not-an-enemy', `target: ${t.name} is not an enemy of ${f.name}`, 'target', DISRUPT_CITATION);
  if (t.out) refuse('target-out', `target: ${t.name} is out of the fight`, 'target', DISRUPT_CITATION);
  return [f, t];
}

/** "Chance Attacks": who may make one, when, with what. */
function chanceAllowed(state: EncounterState, a: Fighter, d: Fighter, c: Extract<EncounterCommand, { type: 'attack' }>, gm: boolean, actor: Actor): void {
  const cite = ruleCitation('chanceAttacks');
  if (state.current === null) refuse('not-started', 'the encounter has not started', 'type');
  if (!controls(state, actor, a.id)) refuse('not-your-character', `attacker: you do not play ${a.name}`, 'attacker');
  if (a.ailments.length) refuse('chance-ailing', `chance: ${a.name} suffers an ailment (${a.ailments.map((x) => AILMENTS[x.name].title).join(', ')}) and cannot make Chance Attacks`, 'chance', cite);
  if (a.conditions.grappledBy !== null) refuse('chance-grappled', `chance: ${a.name} is grappled and can make no Chance Attacks`, 'chance', ruleCitation('grapple'));
  if (state.options.chanceAttackLimit === 'one-per-own-turn' && a.chance.sinceTurn) refuse('chance-used', `chance: ${a.name} has made a Chance Attack since the start of its last Turn`, 'chance', cite);
  if (a.chance.targetsThisRound.includes(d.id)) refuse('chance-same-enemy', `chance: ${a.name} has already made a Chance Attack on ${d.name} this Round`, 'chance', cite);
  const sheet = state.sheets[a.id]!;
  const weapon = weaponOf(sheet, state.fighters[c.attacker]!, c.weapon);
  const ballistic = c.kind === 'ballistic' || (c.kind === undefined && weapon !== undefined && (weapon.class === 'pistol' || weapon.class === 'basic' || weapon.class === 'heavy'));
  if (ballistic && weapon?.class !== 'pistol') refuse('chance-ballistic', `weapon: no Chance Attacks in melee with a Ballistic weapon other than a pistol${weapon ? ` (${weapon.name} is ${weapon.class})` : ''}`, 'weapon', cite);
  const trigger = c.trigger ?? 'left-melee';
  if ((trigger === 'flee' || trigger === 'failed-grapple') && !d.openings.some((o) => o.by === a.id && o.trigger === trigger)) {
    refuse('chance-no-opening', `trigger: ${d.name} gave ${a.name} no ${trigger === 'flee' ? 'Flee' : 'failed Grapple'} to answer`, 'trigger', cite);
  }
}

/** What a Burst Attack bought, once its hit is known. */
interface BurstBuy {
  readonly purchases: readonly ({ extraTarget: string } | { extraWound: string })[];
  readonly wounds: Readonly<Record<string, number>>;
}

/**
 * A Burst Attack's purchases (option: U18 reading, see docs/d100/rules.md), checked before the attack
 * is rolled: each names another enemy in the fight, or a target the burst has hit. What they buy waits
 * on the hit: as many, in order, as the attack's Degrees of Success up to the weapon's Burst rating.
 */
function burstPlan(state: EncounterState, c: Extract<EncounterCommand, { type: 'attack' }>): (degrees: number) => BurstBuy {
  const cite = ruleCitation('burst');
  const attacker = state.fighters[c.attacker]!;
  const weapon = weaponOf(state.sheets[c.attacker]!, attacker, c.weapon);
  if (!weapon?.burst) refuse('no-burst', `burst: ${weapon ? weapon.name : 'the attack'} has no Burst quality`, 'burst', cite);
  const hitSet = [c.defender];
  for (const [i, p] of c.burst!.entries()) {
    if ('extraTarget' in p) {
      const t = fighter(state, p.extraTarget, `burst.${i}.extraTarget`);
      if (t.side === attacker.side || t.out || hitSet.includes(t.id)) refuse('bad-burst-target', `burst.${i}.extraTarget: ${t.name} is not another enemy in the fight`, `burst.${i}.extraTarget`, cite);
      hitSet.push(t.id);
    } else if (!hitSet.includes(p.extraWound)) refuse('bad-burst-wound', `burst.${i}.extraWound: "${p.extraWound}" is not a target this burst has hit`, `burst.${i}.extraWound`, cite);
  }
  return (degrees) => {
    const purchases = c.burst!.slice(0, Math.min(degrees, weapon.burst!));
    const wounds: Record<string, number> = {};
    for (const p of purchases) if ('extraWound' in p) wounds[p.extraWound] = (wounds[p.extraWound] ?? 0) + 1;
    return { purchases, wounds };
  };
}

/** Extra targets of a burst: hit with the attack's degrees, no evasion, a location each (U18). */
function burstHits(state: EncounterState, attacker: Fighter, spec: AttackSpec, r: AttackResult, purchases: readonly ({ extraTarget: string } | { extraWound: string })[], wounds: Readonly<Record<string, number>>, dice: DiceSource): { hits: BurstHit[]; fighters: Fighter[] } {
  const hits: BurstHit[] = [];
  const fighters: Fighter[] = [];
  for (const p of purchases) {
    if (!('extraTarget' in p)) continue;
    const t = state.fighters[p.extraTarget]!;
    const mods = attackModifiers(attacker, t, spec, state.options);
    const net = Math.round(sumModifiers(mods) / 10);
    const steps: Modifier[] = [modifier('weapon', 'weapon damage', spec.damage)];
    if (spec.kind === 'melee') steps.push(modifier('strength-bonus', 'Strength Bonus', bonus(attacker.scores.strength)));
    if (r.attack.degreesOfSuccess) steps.push(modifier('degrees', 'attacker Degrees of Success', r.attack.degreesOfSuccess));
    if (net > 0) steps.push(modifier('advantage', 'net Advantage', net));
    const location = state.options.hitLocation === 'reversed-attack-roll' ? hitLocation(r.attack.roll, state.options) : hitLocation(drawIn(dice, 'location').die(100), state.options);
    const landed = landHit(t, { damageSteps: steps, element: spec.element, tier: spec.tier ?? 1, kind: spec.kind, location, critical: r.critical, ignoreArmour: !!spec.ignoreArmour, fateBlocks: 0, reflected: false, extraWounds: wounds[t.id] ?? 0 }, state.options);
    hits.push({ id: t.id, location: location.location, damage: landed.outcome.damage, defense: landed.outcome.defense, wounds: landed.outcome.wounds, out: landed.outcome.out });
    fighters.push(landed.target);
  }
  return { hits, fighters };
}

/**
 * "Fate Points", Reroll: the spender's test in the command just made is rolled again; the result
 * the option rerollKeeps names stands, and the command is resolved anew from it.
 */
function reroll(state: EncounterState, f: Fighter, which: 'attack' | 'evasion' | 'test' | undefined, host: DiceSource, group: number, forcedBy?: string): EncounterEvent {
  const cite = forcedBy ? DISRUPT_CITATION : ruleCitation('fatePoints');
  const last = state.groups?.top[0];
  // Distract forces the worse result (the higher roll); a Fate Point's own reroll keeps by option rerollKeeps
  const forced = forcedBy ? { forcedBy } : {};
  const keep = (oldRoll: number, newRoll: number) => (forcedBy ? Math.max(oldRoll, newRoll) : state.options.rerollKeeps === 'second' ? newRoll : Math.min(oldRoll, newRoll));
  if (last?.type === 'test-rolled' && last.data.who === f.id && (which ?? 'test') === 'test') {
    const newRoll = drawIn(host, 'reroll').die(100);
    const kept = keep(last.data.roll, newRoll);
    const before = beforeLastCommand(state);
    const mods = last.data.modifiers.map((m) => modifier(m.value >= 0 ? 'advantage' : 'disadvantage', m.label, m.value));
    const t = resolveTest(last.data.target, kept, mods, before.options);
    const replacement: EncounterEvent = { type: 'test-rolled', data: { ...last.data, roll: t.roll, success: t.success, degrees: t.success ? t.degreesOfSuccess : t.degreesOfFailure } };
    return { type: 'test-rerolled', data: { group, who: f.id, test: 'test', oldRoll: last.data.roll, newRoll, kept, replacement, ...forced } };
  }
  if (last?.type !== 'attack-resolved' || last.data.summary.burst) refuse('nothing-to-reroll', 'spend: a Reroll takes back a test of the command just made (an attack or a test), and the last command made none', 'spend', cite);
  const d = last.data;
  const side = which ?? (d.attacker === f.id ? 'attack' : 'evasion');
  if (side === 'test' || (side === 'attack' && d.attacker !== f.id) || (side === 'evasion' && d.defender !== f.id)) refuse('not-your-test', `test: ${f.name} made no ${side} test in the last command`, 'test', cite);
  if (d.summary.condemnedRolls) refuse('already-rerolled', 'spend: an attack on a Condemned target has already been rolled again', 'spend', cite);
  if (side === 'evasion' && d.summary.evasionRoll === null) refuse('no-evasion', `test: ${f.name} made no evasion test in the last attack`, 'test', cite);
  const before = beforeLastCommand(state);
  const attacker = before.fighters[d.attacker]!;
  const defender = before.fighters[d.defender]!;
  const oldRoll = side === 'attack' ? d.dice[0]! : d.dice[1]!;
  const newRoll = drawIn(host, 'reroll').die(100);
  const kept = keep(oldRoll, newRoll);
  // The attack roll, then the evasion roll if one is made, keep their values; any later die is new, from the pool its use names.
  const prefix = side === 'attack' ? [kept, ...(d.summary.evasionRoll !== null ? [d.dice[1]!] : [])] : [d.dice[0]!, kept];
  let i = 0;
  const after = (from: DiceSource): DiceSource => ({ kind: host.kind, die: (sides) => (i < prefix.length ? prefix[i++]! : from.die(sides)) });
  const dice: TableDice = { ...after(host), in: (name) => after(drawIn(host, name)) };
  const { dice: logging, drawn } = recordingPools(dice);
  const r = resolveAttack(attacker, defender, d.spec, logging, before.options, d.protector ? before.fighters[d.protector]! : null);
  const replacement: EncounterEvent = { type: 'attack-resolved', data: { ...d, dice: drawn, summary: summarize(r) } };
  return { type: 'test-rerolled', data: { group, who: f.id, test: side, oldRoll, newRoll, kept, replacement, ...forced } };
}

/** The events of the commands in effect, by command, oldest first. */
export function groupsOf(state: EncounterState): (readonly EncounterEvent[])[] {
  return chainItems(state.groups);
}

/**
 * The state before a command began, kept for every CHECKPOINT_EVERY-th command in effect so that undo
 * (and a Reroll, which resolves the last command anew) folds at most that many commands again rather
 * than the whole encounter. Kept beside the chain, not in it: a state copied some other way only loses
 * the shortcut, never the answer.
 */
const CHECKPOINT_EVERY = 32;
const checkpoints = new WeakMap<Chain<readonly EncounterEvent[]>, EncounterState>();

/** Puts `group` on `below`; `before` is the state the group began from (the fold of `below`), if known. */
function pushGroup(below: Chain<readonly EncounterEvent[]> | null, group: readonly EncounterEvent[], before: EncounterState | undefined): Chain<readonly EncounterEvent[]> {
  const chain = chainPush(below, group);
  if (before && chain.length % CHECKPOINT_EVERY === 1) checkpoints.set(chain, before);
  return chain;
}

/** The state as it was before the last command in effect (the initial state when there is none). */
function beforeLastCommand(state: EncounterState): EncounterState {
  const top = state.groups;
  const pending: (readonly EncounterEvent[])[] = [];
  let s: EncounterState | undefined;
  for (let c = top; c; c = c.below) {
    if (c !== top) pending.push(c.top);
    s = checkpoints.get(c);
    if (s) break;
  }
  s ??= initialEncounter(state.setup?.preset, state.setup?.options);
  for (let i = pending.length - 1; i >= 0; i--) for (const e of pending[i]!) s = evolveEncounter(s, e);
  return s;
}

/** Fields of a command that name a character already in the encounter. */
const NAMING_FIELDS = ['who', 'attacker', 'defender', 'target', 'ally', 'extraTarget', 'extraWound', 'to', 'source', 'from', 'tieOrder'] as const;

/**
 * A player is answered about a character hidden from them exactly as about one that does not exist,
 * before any other check, so that no refusal confirms a hidden name (the message `fighter` gives).
 */
function requireNoHiddenNames(state: EncounterState, command: EncounterCommand, viewer: Actor): void {
  if (viewer.role === 'gm') return;
  const named = command as unknown as Record<string, unknown>;
  const fields: string[] = [...NAMING_FIELDS, ...(command.type === 'add-character' ? [] : ['id'])];
  const namedIds: Array<[string, unknown]> = fields.map((field) => [field, Object.hasOwn(named, field) ? named[field] : undefined]);
  // A Burst Attack's purchases name their targets too.
  if (command.type === 'attack') command.burst?.forEach((b, i) => namedIds.push(...Object.entries(b).map(([k, v]): [string, unknown] => [`burst.${i}.${k}`, v])));
  const seen = (who: string) => Object.hasOwn(state.fighters, who) && (visible(state, who, viewer) || controllerOf(state, who) === viewer.participantId);
  for (const [field, value] of namedIds) {
    for (const who of Array.isArray(value) ? value : [value]) {
      if (typeof who === 'string' && !seen(who)) refuse('unknown-character', `${field}: no character "${who}" in this encounter`, field);
    }
  }
}

export function decideEncounter(state: EncounterState, command: EncounterCommand, context: DecideContext): EncounterEvent[] {
  requireNoHiddenNames(state, command, context.actor);
  const last = state.groups?.top[0];
  requireAuthority(state, command, context, last?.type === 'attack-resolved' ? last.data.attacker : null);
  // Each die comes from the named pool of whoever rolls it (./pools.ts), entered or the host's; an unnamed draw is the actor's.
  const pools = asPoolDice(context.dice);
  const table = tableDice(pools, 'actor');
  const ctx: DecideContext = { ...context, dice: table };
  const events = decideCommand(state, command, ctx);
  // Dice rolled together at the table may go unused: a location when the attack misses, an evasion after a Fumble.
  for (const name of UNUSED_MAY_STAY) if (pools.entered[name]?.length === 1 && table.drawnFrom(name) === 0) pools.take(name, 100);
  if (command.type === 'undo' || !events.length) return events;
  // "Structured Time": each event's Move or Action must still be there to spend (refused otherwise)
  const states = [state];
  for (const e of events) {
    const before = states[states.length - 1]!;
    const cost = costOf(before, e);
    if (cost) refuseTakenTurn(before, cost, e);
    if (cost) payFor(before, before.fighters[cost.who]!, cost);
    states.push(foldEvent(before, e));
  }
  lastFold = { events, states };
  return [...events, ...exhaustionTests(state, states[states.length - 1]!, events, ctx.dice)];
}

/**
 * The states the last command decided went through, its events folded one by one (decideEncounter
 * folds them to check each one's cost): whoever folds those same events from the same states next,
 * as a table does right after deciding, is handed them instead of every attack being resolved again.
 * One command's worth is kept; evolveEncounter is pure, so the answer is the same.
 */
let lastFold: { readonly events: readonly EncounterEvent[]; readonly states: readonly EncounterState[] } | null = null;

/**
 * What an event spends of its actor's Turn ("Structured Time" and each action's own passage), or
 * null for a free one. Attacks, Defend, Protect, the Tricks, Analyse, Distract, Scary Face, Grapple,
 * Use Consumable, a two-handed Equip, Going Stealthy, first aid and a Disengage by Action take the
 * Action (Going Stealthy by inventory U21); a Move the Move; a Charge both; a Focused Attack the Action
 * and the Move it forgoes; putting out a fire the Action, or the Move once the Action is gone;
 * overcoming Panic both; a lost escape from a grapple what it was declared for. Chance Attacks, Fate
 * Point spends, a one-handed Equip, tests the GM calls for and the Disengage test (part of the Move)
 * are free.
 */
function costOf(state: EncounterState, e: EncounterEvent): Cost | null {
  switch (e.type) {
    case 'attack-resolved': {
      const spec = e.data.spec;
      if (spec.chanceAttack) return null;
      const who = e.data.attacker;
      // Confused under confusedBands=both: the attack on itself comes with the Action spent on the nearest
      if (state.confusedAttack?.who === who && state.confusedAttack.paid) return null;
      if (spec.action === 'charge') return { who, action: 'Charge', move: 'Charge', chargeMove: true };
      if (spec.action === 'focused') return { who, action: 'Focused Attack', move: 'Focused Attack (no Move this Turn)' };
      if (spec.action === 'all-weapon') return { who, action: ECONOMY_LABELS.allWeapon, allWeapon: spec.hand ?? 'right' };
      return { who, action: e.data.summary.burst ? 'Burst Attack' : 'Standard Attack' };
    }
    case 'power-wasted':
      return { who: e.data.who, action: `${e.data.power} (wasted: Amnesiac)` };
    case 'staunched':
      return { who: e.data.who, action: 'first aid (Medical)' };
    case 'disrupted':
      return { who: e.data.who, action: e.data.kind === 'distract' ? 'Distract' : 'Scary Face' };
    case 'analysed':
      return { who: e.data.who, action: e.data.advanced ? 'Advanced Analyse Target' : 'Analyse Target' };
    case 'equipped':
      return e.data.cost === 'action' ? { who: e.data.who, action: `Equip Item (${e.data.item})` } : null;
    case 'consumable-used':
      return { who: e.data.who, action: `Use Consumable (${e.data.item})` };
    case 'reloading':
      return { who: e.data.who, action: `Reload (${e.data.weapon})` };
    case 'went-stealthy':
      return { who: e.data.who, action: 'Going Stealthy' };
    case 'trick-resolved':
      return { who: e.data.attacker, action: e.data.kind === 'push' ? 'Push' : 'Knockdown' };
    case 'grapple-resolved':
      return { who: e.data.attacker, action: 'Grapple' };
    case 'defending':
      return { who: e.data.id, action: 'Defend' };
    case 'protecting':
      return { who: e.data.id, action: 'Protect' };
    case 'disengaged':
      return e.data.method === 'action' ? { who: e.data.who, action: 'Disengage' } : null;
    case 'moved':
      // a Panicked character's flight: the Move it was spent on already
      if (e.data.flight) return null;
      return { who: e.data.who, move: e.data.run ? 'Run' : ECONOMY_LABELS.basicMove };
    case 'ailment-fought': {
      const who = e.data.who;
      if (e.data.ailment === 'panicked') return { who, action: 'overcoming Panic', move: 'overcoming Panic' };
      if (e.data.ailment === 'despaired') return { who, action: 'overcoming Despair' };
      // Burning: "your Move or Action": the Action while it is free, else the Move
      const f = state.fighters[who]!;
      return remaining(state, f).action ? { who, action: 'putting out the fire' } : { who, move: 'putting out the fire' };
    }
    case 'grapple-escape': {
      const d = e.data;
      if (d.won || d.declared === 'evasion' || d.declared === 'released') return null;
      const label = `a failed escape from a grapple (declared ${d.declared})`;
      return d.declared === 'move' ? { who: d.who, move: label } : { who: d.who, action: label };
    }
    default:
      return null;
  }
}

/** Applies an event's cost: its own Move or Action marked spent, or the One More it used taken. */
function paying(state: EncounterState, event: EncounterEvent): { state: EncounterState; oneMore: boolean } {
  const cost = costOf(state, event);
  const f = cost && state.fighters[cost.who];
  if (!cost || !f) return { state, oneMore: false };
  return { state: put(state, afterPaying(state, f, cost)), oneMore: spendsOneMore(state, f, cost) };
}

/** Pools of one die typed in before it is known whether the roll is made ("How Attacks Work"), taken as read when the rules make no such roll. */
const UNUSED_MAY_STAY = ['location', 'evasion'] as const;

/** A round lasts about 5 seconds ("Structured Time"): twelve to the minute. */
const ROUNDS_PER_MINUTE = 12;

/**
 * "Fatigue and Exhaustion": an Exhausted character that suffers Stress tests Toughness, and on a
 * failure falls unconscious for as many minutes as its Stress (option exhaustionTest says whether the
 * Stress that makes it Exhausted counts). One test per character for the Stress a command brings.
 */
function exhaustionTests(state: EncounterState, after: EncounterState, events: readonly EncounterEvent[], dice: DiceSource): EncounterEvent[] {
  const out: EncounterEvent[] = [];
  for (const f of Object.values(after.fighters)) {
    const was = state.fighters[f.id];
    if (!was || f.stress <= was.stress || f.out || f.conditions.unconscious) continue;
    if (fatigue(after.options.exhaustionTest === 'while-exhausted' ? was : f) !== 'exhausted') continue;
    // "Fate Points": Advantages it bought for its next test go to this one
    const t = resolveTest(toughness(f), drawIn(dice, `exhaustion:${f.id}`).die(100), [...fateModifiers(f), ...testBurdens(f, { score: 'toughness' }, after.options)], after.options);
    out.push({ type: 'exhaustion-tested', data: { group: events[0]!.data.group, who: f.id, target: t.target, roll: t.roll, success: t.success, minutes: t.success ? 0 : f.stress, ...(f.pendingAdvantages ? { fate: f.pendingAdvantages } : {}) } });
  }
  return out;
}

function decideCommand(state: EncounterState, command: EncounterCommand, ctx: DecideContext): EncounterEvent[] {
  const group = state.groups?.length ?? 0;
  const gm = ctx.actor.role === 'gm';
  const gmOnly = (what: string) => {
    if (!gm) refuse('gm-only', `only the GM may ${what}`, 'type');
  };
  const acting = (who: string, field: string) => {
    fighter(state, who, field);
    if (state.current === null) refuse('not-started', 'the encounter has not started: the GM starts it once the characters are in', 'type');
    const holds = state.oneMore?.holder === who;
    if (state.current !== who && !holds) refuse('not-your-turn', `${field}: it is ${state.fighters[state.current]!.name}'s turn, and ${state.fighters[who]!.name} holds no One More`, field);
    if (!controls(state, ctx.actor, who)) refuse('not-your-character', `${field}: you do not play ${state.fighters[who]!.name}`, field);
    if (state.fighters[who]!.conditions.unconscious) refuse('unconscious', `${field}: ${state.fighters[who]!.name} is unconscious`, field, ruleCitation('fatigue'));
  };
  switch (command.type) {
    case 'set-options': {
      gmOnly('set the table options');
      if (state.current !== null) refuse('started', 'the options are set before the encounter starts', 'type');
      resolveOptions(command.preset, command.options);
      return [{ type: 'options-set', data: { group, preset: command.preset, options: command.options } }];
    }
    case 'add-character': {
      // A player adds their own character, which they then control; the GM adds any, for anyone.
      const player = ctx.actor.role === 'player';
      if (!gm && !player) refuse('gm-only', 'observers cannot add characters', 'type');
      // A player's character gets an id in their seat's space, which only characters from their seat hold.
      const id = newCharacterId(ctx.actor, command.id);
      if (Object.hasOwn(state.fighters, id)) refuse('duplicate-character', `id: "${id}" is already in the encounter`, 'id');
      if (state.current !== null) refuse('started', 'characters join before the encounter starts', 'type');
      if (player && command.controller != null && command.controller !== ctx.actor.participantId) refuse('not-your-character', 'controller: a player adds characters for themselves only', 'controller');
      if (!player && command.controller != null && ctx.participants && !ctx.participants.has(command.controller)) refuse('unknown-participant', `controller: there is no participant "${command.controller}" at this table`, 'controller');
      requireSheetSize(command.sheet);
      const r = checkSheet(command.sheet);
      if (!r.ok) {
        const p = r.problems[0]!;
        throw new RuleError('bad-sheet', `sheet.${p.message}${r.problems.length > 1 ? ` (and ${r.problems.length - 1} more)` : ''}`, `sheet.${p.field}`, p.rule);
      }
      if (player && r.sheet.hidden) refuse('gm-only', 'sheet.hidden: only the GM adds hidden characters', 'sheet.hidden');
      if (player && r.sheet.side !== 'pc') refuse('gm-only', `sheet.side: a player's character is on the party's side ("pc"), not "${r.sheet.side}"`, 'sheet.side');
      const controller = player ? ctx.actor.participantId : (command.controller ?? null);
      requireCharacterRoom(ownersSeenBy(ctx.actor, Object.keys(state.fighters).map((id) => ({ owner: controllerOf(state, id), hidden: state.sheets[id]?.hidden === true }))), controller, ctx.limits, true, 'controller');
      return [{ type: 'character-added', data: { group, id, sheet: r.sheet, ...(controller !== null ? { controller } : {}) } }];
    }
    case 'set-controller': {
      gmOnly('hand characters to players');
      fighter(state, command.id, 'id');
      if (command.controller !== null && ctx.participants && !ctx.participants.has(command.controller)) refuse('unknown-participant', `controller: there is no participant "${command.controller}" at this table`, 'controller');
      if (command.controller !== controllerOf(state, command.id)) requireCharacterRoom(controllersOf(state), command.controller, ctx.limits, false, 'controller');
      return [{ type: 'controller-set', data: { group, id: command.id, controller: command.controller } }];
    }
    case 'start': {
      gmOnly('start the encounter');
      if (state.current !== null) refuse('started', 'the encounter has already started', 'type');
      if (state.order.length === 0 && Object.keys(state.fighters).length < 2) refuse('too-few', 'an encounter needs at least two characters', 'type');
      const rec = recordingPools(ctx.dice);
      const order = initiativeOrder(Object.values(state.fighters), rec.dice, command.startingAdvantages, { method: state.options.initiativeLastTie, ...(command.tieOrder ? { tieOrder: command.tieOrder } : {}) }, state.options.initiativeBonus);
      const surprised = [...new Set(command.surprised ?? [])];
      surprised.forEach((s, i) => fighter(state, s, `surprised.${i}`));
      const started: EncounterEvent = { type: 'encounter-started', data: { group, order, dice: rec.drawn, ...(surprised.length ? { surprised } : {}) } };
      const after = evolveEncounter(state, started);
      const first = nextInOrder(after, null);
      if (first === null) refuse('all-surprised', 'surprised: someone must not be Surprised to act in the surprise round', 'surprised', seed('Combat Structure'));
      return [started, turnStartEvent(after, first, 1, ctx.dice, group)];
    }
    case 'attack': {
      const attacker = fighter(state, command.attacker, 'attacker');
      const defender = fighter(state, command.defender, 'defender');
      if (command.chance) chanceAllowed(state, attacker, defender, command, gm, ctx.actor);
      else {
        acting(command.attacker, 'attacker');
        if (command.trigger) refuse('not-chance', 'trigger: only a Chance Attack names a trigger (chance: true)', 'trigger', ruleCitation('chanceAttacks'));
        grappleBlocks(state, attacker, 'attack');
      }
      // Confused at 4+ DoF: its Action is an attack on the nearest character, on whichever side
      const owed = !command.chance && state.confusedAttack?.who === attacker.id && requireNearest(state, state.confusedAttack, attacker, defender, ctx.actor);
      const weaponHand = command.hand ?? 'right';
      if (armDisabled(attacker.injuries, attacker.injuriesIgnored, weaponHand)) refuse('broken-arm', `hand: ${attacker.name}'s ${weaponHand} arm is broken and can no longer attack`, 'hand', ruleCitation('injuries'));
      if (attacker.side === defender.side && !owed) refuse('same-side', `defender: ${defender.name} is an ally of ${attacker.name}`, 'defender', ruleCitation('damage'));
      if (defender.out) refuse('defender-out', `defender: ${defender.name} is already out of the fight`, 'defender', ruleCitation('woundTracks'));
      if (attacker.ailments.some((a) => AILMENTS[a.name].noActions)) refuse('no-actions', `attacker: ${attacker.name} may make no actions (${attacker.ailments.map((a) => AILMENTS[a.name].title).join(', ')})`, 'attacker', ruleCitation('ailments'));
      // Confused at 5+ DoF, attacking itself: it does not oppose its own attack, nor does an ally take it
      const onItself = attacker.id === defender.id;
      const spec: AttackSpec = onItself ? { ...attackSpec(state, command), evasionTarget: null } : attackSpec(state, command);
      requireReach(state, attacker, defender, spec.kind === 'melee', command.weapon);
      // Reload: an empty weapon (fired out, or jammed by a Fumble) is reloaded before it fires again
      if (spec.ammunition !== undefined && shotsIn(attacker, reloadable(state.sheets[attacker.id]!, spec.ammunition, 'weapon')) === 0) refuse('out-of-ammunition', `weapon: ${attacker.name}'s ${spec.ammunition} is empty; Reload it first`, 'weapon', RELOAD_CITATION);
      // Amnesiac: no Persona Powers (a magic attack is one); the action spent on one is wasted
      if (spec.kind === 'magic' && hasAilment(attacker, 'amnesiac')) return [{ type: 'power-wasted', data: { group, who: attacker.id, power: command.weapon ?? 'magic attack' } }];
      // Enraged: nothing but melee attacks
      if (hasAilment(attacker, 'enraged') && spec.kind !== 'melee') refuse('enraged-melee-only', `attacker: ${attacker.name} is Enraged and may only attack in melee`, 'kind', ruleCitation('ailments'));
      const protector = onItself ? null : protectorOf(state, attacker, defender, command);
      // "Standard Attack and other Attack Actions", Burst: the purchases are checked first and bought with the hit's degrees
      const plan = command.burst ? burstPlan(state, command) : null;
      const bought: { burst?: BurstBuy } = {};
      const buy = plan ? (a: TestResult) => (bought.burst = plan(a.degreesOfSuccess)).wounds[defender.id] ?? 0 : undefined;
      const rec = recordingPools(ctx.dice);
      const r = resolveAttack(attacker, defender, spec, rec.dice, state.options, protector, buy);
      const burst = plan ? (bought.burst ?? plan(0)) : null;
      const landed: AttackSpec = burst?.wounds[defender.id] ? { ...spec, extraWounds: burst.wounds[defender.id] } : spec;
      remember(rec.drawn, { attacker, defender, protector, spec: landed, options: state.options, result: r });
      let summary: AttackSummary = summarize(r);
      if (burst) {
        // the extra targets' dice follow the attack's
        const pools = recordingPools(ctx.dice);
        const extra = burstHits(state, attacker, landed, r, burst.purchases, burst.wounds, pools.dice).hits;
        summary = { ...summary, burst: { purchases: burst.purchases, extra, dice: pools.drawn } };
      }
      const event: EncounterEvent = { type: 'attack-resolved', data: { group, attacker: command.attacker, defender: command.defender, spec: landed, dice: rec.drawn, summary, ...(protector ? { protector: protector.id } : {}) } };
      // Shocked: whoever attacks the sufferer in melee tests Agility or is Shocked too
      if (event.type === 'attack-resolved' && spec.kind === 'melee' && hasAilment(defender, 'shocked')) {
        const t = resolveTest(attacker.scores.agility, ctx.dice.die(100), testBurdens(attacker, { score: 'agility' }, state.options), state.options);
        return [{ ...event, data: { ...event.data, shockTest: { target: t.target, roll: t.roll, success: t.success } } }];
      }
      return [event];
    }
    case 'baton-pass': {
      const om = state.oneMore;
      if (!om) refuse('no-one-more', 'there is no One More to pass', 'type', ruleCitation('batonPass'));
      if (!controls(state, ctx.actor, om.holder)) refuse('not-your-character', `you do not play ${state.fighters[om.holder]!.name}, who holds the One More`, 'type');
      const to = fighter(state, command.to, 'to');
      const from = state.fighters[om.holder]!;
      const rank = state.sheets[from.id]!.socialLinks[to.name] ?? state.sheets[from.id]!.socialLinks[to.id] ?? 0;
      checkBatonPass(om.chain, from.id, to.id, rank, from.side === to.side);
      if (to.out) refuse('receiver-out', `to: ${to.name} is out of the fight`, 'to', ruleCitation('batonPass'));
      return [{ type: 'baton-passed', data: { group, from: from.id, to: to.id, advantages: batonAdvantages(rank) } }];
    }
    case 'all-out-attack': {
      const om = state.oneMore;
      if (!om) refuse('no-one-more', 'an All Out Attack spends a One More, and there is none', 'type', ruleCitation('allOutAttack'));
      if (!controls(state, ctx.actor, om.holder)) refuse('not-your-character', `you do not play ${state.fighters[om.holder]!.name}, who holds the One More`, 'type');
      const ids = command.participants.map((p) => p.id);
      if (!ids.includes(om.holder)) refuse('holder-missing', `participants: the holder of the One More, ${state.fighters[om.holder]!.name}, leads the All Out Attack`, 'participants', ruleCitation('allOutAttack'));
      if (new Set(ids).size !== ids.length) refuse('duplicate-participant', 'participants: each character takes part once', 'participants', ruleCitation('allOutAttack'));
      const holderSide = state.fighters[om.holder]!.side;
      const participants = command.participants.map((p, i) => {
        const f = fighter(state, p.id, `participants.${i}.id`);
        if (f.side !== holderSide || f.out) refuse('bad-participant', `participants.${i}.id: ${f.name} is not an ally in the fight`, `participants.${i}.id`, ruleCitation('allOutAttack'));
        return { fighter: f, target: f.scores[p.score], roll: 0 };
      });
      const enemies = enemiesOf(state, om.holder);
      if (participants.length < 2) refuse('aoa-too-few', `an All Out Attack needs at least two participants, got ${participants.length}`, 'participants', ruleCitation('allOutAttack'));
      if (!allEnemiesStaggered(enemies)) refuse('aoa-not-all-staggered', 'an All Out Attack needs every enemy Staggered', 'type', ruleCitation('allOutAttack'));
      const rolled = participants.map((p) => ({ id: p.fighter.id, target: p.target, roll: drawIn(ctx.dice, `actor:${p.fighter.id}`).die(100) }));
      const r = resolveAllOutAttack(rolled.map((p, i) => ({ ...p, fighter: participants[i]!.fighter })), enemies, state.options);
      return [{ type: 'all-out-attack', data: { group, participants: rolled, woundsEach: r.woundsEach, killed: [...r.killed], ...(Object.keys(r.fateSpent).length ? { fateSpent: { ...r.fateSpent } } : {}) } }];
    }
    case 'defend': {
      if (state.current === null) refuse('not-started', 'the encounter has not started', 'type');
      // "One More": the holder may spend it on Defend out of turn, naming itself
      const who = command.who ?? state.current;
      acting(who, command.who ? 'who' : 'type');
      return [{ type: 'defending', data: { group, id: who } }];
    }
    case 'protect': {
      if (state.current === null) refuse('not-started', 'the encounter has not started', 'type');
      const who = command.who ?? state.current;
      acting(who, command.who ? 'who' : 'type');
      const me = state.fighters[who]!;
      const ally = fighter(state, command.ally, 'ally');
      const cite = seed('Defending and Protecting');
      if (ally.id === me.id) refuse('protect-self', 'ally: a character protects someone else', 'ally', cite);
      if (ally.side !== me.side) refuse('not-an-ally', `ally: ${ally.name} is not an ally of ${me.name}`, 'ally', cite);
      if (ally.out) refuse('ally-out', `ally: ${ally.name} is out of the fight`, 'ally', cite);
      return [{ type: 'protecting', data: { group, id: me.id, ally: ally.id } }];
    }
    case 'place': {
      gmOnly('place characters on the map');
      const f = fighter(state, command.target, 'target');
      if (command.altitude && command.altitude !== 'ground' && !state.sheets[f.id]!.flight) refuse('cannot-fly', `altitude: ${f.name} cannot fly (no flight on its sheet), so it stays at Ground`, 'altitude', ruleCitation('flight'));
      return [{ type: 'placed', data: { group, target: command.target, position: { x: command.x, y: command.y, elevation: command.elevation }, ...(command.altitude ? { altitude: command.altitude } : {}) } }];
    }
    case 'move': {
      acting(command.who, 'who');
      const f = fighter(state, command.who, 'who');
      const cite = seed('Movement and Combat');
      grappleBlocks(state, f, 'move');
      const from = f.conditions.position;
      if (!from) refuse('not-placed', `who: ${f.name} is not on the map yet (the GM places characters)`, 'who', cite);
      // "Structured Time": one Move per Turn; a One More is one more
      const moveCost: Cost = { who: f.id, move: command.run ? 'Run' : ECONOMY_LABELS.basicMove };
      const to: Position = { x: command.x, y: command.y, elevation: command.elevation ?? from.elevation };
      const altitude = flightMove(state, f, command);
      // Panicked: in a Turn spent fleeing, the one Move is the flight, away from the source
      const moved = { ...f, conditions: { ...f.conditions, position: to, ...(altitude ? { altitude } : {}) } };
      const flight = fleeingMove(state, f, moved);
      if (!flight) payFor(state, f, moveCost);
      const metres = Math.max(Math.abs(to.x - from.x), Math.abs(to.y - from.y));
      if (command.stealthFullSpeed && !f.conditions.stealthy) refuse('not-stealthy', `stealthFullSpeed: ${f.name} is not in stealth`, 'stealthFullSpeed', STEALTH_CITATION);
      const allowance = moveAllowance(f, command.run, hindranceOf(f, command.fullSpeed, command.stealthFullSpeed));
      if (metres > allowance) refuse('too-far', `x: ${metres} m is further than ${f.name}'s ${command.run ? 'Run' : 'Basic Move'} of ${allowance} m`, 'x', seed('Hindered Movement'));
      const taken = Object.values(state.fighters).find((o) => o.id !== f.id && !o.out && o.conditions.position && o.conditions.position.x === to.x && o.conditions.position.y === to.y && o.conditions.position.elevation === to.elevation && altitudeOf(o) === (altitude ?? altitudeOf(f)));
      if (taken) refuse('square-taken', `x: ${taken.name} stands at (${to.x}, ${to.y})`, 'x', seed('Obstacles and unusual movement'));
      const enemies = Object.values(state.fighters).filter((o) => o.side !== f.side && !o.out);
      // Leaving an enemy's side without disengaging from it is a Flee: it may make a Chance Attack with Advantage
      const left = enemies.filter((o) => adjacent(f, o) && !adjacent(moved, o) && !(f.conditions.disengagedFrom ?? []).includes(o.id)).map((o) => o.id);
      const engaged = enemies.filter((o) => adjacent(moved, o)).map((o) => o.id);
      const terrainTest = command.fullSpeed ? fullSpeedTest(state, f, ctx.dice) : null;
      // a Move in stealth makes the stealth test: Stealth, else Agility; two Disadvantages at full speed
      let stealth: StealthTest | undefined;
      if (f.conditions.stealthy) {
        const skill = bestSkill(state.sheets[f.id]!, /stealth/i, ['agility']);
        const rushed = command.stealthFullSpeed ? [modifier('disadvantage', 'moving in stealth at full speed', -10 * FULL_SPEED_DISADVANTAGES)] : [];
        // a Fate Point Advantage goes to the Move's first test: the terrain's, when there is one
        const fate = terrainTest ? [] : fateModifiers(f);
        const t = resolveTest(skill.target, ctx.dice.die(100), [...rushed, ...fate, ...testBurdens(f, { score: skill.score }, state.options)], state.options);
        stealth = { target: t.target, roll: t.roll, success: t.success, fullSpeed: command.stealthFullSpeed, ...(fate.length ? { fate: f.pendingAdvantages } : {}) };
      }
      return [{ type: 'moved', data: { group, who: f.id, from, to, run: command.run, metres, allowance, left, engaged, oneMore: !flight && spendsOneMore(state, f, moveCost), ...(flight ? { flight } : {}), ...(stealth ? { stealth } : {}), ...(terrainTest ? { terrainTest } : {}), ...(altitude ? { altitude } : {}) } }];
    }
    case 'set-terrain': {
      gmOnly('set the terrain');
      fighter(state, command.target, 'target');
      const kind = command.kind ?? (command.dtn > 0 ? 'uneven' : 'open');
      const cite = seed('Difficult Terrain');
      if (kind === 'open' && command.dtn > 0) refuse('open-ground-number', `dtn: open ground has no Difficult Terrain Number (got ${command.dtn})`, 'dtn', cite);
      if (command.damage > 0 && kind !== 'damaging') refuse('damage-not-damaging', `damage: only Damaging terrain deals damage (got ${command.damage} for ${kind})`, 'damage', cite);
      return [{ type: 'terrain-set', data: { group, target: command.target, dtn: command.dtn, ...(kind !== 'open' ? { kind } : {}), ...(command.damage ? { damage: command.damage } : {}) } }];
    }
    case 'staunch': {
      acting(command.who, 'who');
      const f = fighter(state, command.who, 'who');
      const patient = fighter(state, command.target, 'target');
      const cite = ruleCitation('bloodLoss');
      if (!patient.conditions.bloodLoss) refuse('not-bleeding', `target: ${patient.name} is not bleeding`, 'target', cite);
      const p = f.conditions.position;
      const q = patient.conditions.position;
      if (f.id !== patient.id && p && q && Math.max(Math.abs(p.x - q.x), Math.abs(p.y - q.y)) > 1) refuse('out-of-reach', `target: ${patient.name} is not within reach of ${f.name} (first aid needs the next square)`, 'target', cite);
      // "Blood Loss": the Medical skill as an Action; untrained, Intelligence -20
      const sheet = state.sheets[f.id]!;
      const skill = bestSkill(sheet, /medic/i, ['intelligence'], true);
      const mods: Modifier[] = [...fateModifiers(f), ...testBurdens(f, { score: skill.score }, state.options)];
      const t = resolveTest(skill.target, ctx.dice.die(100), mods, state.options);
      return [{ type: 'staunched', data: { group, who: f.id, target: patient.id, test: { target: t.target, roll: t.roll, success: t.success } } }];
    }
    case 'stem-bleeding': {
      // declared ahead: at the start of its next turn the bleeder uses that turn's Action on it
      const f = fighter(state, command.who, 'who');
      if (!controls(state, ctx.actor, f.id)) refuse('not-your-character', `who: you do not play ${f.name}`, 'who');
      if (command.stem && !f.conditions.bloodLoss) refuse('not-bleeding', `who: ${f.name} is not bleeding`, 'who', ruleCitation('bloodLoss'));
      if (!!f.conditions.stemming === command.stem) refuse('already-declared', `stem: ${f.name} ${command.stem ? 'already means' : 'does not mean'} to stem its bleeding`, 'stem', ruleCitation('bloodLoss'));
      return [{ type: 'stemming-declared', data: { group, who: f.id, stem: command.stem } }];
    }
    case 'bleeding-test': {
      // "Blood Loss": the bleeder chooses Toughness or Endurance (Injury); declared ahead of the start-of-turn test
      const f = fighter(state, command.who, 'who');
      if (!controls(state, ctx.actor, f.id)) refuse('not-your-character', `who: you do not play ${f.name}`, 'who');
      if (f.conditions.bleedingTest === command.test) refuse('already-declared', `test: ${f.name} already tests ${BLOOD_LOSS_TESTS[command.test]} against Blood Loss`, 'test', ruleCitation('bloodLoss'));
      return [{ type: 'bleeding-test-chosen', data: { group, who: f.id, test: command.test } }];
    }
    case 'fate-block': {
      // "Fate Points", Block Heavy Wound: the points are spent as the wound is incurred, on someone else's
      // turn or as its own starts (Blood Loss), so whoever plays it declares ahead how many it will spend
      const f = fighter(state, command.who, 'who');
      if (!controls(state, ctx.actor, f.id)) refuse('not-your-character', `who: you do not play ${f.name}`, 'who');
      const cite = ruleCitation('fatePoints');
      if (command.heavy > f.fate.current) refuse('not-enough-fate-points', `heavy: ${f.name} has ${f.fate.current} Fate Point(s), fewer than ${command.heavy}`, 'heavy', cite);
      if ((f.conditions.blockHeavy ?? 0) === command.heavy) refuse('already-declared', `heavy: ${f.name} already blocks ${command.heavy === 0 ? 'no' : `up to ${command.heavy}`} Heavy wound(s)`, 'heavy', cite);
      return [{ type: 'fate-block-declared', data: { group, who: f.id, heavy: command.heavy } }];
    }
    case 'confused-target': {
      // Confused at 4+ DoF: the nearest character is the GM's to name when the map does not settle it
      gmOnly('name the nearest character a Confused character attacks');
      const f = fighter(state, command.who, 'who');
      const t = fighter(state, command.target, 'target');
      const owed = state.confusedAttack;
      const cite = ruleCitation('ailments');
      if (!owed || owed.who !== f.id) refuse('no-confused-attack', `who: ${f.name} owes no attack on the nearest character (only a Confused character failing its test by 4 or more DoF, in its Turn)`, 'who', cite);
      if (!owed.candidates.includes(t.id)) refuse('not-nearest', `target: ${t.name} is not one of the characters nearest to ${f.name} (${nameList(state, owed.candidates, ctx.actor)})`, 'target', cite);
      return [{ type: 'confused-target-chosen', data: { group, who: f.id, target: t.id } }];
    }
    case 'movement-test': {
      acting(command.who, 'who');
      const f = fighter(state, command.who, 'who');
      // "Obstacles and unusual movement": Athletics or Acrobatics with the focus, else Agility
      const skill = command.target !== undefined ? { target: command.target, score: 'agility' as Score } : bestSkill(state.sheets[f.id]!, /athletic|acrobat/i, ['agility']);
      const mods: Modifier[] = [...fateModifiers(f), ...testBurdens(f, { score: 'agility' }, state.options)];
      const t = resolveTest(skill.target, ctx.dice.die(100), mods, state.options);
      const outcome = movementOutcome(command.kind, t, state.options, command.rough);
      return [{ type: 'movement-tested', data: { group, who: f.id, kind: command.kind, target: t.target, roll: t.roll, success: t.success, degrees: t.degrees, outcome } }];
    }
    case 'use-resource': {
      const f = fighter(state, command.who, 'who');
      if (!controls(state, ctx.actor, command.who)) refuse('not-your-character', `who: you do not play ${f.name}`, 'who');
      if (hasAilment(f, 'amnesiac')) refuse('amnesiac', `who: ${f.name} is Amnesiac and may not use Persona Powers`, 'who', ruleCitation('ailments'));
      useResource(f, command.resource, command.amount);
      return [{ type: 'resource-used', data: { group, who: f.id, resource: command.resource, amount: command.amount, label: command.label } }];
    }
    case 'restore-wounds': {
      gmOnly('restore wounds');
      fighter(state, command.target, 'target');
      return [{ type: 'wounds-restored', data: { group, target: command.target, light: command.light, heavy: command.heavy } }];
    }
    case 'treat-injuries': {
      gmOnly('rule on rest and medical attention');
      fighter(state, command.target, 'target');
      return [{ type: 'injuries-treated', data: { group, target: command.target, how: command.how } }];
    }
    case 'inflict-ailment': {
      gmOnly('inflict ailments directly');
      fighter(state, command.target, 'target');
      if (command.source !== undefined) fighter(state, command.source, 'source');
      if (!command.resist && (command.element !== undefined || command.score !== undefined || command.resistTarget !== undefined)) refuse('no-resistance', 'resist: element, score and resistTarget belong to a resistance test (resist: true)', 'resist', RESIST_CITATION);
      const resistance = command.resist ? resistanceTest(state, state.fighters[command.target]!, command, ctx.dice) : null;
      return [{ type: 'ailment-inflicted', data: { group, target: command.target, ailment: command.ailment, turns: command.turns, ...(command.source !== undefined ? { source: command.source } : {}), ...(resistance ? { resistance } : {}) } }];
    }
    case 'set-condition': {
      gmOnly('set conditions');
      const f = fighter(state, command.target, 'target');
      if (command.condition === 'falling' && command.value && altitudeOf(f) === 'ground') refuse('on-the-ground', `target: ${f.name} is at Ground and has nowhere to fall from`, 'target', ruleCitation('flight'));
      return [{ type: 'condition-set', data: { group, target: command.target, condition: command.condition, value: command.value } }];
    }
    case 'spend-fate': {
      const f = fighter(state, command.who, 'who');
      if (!controls(state, ctx.actor, command.who)) refuse('not-your-character', `who: you do not play ${f.name}`, 'who');
      if (f.fate.current < 1) refuse('no-fate-points', `who: ${f.name} has no Fate Point left`, 'who', ruleCitation('fatePoints'));
      if (command.spend === 'reroll') return [reroll(state, f, command.test, ctx.dice, group)];
      if (command.spend === 'block-heavy') refuse('block-heavy-declared', `spend: a Heavy wound is blocked as it is incurred: declare it ahead with the fate-block command (who: ${f.id}, heavy: how many)`, 'spend', ruleCitation('fatePoints'));
      if (command.spend === 'ignore-injury') {
        if (!command.location) refuse('no-location', 'location: name the location whose Injury to ignore', 'location', ruleCitation('fatePoints'));
        if (!f.injuries.some((i) => i.location === command.location)) refuse('no-injury', `location: ${f.name} has no Injury at ${command.location}`, 'location', ruleCitation('fatePoints'));
      }
      const event: EncounterEvent = { type: 'fate-spent', data: { group, who: command.who, spend: command.spend, ...(command.ailment ? { ailment: command.ailment } : {}), ...(command.location ? { location: command.location } : {}), ...(command.resource ? { resource: command.resource } : {}) } };
      evolveEncounter(state, event); // refuses a spend the rules forbid
      return [event];
    }
    case 'end-turn': {
      if (state.current === null) refuse('not-started', 'the encounter has not started', 'type');
      if (!controls(state, ctx.actor, state.current) && !(state.oneMore && controls(state, ctx.actor, state.oneMore.holder))) refuse('not-your-turn', `it is ${state.fighters[state.current]!.name}'s turn`, 'type');
      const who = state.current;
      const f = state.fighters[who]!;
      // Confused: the attack on the nearest character is its Action this Turn; only the GM ends the Turn without it
      if (state.confusedAttack?.who === who && !gm) refuse('confused-nearest', `type: ${f.name} is Confused and owes its attack on ${owedTarget(state.confusedAttack)} this Turn; only the GM may end the Turn without it`, 'type', ruleCitation('ailments'));
      const expired = ailmentsAtTurnEnd(f.ailments, f.turnsStarted).expired;
      // Frozen: a Strength or Toughness test (the better) at the end of each turn breaks free
      let frozen: TestRecord | undefined;
      if (testsAtTurnEnd(f)) {
        const score: Score = f.scores.strength >= toughness(f) ? 'strength' : 'toughness';
        const t = resolveTest(score === 'strength' ? f.scores.strength : toughness(f), drawIn(ctx.dice, `turn:${who}`).die(100), [...fateModifiers(f), ...testBurdens(f, { score }, state.options)], state.options);
        frozen = { target: t.target, roll: t.roll, success: t.success };
      }
      const fate = frozen && f.pendingAdvantages ? { fate: f.pendingAdvantages } : {};
      const events: EncounterEvent[] = [{ type: 'turn-ended', data: { group, id: who, expired, forfeited: state.oneMore !== null, ...(frozen ? { frozen } : {}), ...fate } }];
      let s = evolveEncounter(state, events[0]!);
      let next = nextInOrder(s, who);
      let round = s.round;
      if (next === null) {
        // a falling flyer at Low crashes at the end of the round: a location d100 for its fall
        const crashes = Object.values(s.fighters).filter(crashesAtRoundEnd).map((x) => ({ who: x.id, locationRoll: drawIn(ctx.dice, `turn:${x.id}`).die(100) }));
        const ended: EncounterEvent = { type: 'round-ended', data: { group, round, ...(crashes.length ? { crashes } : {}) } };
        events.push(ended);
        s = evolveEncounter(s, ended);
        round++;
        next = nextInOrder(s, null);
      }
      if (next !== null) events.push(turnStartEvent(s, next, round, ctx.dice, group));
      return events;
    }
    case 'test': {
      const f = fighter(state, command.who, 'who');
      if (!controls(state, ctx.actor, command.who)) refuse('not-your-character', `who: you do not play ${f.name}`, 'who');
      const mods = testModifiers(f, command, state.options);
      const target = command.target ?? f.scores[command.score];
      const t = resolveTest(target, ctx.dice.die(100), mods, state.options);
      return [{ type: 'test-rolled', data: { group, who: f.id, score: command.score, label: command.label, target, roll: t.roll, success: t.success, degrees: t.success ? t.degreesOfSuccess : t.degreesOfFailure, modifiers: mods.map((m) => ({ label: m.label, value: m.value })), ...(command.hand ? { hand: command.hand } : {}) } }];
    }
    case 'disengage': {
      acting(command.who, 'who');
      const f = fighter(state, command.who, 'who');
      grappleBlocks(state, f, 'move');
      const enemies = engagedEnemies(state, f, command.from);
      // "Movement and Combat": an Action disengages without a test
      if (command.method === 'action') return [{ type: 'disengaged', data: { group, who: f.id, method: 'action', results: [], fled: [], from: enemies.map((e) => e.id) } }];
      const opposers = state.options.disengageOpposition === 'each-enemy' ? enemies : [enemies.reduce((a, b) => (b.scores.melee > a.scores.melee ? b : a))];
      const mods: Modifier[] = [...fateModifiers(f), ...testBurdens(f, { score: command.score }, state.options)];
      const target = command.target ?? f.scores[command.score];
      const own = resolveTest(target, ctx.dice.die(100), mods, state.options);
      const results = opposers.map((e) => opposedRecord(e, own, target, canOppose(e) ? resolveTest(e.scores.melee, drawIn(ctx.dice, `target:${e.id}`).die(100), testBurdens(e, { score: 'melee' }, state.options), state.options) : null, e.scores.melee, state.options, ctx.dice));
      const lost = results.filter((r) => !r.won).map((r) => r.enemy);
      const fled = state.options.disengageOpposition === 'each-enemy' ? lost : lost.length ? enemies.map((e) => e.id) : [];
      return [{ type: 'disengaged', data: { group, who: f.id, method: 'test', results, fled } }];
    }
    case 'flee': {
      const f = fighter(state, command.who, 'who');
      if (!gm) acting(command.who, 'who');
      const enemies = engagedEnemies(state, f, command.from);
      return [{ type: 'fled', data: { group, who: f.id, from: enemies.map((e) => e.id), reason: command.reason } }];
    }
    case 'grapple': {
      acting(command.attacker, 'attacker');
      const a = fighter(state, command.attacker, 'attacker');
      const d = fighter(state, command.defender, 'defender');
      if (a.side === d.side) refuse('same-side', `defender: ${d.name} is an ally of ${a.name}`, 'defender', ruleCitation('grapple'));
      if (d.out) refuse('defender-out', `defender: ${d.name} is already out of the fight`, 'defender', ruleCitation('grapple'));
      if (d.conditions.grappledBy === a.id) refuse('already-grappled', `defender: ${a.name} already grapples ${d.name}`, 'defender', ruleCitation('grapple'));
      requireReach(state, a, d, true);
      grappleBlocks(state, a, 'attack');
      // "Standard Attack and other Attack Actions": a melee attack with Melee Skill (Grappling), opposed as usual
      const c = meleeContest(state, a, d, command.attackTarget ?? bestSkill(state.sheets[a.id]!, /grappl/i, ['melee']).target, command.evasionTarget, false, ctx.dice);
      return [{ type: 'grapple-resolved', data: { group, attacker: a.id, defender: d.id, attack: c.attackTarget, attackRoll: c.attack.roll, evasion: c.evasion ? c.evasionTarget : null, evasionRoll: c.evasion?.roll ?? null, won: c.won, ...(c.tieRolls ? { tieRolls: c.tieRolls } : {}) } }];
    }
    case 'distract':
    case 'scary-face': {
      acting(command.who, 'who');
      const [f, t] = enemyInFight(state, command.who, command.target);
      if (f.ailments.some((a) => AILMENTS[a.name].noActions)) refuse('no-actions', `who: ${f.name} may make no actions (${f.ailments.map((a) => AILMENTS[a.name].title).join(', ')})`, 'who', ruleCitation('ailments'));
      // an opposed test of the skills the seed names for each, with a Scary Face burdening tests against its maker
      const skills = DISRUPT_SKILLS[command.type];
      const own = bestSkill(state.sheets[f.id]!, skills.own, skills.ownScores);
      const theirs = bestSkill(state.sheets[t.id]!, skills.theirs, skills.theirScores);
      const scared = (a: Fighter, b: Fighter): Modifier[] => (scaryFaceAgainst(state.fighters, a, b) ? [modifier('disadvantage', 'Scary Face', -10)] : []);
      const ownTest = resolveTest(own.target, ctx.dice.die(100), [...fateModifiers(f), ...testBurdens(f, { score: own.score }, state.options), ...scared(f, t)], state.options);
      const theirTest = canOppose(t) ? resolveTest(theirs.target, drawIn(ctx.dice, `target:${t.id}`).die(100), [...testBurdens(t, { score: theirs.score }, state.options), ...scared(t, f)], state.options) : null;
      const result = opposedRecord(t, ownTest, own.target, theirTest, theirs.target, state.options, ctx.dice);
      return [{ type: 'disrupted', data: { group, who: f.id, target: t.id, kind: command.type, result, won: result.won } }];
    }
    case 'force-reroll': {
      const f = fighter(state, command.who, 'who');
      if (!controls(state, ctx.actor, command.who)) refuse('not-your-character', `who: you do not play ${f.name}`, 'who');
      const target = f.conditions.distracting ? state.fighters[f.conditions.distracting] : undefined;
      if (!target) refuse('not-distracting', `who: ${f.name} is distracting no one (a won Distract lasts until the start of its next turn, for one reroll)`, 'who', DISRUPT_CITATION);
      return [reroll(state, target, command.test, ctx.dice, group, f.id)];
    }
    case 'equip': {
      acting(command.who, 'who');
      const f = fighter(state, command.who, 'who');
      const cost = equipCost(state.sheets[f.id]!, f, command.item, command.stow);
      return [{ type: 'equipped', data: { group, who: f.id, item: command.item, ...(command.stow !== undefined ? { stow: command.stow } : {}), cost } }];
    }
    case 'scatter': {
      gmOnly('rule that an attack scatters');
      // untitled passage after "Chance Attacks": "take the test that you used for the attack"
      const attack = state.groups?.top.find((e) => e.type === 'attack-resolved');
      if (attack?.type !== 'attack-resolved') refuse('no-attack', 'the last command made no attack to scatter', 'type', SCATTER_CITATION);
      const { attacker, defender } = attack.data;
      // the attack's own roll, kept under another name: it is no new die (secret.ts DICE_FIELDS)
      const attackTest = attack.data.summary.roll;
      const aimed = state.fighters[defender]!.conditions.position;
      const from = state.fighters[attacker]!.conditions.position;
      return [{ type: 'scattered', data: { group, attacker, defender, attackTest, ...scatter(attackTest), ...(aimed ? { to: scatterLanding(attackTest, aimed, from) } : {}) } }];
    }
    case 'reload': {
      acting(command.who, 'who');
      const f = fighter(state, command.who, 'who');
      const sheet = state.sheets[f.id]!;
      if (f.ailments.some((a) => AILMENTS[a.name].noActions)) refuse('no-actions', `who: ${f.name} may make no actions (${f.ailments.map((a) => AILMENTS[a.name].title).join(', ')})`, 'who', ruleCitation('ailments'));
      // the weapon named, else the one under way, else the first in hand whose ammunition is counted
      const stowed = f.stowed ?? sheet.stowed;
      const name = command.weapon ?? f.reloading?.weapon ?? sheet.weapons.find((w) => w.clip !== undefined && !stowed.includes(w.name))?.name;
      if (name === undefined) refuse('not-reloadable', `weapon: ${f.name} holds no weapon whose ammunition the table counts`, 'weapon', RELOAD_CITATION);
      const w = reloadable(sheet, name, 'weapon');
      // a weapon put away is drawn with Equip Item before it is reloaded
      weaponOf(sheet, f, name);
      // "Equipment Actions", Reload: one Action at a time until the weapon's count is spent
      if (f.reloading?.weapon === name) {
        if (command.hurry) refuse('already-reloading', `hurry: ${f.name}'s Reload of ${name} is under way; the hurry test is made when it begins`, 'hurry', RELOAD_CITATION);
        return [{ type: 'reloading', data: { group, who: f.id, weapon: name, total: f.reloading.left, left: f.reloading.left - 1 } }];
      }
      if (shotsIn(f, w) === w.clip) refuse('already-loaded', `weapon: ${f.name}'s ${name} is fully loaded`, 'weapon', RELOAD_CITATION);
      if (spareLoadsOf(f, w) === 0) refuse('no-ammunition', `weapon: ${f.name} has no ammunition left for ${name}`, 'weapon', RELOAD_CITATION);
      let hurry: (TestRecord & { skill: HurrySkill; degrees: number }) | undefined;
      let test: TestResult | null = null;
      if (command.hurry) {
        // Ballistics (weapon class) on the Ballistic Score, or Survival (Equipment), untrained unless the sheet has it
        const skill = command.hurry === 'ballistics' ? bestSkill(sheet, /ballistic/i, ['ballistic']) : bestSkill(sheet, /surviv/i, ['intelligence', 'perception'], true);
        const target = command.target ?? skill.target;
        test = resolveTest(target, ctx.dice.die(100), [...fateModifiers(f), ...testBurdens(f, { score: skill.score }, state.options)], state.options);
        hurry = { skill: command.hurry, target: test.target, roll: test.roll, success: test.success, degrees: test.success ? test.degreesOfSuccess : test.degreesOfFailure };
      }
      const total = reloadTotal(w, test);
      return [{ type: 'reloading', data: { group, who: f.id, weapon: name, total, left: total - 1, ...(hurry ? { hurry } : {}) } }];
    }
    case 'use-consumable': {
      acting(command.who, 'who');
      const f = fighter(state, command.who, 'who');
      const t = fighter(state, command.target ?? command.who, 'target');
      const left = consumablesLeft(state.sheets[f.id]!, f);
      if (!Object.hasOwn(left, command.item)) refuse('unknown-consumable', `item: ${f.name} carries no consumable "${command.item}"`, 'item', EQUIPMENT_CITATION);
      if (left[command.item]! < 1) refuse('none-left', `item: ${f.name} has no ${command.item} left`, 'item', EQUIPMENT_CITATION);
      if (t.side !== f.side) refuse('not-an-ally', `target: ${t.name} is not ${f.name} or an ally`, 'target', EQUIPMENT_CITATION);
      if (t.out) refuse('target-out', `target: ${t.name} is out of the fight`, 'target', EQUIPMENT_CITATION);
      // an ally within 5 metres, measured on the map when both stand on it, a flyer's band counted as its height (the flight passage)
      const apart = separation(f, t);
      if (apart !== null && apart > CONSUMABLE_REACH) refuse('out-of-reach', `target: ${t.name} is ${apart} m away; a consumable reaches ${CONSUMABLE_REACH} m`, 'target', EQUIPMENT_CITATION);
      return [{ type: 'consumable-used', data: { group, who: f.id, item: command.item, target: t.id } }];
    }
    case 'go-stealthy': {
      acting(command.who, 'who');
      const f = fighter(state, command.who, 'who');
      // only out of every enemy's Line of Sight: the GM rules that, but an adjacent enemy plainly sees it
      const beside = Object.values(state.fighters).find((o) => o.side !== f.side && !o.out && adjacent(f, o));
      if (beside) refuse('in-sight', `who: ${f.name} stands beside ${beside.name}, who sees it`, 'who', STEALTH_CITATION);
      if (f.conditions.stealthy) refuse('already-stealthy', `who: ${f.name} is already in stealth`, 'who', STEALTH_CITATION);
      return [{ type: 'went-stealthy', data: { group, who: f.id } }];
    }
    case 'analyse': {
      acting(command.who, 'who');
      const [f, t] = enemyInFight(state, command.who, command.target);
      // Analyse Target needs Arcana Level 4, Advanced Analyse Target Arcana Level 7
      const level = state.sheets[f.id]!.arcanaLevel;
      const needed = command.advanced ? ANALYSE_LEVEL.advanced : ANALYSE_LEVEL.basic;
      if (level < needed) refuse('arcana-level', `who: ${f.name}'s Arcana Level is ${level}; ${command.advanced ? 'Advanced ' : ''}Analyse Target needs ${needed}`, 'who', ANALYSE_CITATION);
      return [{ type: 'analysed', data: { group, who: f.id, target: t.id, advanced: command.advanced } }];
    }
    case 'trick': {
      acting(command.attacker, 'attacker');
      const a = fighter(state, command.attacker, 'attacker');
      const d = fighter(state, command.defender, 'defender');
      const cite = seed('Analysing Targets, Disrupting Targets and Tricks');
      if (a.side === d.side) refuse('same-side', `defender: ${d.name} is an ally of ${a.name}`, 'defender', cite);
      if (d.out) refuse('defender-out', `defender: ${d.name} is already out of the fight`, 'defender', cite);
      requireReach(state, a, d, true);
      grappleBlocks(state, a, 'attack');
      // Push and Knockdown: a melee attack dealing no damage; Endurance (Injury) may oppose as well as Dodge or Parry
      const c = meleeContest(state, a, d, command.attackTarget ?? a.scores.melee, command.evasionTarget, true, ctx.dice);
      const metres = command.kind === 'push' && c.won ? c.attack.degreesOfSuccess : 0;
      if (command.obstacle !== undefined && command.kind !== 'push') refuse('obstacle-not-push', 'obstacle: only a Push drives its target into a solid object', 'obstacle', cite);
      const event: EncounterEvent = { type: 'trick-resolved', data: { group, attacker: a.id, defender: d.id, kind: command.kind, attack: c.attackTarget, attackRoll: c.attack.roll, evasion: c.evasion ? c.evasionTarget : null, evasionRoll: c.evasion?.roll ?? null, won: c.won, metres, ...(c.tieRolls ? { tieRolls: c.tieRolls } : {}) } };
      // Push: a solid object in the way stops the target; the metres left come back as Stress and damage
      if (command.obstacle === undefined || metres <= command.obstacle) return [event];
      const left = metres - command.obstacle;
      const locationRoll = drawIn(ctx.dice, 'location').die(100);
      const landed = landImpact(d, left, locationRoll, state.options);
      const impact: PushImpact = { obstacle: command.obstacle, left, locationRoll, location: landed.outcome.location.location, damage: landed.outcome.damage, defense: landed.outcome.defense, wounds: landed.outcome.wounds };
      return [{ ...event, data: { ...event.data, impact } }];
    }
    case 'escape-grapple': {
      const f = fighter(state, command.who, 'who');
      const grappler = f.conditions.grappledBy;
      if (grappler === null) refuse('not-grappled', `who: ${f.name} is not grappled`, 'who', ruleCitation('grappled'));
      if (command.declared === 'released') {
        // the two are no longer Engaged (GM): the grapple ends
        gmOnly('end a grapple outright');
        return [{ type: 'grapple-escape', data: { group, who: f.id, grappler, declared: 'released', result: null, won: true } }];
      }
      if (command.declared === 'evasion') {
        if (!controls(state, ctx.actor, f.id)) refuse('not-your-character', `who: you do not play ${f.name}`, 'who');
      } else acting(f.id, 'who');
      // the Move or Action declared must be there to lose ("Grappled and Immobilised")
      if (command.declared !== 'evasion') payFor(state, f, command.declared === 'move' ? { who: f.id, move: 'an escape from a grapple' } : { who: f.id, action: 'an escape from a grapple' });
      const calls = GRAPPLE_TRIGGERS[state.options.grappleEscape];
      if (!calls.includes(command.declared)) refuse('no-escape-test', `declared: under grappleEscape=${state.options.grappleEscape} a grappled character's ${command.declared} calls for no escape test (only ${calls.join(', ')})`, 'declared', ruleCitation('grappled'));
      const g = state.fighters[grappler]!;
      // Melee Skill (Grappling), Acrobatics (Contortion) or Endurance against the grappler's Grappling or Endurance
      const own = command.target !== undefined ? { target: command.target, score: 'melee' as Score } : bestSkill(state.sheets[f.id]!, /grappl|acrobat|contortion|endurance/i, ['melee', 'agility', 'toughness']);
      const theirs = bestSkill(state.sheets[g.id]!, /grappl|endurance/i, ['melee', 'toughness']);
      const ownTest = resolveTest(own.target, ctx.dice.die(100), [...fateModifiers(f), ...testBurdens(f, { score: own.score }, state.options)], state.options);
      const theirTest = g.out ? null : resolveTest(theirs.target, drawIn(ctx.dice, `target:${g.id}`).die(100), testBurdens(g, { score: theirs.score }, state.options), state.options);
      const result = opposedRecord(g, ownTest, own.target, theirTest, theirs.target, state.options, ctx.dice);
      return [{ type: 'grapple-escape', data: { group, who: f.id, grappler, declared: command.declared, result, won: result.won } }];
    }
    case 'fall': {
      gmOnly('rule a fall');
      const f = fighter(state, command.who, 'who');
      // "Obstacles and unusual movement" (Falling): an intentional fall may test Athletics or Acrobatics
      let test: (TestRecord & { degrees: number }) | null = null;
      if (command.intentional) {
        const skill = bestSkill(state.sheets[f.id]!, /athletic|acrobat/i, ['agility']);
        const t = resolveTest(skill.target, ctx.dice.die(100), testBurdens(f, { score: skill.score }, state.options), state.options);
        test = { target: t.target, roll: t.roll, success: t.success, degrees: t.degrees };
      }
      const locationRoll = ctx.dice.die(100);
      const event: EncounterEvent = { type: 'fell', data: { group, who: f.id, metres: command.metres, test, locationRoll, damage: 0, location: 'body', defense: 0, wounds: [] } };
      const landed = landFall(f, event.data, state.options);
      return [{ ...event, data: { ...event.data, damage: landed.outcome.damage, location: landed.outcome.location.location, defense: landed.outcome.defense, wounds: landed.outcome.wounds } }];
    }
    case 'end-ailment': {
      acting(command.who, 'who');
      const f = fighter(state, command.who, 'who');
      if (!hasAilment(f, command.ailment)) refuse('no-such-ailment', `ailment: ${f.name} does not suffer ${AILMENTS[command.ailment].title}`, 'ailment', ruleCitation('ailments'));
      // Burning: an Agility test with two Disadvantages; Despaired: a Willpower test at -10; Panicked: a full Move and Action
      let test: TestRecord | null = null;
      if (command.ailment !== 'panicked') {
        const score: Score = command.ailment === 'burning' ? 'agility' : 'willpower';
        const mods = [modifier('disadvantage', command.ailment === 'burning' ? 'putting out the fire' : 'overcoming despair', command.ailment === 'burning' ? -20 : -10), ...fateModifiers(f), ...testBurdens(f, { score }, state.options)];
        const t = resolveTest(f.scores[score], ctx.dice.die(100), mods, state.options);
        test = { target: t.target, roll: t.roll, success: t.success };
      }
      const fate = test && f.pendingAdvantages ? { fate: f.pendingAdvantages } : {};
      return [{ type: 'ailment-fought', data: { group, who: f.id, ailment: command.ailment, test, ended: test ? test.success : true, ...fate } }];
    }
    case 'set-miasma': {
      gmOnly('set the Miasma growth rate');
      return [{ type: 'miasma-set', data: { group, rate: command.rate } }];
    }
    case 'new-week': {
      gmOnly('start a new week');
      if (!state.options.fatePointsPerWeek) refuse('no-weekly-refresh', 'type: this table does not refill Fate Points weekly (option fatePointsPerWeek)', 'type', ruleCitation('fatePoints'));
      return [{ type: 'week-started', data: { group } }];
    }
    case 'undo': {
      gmOnly('undo');
      requireSeen(state.seq, command.seen, 'undo');
      if (!state.groups) refuse('nothing-to-undo', 'there is nothing to undo', 'type');
      return [{ type: 'undone', data: { group } }];
    }
  }
}

/** Character names joined for a message ("A, B and C"); one hidden from the viewer is not named. */
function nameList(state: EncounterState, ids: readonly string[], viewer: Actor): string {
  const names = ids.map((id) => (visible(state, id, viewer) ? state.fighters[id]!.name : 'a character only the GM sees'));
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
}

/**
 * The attack a Confused character owes (the Confused row of the ailments passage, 4+ DoF): it goes to
 * the nearest character; of several that may be, the GM names one (confused-target, or by making the
 * attack on it). Refuses any other defender.
 */
function requireNearest(state: EncounterState, owed: ConfusedAttack, a: Fighter, d: Fighter, actor: Actor): true {
  const cite = ruleCitation('ailments');
  if (owedOnItself(owed) && d.id !== a.id) refuse('confused-self', `defender: ${a.name} is Confused and must attack itself`, 'defender', cite);
  const several = owed.candidates.length > 1;
  if (several && actor.role !== 'gm') refuse('nearest-undecided', `defender: ${a.name} is Confused and attacks the nearest character; the GM first names which of ${nameList(state, owed.candidates, actor)} (confused-target)`, 'defender', cite);
  if (!owed.candidates.includes(d.id)) refuse('confused-nearest', `defender: ${a.name} is Confused and must attack the nearest character, ${several ? 'one of ' : ''}${nameList(state, owed.candidates, actor)}`, 'defender', cite);
  return true;
}

/**
 * The characters that may be nearest to `f` (the Confused row of the ailments passage): of every other
 * character in the fight, those at the least distance on the map, altitude bands counted; one off the
 * map might be nearer, so it stays a candidate, and with `f` itself off the map every other one is.
 */
function nearestTo(state: EncounterState, f: Fighter): string[] {
  const others = Object.values(state.fighters).filter((o) => o.id !== f.id && !o.out);
  if (!f.conditions.position) return others.map((o) => o.id);
  // the flight passage: a flyer's band counts as its height, as for reach and range
  const away = (o: Fighter) => separation(f, o);
  const least = Math.min(...others.map((o) => away(o) ?? Infinity));
  return others.filter((o) => away(o) === null || away(o) === least).map((o) => o.id);
}

/**
 * A melee test that deals no damage (Grapple, Push, Knockdown), opposed by the defender's evasion
 * (with `endurance`, its Endurance (Injury) too, untrained at Toughness -20 when it has none).
 */
function meleeContest(state: EncounterState, a: Fighter, d: Fighter, attackTarget: number, evasionGiven: number | null | undefined, endurance: boolean, dice: DiceSource) {
  const spec: AttackSpec = { kind: 'melee', element: 'melee', damage: 0, attackTarget, evasionTarget: null, ...(a.pendingAdvantages ? { advantages: [{ label: 'Fate Point', count: a.pendingAdvantages }] } : {}), ...(scaryFaceAgainst(state.fighters, a, d) ? { disadvantages: [{ label: 'Scary Face', count: 1 }] } : {}) };
  const attack = resolveTest(attackTarget, drawIn(dice, 'attack').die(100), attackModifiers(a, d, spec, state.options), state.options);
  let ev = evasionOf(state.sheets[d.id]!);
  if (endurance) {
    const endurance = enduranceInjury(state.sheets[d.id]!, d);
    if (ev.target === null || endurance.target > ev.target) ev = { target: endurance.target, score: endurance.score, parry: false };
  }
  const evasionTarget = evasionGiven !== undefined ? evasionGiven : ev.target;
  const burdens = [...fateModifiers(d), ...(scaryFaceAgainst(state.fighters, d, a) ? [modifier('disadvantage', 'Scary Face', -10)] : []), ...testBurdens(d, { score: ev.score, ...(ev.parry ? { hand: 'right' as const } : {}) }, state.options)];
  const evasion = !attack.fumble && evasionTarget !== null && canOppose(d) ? resolveTest(evasionTarget, drawIn(dice, 'evasion').die(100), burdens, state.options) : null;
  const opposed = attack.fumble ? null : resolveOpposed(attack, evasion, state.options, { actor: () => drawIn(dice, 'attack').die(100), reactor: () => drawIn(dice, 'evasion').die(100) });
  return { attack, evasion, evasionTarget, attackTarget, won: !!opposed?.actorWins, ...(opposed?.tieRolls ? { tieRolls: opposed.tieRolls } : {}) };
}

/**
 * A fall as a hit (inventory U37: the wound rules apply, at a freshly rolled location): 1 damage per
 * metre less the test's DoS, against the Toughness Bonus alone (Armour ignored); like a reflected hit
 * it has no Critical or Technical bonus and no element.
 */
function landFall(f: Fighter, d: { metres: number; test: { success: boolean; degrees: number } | null; locationRoll: number }, options: D100Options) {
  const damage = fallDamage(d.metres, d.test ? { success: d.test.success, degreesOfSuccess: d.test.success ? d.test.degrees : 0 } : undefined);
  const steps: Modifier[] = [modifier('fall', `fall of ${d.metres} m`, d.metres), ...(damage < d.metres ? [modifier('degrees', 'Degrees of Success', damage - d.metres)] : [])];
  // option fallUsesWoundRules (U37): a fall is a hit under the wound rules, or deals its one wound only
  return landBlow(f, steps, d.locationRoll, true, options, options.fallUsesWoundRules === 'one-wound');
}

/** A blow that is not an attack (a fall, a Push into a solid object): no element, Critical or Technical bonus, a fresh location. */
function landBlow(f: Fighter, steps: Modifier[], locationRoll: number, ignoreArmour: boolean, options: D100Options, baseWoundOnly = false) {
  return landHit(f, { damageSteps: steps, element: 'almighty', tier: 1, kind: 'melee', location: hitLocation(locationRoll, { hitLocation: 'fresh-roll' }), critical: false, ignoreArmour, fateBlocks: 0, reflected: true, baseWoundOnly }, options);
}

/**
 * A pushed character meeting a solid object (Push): damage equal to the metres it had left, against
 * its Defense with Armour (only falls are said to ignore Armour).
 */
function landImpact(f: Fighter, left: number, locationRoll: number, options: D100Options) {
  return landBlow(f, [modifier('impact', `pushed into a solid object, ${left} m short`, left)], locationRoll, false, options);
}

/** A fall landed on a character: "Should you suffer a wound from a fall, then you fall prone". */
function fallOn(f: Fighter, d: Parameters<typeof landFall>[1], options: D100Options): Fighter {
  const landed = landFall(f, d, options);
  const wounded = landed.outcome.losses.some((l) => !l.blocked) || landed.outcome.personaWounds > 0;
  return wounded ? { ...landed.target, conditions: { ...landed.target.conditions, prone: true } } : landed.target;
}

/**
 * Panicked after an attack between the sufferer and the source of its panic (the ailments passage):
 * winning the test against the source ends the panic; failing it by far enough (option
 * panickedMargin) spends its next Move and Action fleeing.
 */
function panicAfterAttack(state: EncounterState, attackerId: string, defenderId: string, r: AttackResult): EncounterState {
  let s = state;
  const check = (who: string, source: string, own: TestResult | null, theirs: TestResult | null, won: boolean): void => {
    const f = s.fighters[who]!;
    const panic = f.ailments.find((a) => a.name === 'panicked' && a.source === source);
    if (!panic || !own) return;
    if (won) s = put(s, { ...f, ailments: f.ailments.filter((a) => a !== panic) });
    else if (!own.success && panicFlees(own.degreesOfFailure, theirs?.degreesOfSuccess ?? 0, s.options)) s = put(s, { ...f, conditions: { ...f.conditions, mustFlee: true } });
  };
  if (r.opposed) {
    check(attackerId, defenderId, r.attack, r.evasion, r.opposed.actorWins);
    check(defenderId, attackerId, r.evasion, r.attack, !r.opposed.actorWins && r.evasion !== null && r.evasion.success);
  }
  return s;
}

const RESIST_CITATION = seed('Elemental Affinities');
const SCATTER_CITATION = seed('Scatter (untitled passage after "Chance Attacks")');
const AFFINITY_LABEL = { weak: 'Weak to the element', resist: 'Resists the element' } as const;

/**
 * The test to resist an ailment (U42): the Score option ailmentResistScore names for its category,
 * with Defend's Advantage ("Defending and Protecting"), -20 when Weak to the element and +20 when
 * Resisting it ("Elemental Affinities"), and the Disadvantages every test of the target carries.
 */
function resistanceTest(state: EncounterState, f: Fighter, c: Extract<EncounterCommand, { type: 'inflict-ailment' }>, dice: DiceSource): ResistanceRecord {
  const physical = AILMENTS[c.ailment].category === 'physical' || AILMENTS[c.ailment].category === 'staggered';
  const score: Score = c.score ?? (state.options.ailmentResistScore === 'by-category' && physical ? 'toughness' : 'willpower');
  const affinity = c.element !== undefined ? effectiveAffinity(f, c.element) : 'normal';
  const mods: Modifier[] = [
    ...(f.conditions.defending ? [modifier('advantage', 'Defend', 10)] : []),
    ...(affinity === 'weak' ? [modifier('affinity', AFFINITY_LABEL.weak, -20)] : affinity === 'resist' ? [modifier('affinity', AFFINITY_LABEL.resist, 20)] : []),
    ...fateModifiers(f),
    ...testBurdens(f, { score }, state.options),
  ];
  const t = resolveTest(c.resistTarget ?? f.scores[score], drawIn(dice, `target:${f.id}`).die(100), mods, state.options);
  return { score, ...(c.element !== undefined ? { element: c.element } : {}), target: t.target, roll: t.roll, success: t.success, degrees: t.success ? t.degreesOfSuccess : t.degreesOfFailure, modifiers: mods.map((m) => ({ label: m.label, value: m.value })) };
}

function inflict(state: EncounterState, target: string, ailment: AilmentName, turns?: number | null, source?: string): EncounterState {
  const f = state.fighters[target]!;
  const r = inflictAilment(f.ailments, ailment, { turnsStarted: f.turnsStarted, ...(turns !== undefined ? { turns } : {}), ...(source !== undefined ? { source } : {}) }, (e) => isImmune(livingPersona(f)?.affinities ?? f.affinities, e), state.options);
  return r.ok ? put(state, { ...f, ailments: r.ailments }) : state;
}

/** Who controls each character of the encounter (null: the GM). */
function controllersOf(state: EncounterState): Array<string | null> {
  return Object.keys(state.fighters).map((id) => controllerOf(state, id));
}

/** Applies one event; the state it is given is never changed. */
export function evolveEncounter(state: EncounterState, event: EncounterEvent): EncounterState {
  const i = lastFold ? lastFold.events.indexOf(event) : -1;
  if (i >= 0 && lastFold!.states[i] === state) return lastFold!.states[i + 1]!;
  return foldEvent(state, event);
}

function foldEvent(state: EncounterState, event: EncounterEvent): EncounterState {
  const seq = state.seq + 1;
  if (event.type === 'undone') return { ...beforeLastCommand(state), seq };
  if (event.type === 'test-rerolled') {
    // The command just made is resolved anew with the kept roll; the Fate Point is spent, or the Distraction
    let s = beforeLastCommand(state);
    s = bleedAgain(s, apply(s, event.data.replacement));
    if (event.data.forcedBy) s = update(s, event.data.forcedBy, (d) => ({ ...d, conditions: { ...d.conditions, distracting: null } }));
    else s = update(s, event.data.who, (f) => ({ ...f, fate: { ...f.fate, current: f.fate.current - 1 } }));
    return { ...s, seq, groups: pushGroup(state.groups, [event], state) };
  }
  const paid = paying(state, event);
  let s = bleedAgain(state, apply(paid.state, event));
  // a One More that paid for the event is spent, unless the event earned a new one
  if (paid.oneMore && s.oneMore === state.oneMore) s = { ...s, oneMore: null };
  const last = state.groups;
  // A further event of the command on top grows its group; the group keeps the state it began from.
  const groups =
    last && last.top[0]!.data.group === event.data.group
      ? pushGroup(last.below, [...last.top, event], checkpoints.get(last))
      : pushGroup(last, [event], state);
  return { ...s, seq, groups };
}

/** An attack as decideCommand resolved it: the fighters, spec and options it was resolved with, and the result. */
interface ResolvedAttack {
  readonly attacker: Fighter;
  readonly defender: Fighter;
  readonly protector: Fighter | null;
  readonly spec: AttackSpec;
  readonly options: D100Options;
  readonly result: AttackResult;
}

/**
 * The attacks decideCommand has just resolved, by the dice array of their event. decideEncounter folds
 * the events it decides to check each one's cost, and the fold takes the result from here instead of
 * resolving the attack a second time. A copy of the event (one stored and read back) has other dice
 * arrays, and is resolved anew.
 */
const resolvedAttacks = new WeakMap<readonly number[], ResolvedAttack>();

function remember(dice: readonly number[], resolved: ResolvedAttack): void {
  resolvedAttacks.set(dice, resolved);
}

/** Whether two fighters differ in nothing but their Turn's spending. */
function sameButTurn(a: Fighter, b: Fighter): boolean {
  if (a === b) return true;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  keys.delete('turn');
  for (const k of keys) if (a[k as keyof Fighter] !== b[k as keyof Fighter]) return false;
  return true;
}

/** `after` (what resolving made of `decided`) as resolving made of `now`: `now` itself if unchanged, else with `now`'s Turn. */
function onto(after: Fighter, decided: Fighter, now: Fighter): Fighter {
  if (after === decided) return now;
  const { turn: _turn, ...rest } = after;
  return { ...now, ...rest };
}

/**
 * The result decideCommand reached for the attack whose event has `dice`, when it was resolved against
 * these very fighters, spec and options, the Turn paid for it aside (resolveAttack neither reads nor
 * changes a Turn); null otherwise, and the attack is resolved again.
 */
function resolvedAlready(dice: readonly number[], attacker: Fighter, defender: Fighter, spec: AttackSpec, options: D100Options, protector: Fighter | null): AttackResult | null {
  const m = resolvedAttacks.get(dice);
  if (!m || m.spec !== spec || m.options !== options || !sameButTurn(m.attacker, attacker) || !sameButTurn(m.defender, defender)) return null;
  if (m.protector === null ? protector !== null : protector === null || !sameButTurn(m.protector, protector)) return null;
  const r = m.result;
  return { ...r, attacker: onto(r.attacker, m.attacker, attacker), defender: onto(r.defender, m.defender, defender), ...(r.protector ? { protector: onto(r.protector, m.protector!, protector!) } : {}) };
}

/** A Confused character's owed attack is made: none is owed now, or (confusedBands=both) the one on itself after the one on the nearest. */
function owedAttackMade(state: EncounterState, who: string, chance: boolean): EncounterState {
  const owed = state.confusedAttack;
  if (owed?.who !== who || chance) return state;
  // confusedBands=both, 5+ DoF: the attack on the nearest made, the one on itself is owed (while it is still in the fight)
  return { ...state, confusedAttack: owed.thenItself && !state.fighters[who]?.out ? { who, candidates: [who], paid: true } : null };
}

/** A round of unconsciousness passes; at the last it wakes and is no longer Helpless ("Fatigue and Exhaustion"). */
function wakeCountdown(f: Fighter): Partial<Fighter['conditions']> {
  const left = f.conditions.unconscious;
  if (!left) return {};
  return left > 1 ? { unconscious: left - 1 } : { unconscious: 0, helpless: false };
}

/** Puncture ("Wounds and Injury"): Stress taken after first aid stopped the Blood Loss starts it again. */
function bleedAgain(before: EncounterState, after: EncounterState): EncounterState {
  let s = after;
  for (const f of Object.values(after.fighters)) {
    const was = before.fighters[f.id];
    if (!was || f.stress <= was.stress || f.out || f.conditions.bloodLoss || !bleedingReturns(f.injuries, f.injuriesIgnored)) continue;
    s = put(s, { ...f, conditions: { ...f.conditions, bloodLoss: true } });
  }
  return s;
}

function apply(state: EncounterState, event: EncounterEvent): EncounterState {
  switch (event.type) {
    case 'options-set':
      return { ...state, options: resolveOptions(event.data.preset, event.data.options), preset: event.data.preset };
    case 'character-added': {
      const f = fighterFromSheet(event.data.id, event.data.sheet);
      const controllers = { ...state.controllers, [event.data.id]: event.data.controller ?? null };
      return { ...put(state, f), sheets: { ...state.sheets, [event.data.id]: event.data.sheet }, controllers };
    }
    case 'controller-set':
      return { ...state, controllers: { ...state.controllers, [event.data.id]: event.data.controller } };
    case 'encounter-started': {
      let s: EncounterState = { ...state, order: event.data.order.map((e) => e.id), initiative: event.data.order, round: 1 };
      for (const id of event.data.surprised ?? []) s = update(s, id, (f) => ({ ...f, conditions: { ...f.conditions, surprised: true } }));
      return s;
    }
    case 'miasma-set':
      return { ...state, miasma: event.data.rate };
    case 'equipped': {
      const d = event.data;
      return update(state, d.who, (f) => ({ ...f, stowed: afterEquip(f.stowed ?? state.sheets[d.who]!.stowed, d.item, d.stow) }));
    }
    case 'reloading': {
      const d = event.data;
      const w = reloadable(state.sheets[d.who]!, d.weapon, 'weapon');
      return update(state, d.who, (f) => afterReloadAction({ ...f, ...(d.hurry ? { pendingAdvantages: 0 } : {}) }, w, d.left));
    }
    case 'consumable-used': {
      const d = event.data;
      const sheet = state.sheets[d.who]!;
      const left = consumablesLeft(sheet, state.fighters[d.who]!);
      const s = update(state, d.who, (f) => ({ ...f, consumables: { ...left, [d.item]: left[d.item]! - 1 } }));
      const effect = sheet.consumables.find((c) => c.name === d.item)!.effect;
      return update(s, d.target, (f) => applyConsumable(f, effect, state.options));
    }
    case 'went-stealthy':
      return update(state, event.data.who, (f) => ({ ...f, conditions: { ...f.conditions, stealthy: true } }));
    case 'disrupted': {
      const d = event.data;
      const s = update(state, d.who, (f) => ({ ...f, pendingAdvantages: 0, conditions: d.won && d.kind === 'distract' ? { ...f.conditions, distracting: d.target } : f.conditions }));
      if (!d.won || d.kind !== 'scary-face') return s;
      return update(s, d.target, (f) => ({ ...f, conditions: { ...f.conditions, scaredBy: [...(f.conditions.scaredBy ?? []).filter((by) => by !== d.who), d.who] } }));
    }
    case 'scattered':
      // where it comes down is told; what stands there is the GM's ruling
      return state;
    case 'analysed':
      return { ...state, knowledge: { ...state.knowledge, [event.data.target]: analysed(state.knowledge?.[event.data.target], event.data.advanced) } };
    case 'trick-resolved': {
      const d = event.data;
      let s = update(state, d.attacker, (f) => ({ ...f, pendingAdvantages: 0 }));
      if (d.evasionRoll !== null) s = update(s, d.defender, (f) => ({ ...f, pendingAdvantages: 0 }));
      if (!d.won) return s;
      if (d.kind === 'knockdown') return update(s, d.defender, (f) => ({ ...f, conditions: { ...f.conditions, prone: true } }));
      // Push: one metre away from the attacker per DoS, along the line between them (placed characters
      // only), as far as a solid object in the way; meeting it costs the metres left in Stress and damage
      const from = s.fighters[d.attacker]!.conditions.position;
      const travelled = d.impact ? d.impact.obstacle : d.metres;
      return update(s, d.defender, (f) => {
        const at = f.conditions.position;
        const g = from && at && travelled > 0 ? { ...f, conditions: { ...f.conditions, position: { ...at, x: at.x + Math.sign(at.x - from.x) * travelled, y: at.y + Math.sign(at.y - from.y) * travelled } } } : f;
        if (!d.impact) return g;
        const hit = landImpact(g, d.impact.left, d.impact.locationRoll, state.options).target;
        return { ...hit, stress: hit.stress + d.impact.left };
      });
    }
    case 'ailment-fought': {
      const d = event.data;
      // the test spends a Fate Point Advantage bought for it
      return update(state, d.who, (f) => ({ ...f, ...(d.fate ? { pendingAdvantages: 0 } : {}), ailments: d.ended ? f.ailments.filter((a) => a.name !== d.ailment) : f.ailments, ...(d.ailment === 'panicked' ? { conditions: { ...f.conditions, moved: true } } : {}) }));
    }
    case 'fell':
      return put(state, fallOn(state.fighters[event.data.who]!, event.data, state.options));
    case 'turn-started': {
      // Distract and Scary Face last until the start of the next turn of the one who made them
      state = { ...state, fighters: disruptionsEnd(state.fighters, event.data.id) };
      let f = state.fighters[event.data.id]!;
      const turn = f.turnsStarted + 1;
      const { active } = ailmentsAtTurnStart(f.ailments, turn);
      // Defend lasts until the start of the defender's next turn
      // A new Turn: Chance Attacks may be made again; a grapple whose grappler is out has ended
      const grappler = f.conditions.grappledBy;
      const free = grappler !== null && state.fighters[grappler]?.out === true;
      // Protect waits until the start of the protector's next turn under protectDuration=next-turn-start
      const protecting = state.options.protectDuration === 'next-turn-start' ? null : f.conditions.protecting;
      // "Structured Time": a fresh Move and Action
      const stemming = !!event.data.bloodLoss?.stemmed;
      // "Fate Points": the start-of-turn test that took an Advantage bought beforehand spends it
      if (event.data.fate) f = { ...f, pendingAdvantages: 0 };
      // Panicked: the flight the failed test called for takes this Turn's Move and Action
      const fleeing = event.data.fleeing ?? null;
      f = { ...f, turnsStarted: turn, ailments: active, turn: NOTHING_SPENT, conditions: { ...f.conditions, defending: false, protecting, moved: false, running: false, disengagedFrom: [], stemming: false, mustFlee: false, fleeing, ...(free ? { grappledBy: null } : {}) }, chance: { ...f.chance, sinceTurn: false } };
      if (f.conditions.bloodLoss && event.data.dice.length) {
        // "Blood Loss": the free test, with three Advantages when it spends its Action stemming the bleeding
        f = bloodLossTest(f, bloodLossRoll(f, event.data.dice[0]!, event.data.bloodLoss, state.options), state.options).fighter;
        if (stemming) f = { ...f, turn: { ...NOTHING_SPENT, action: STEM_LABEL } };
      }
      if (fleeing) f = { ...f, turn: { ...NOTHING_SPENT, action: FLIGHT_LABEL, move: FLIGHT_LABEL } };
      // Confused: 0-1 DoF, it does nothing this Turn
      else if (event.data.confused?.acts.includes('nothing')) f = { ...f, turn: { ...NOTHING_SPENT, action: IDLE_LABEL, move: IDLE_LABEL } };
      // 2-3 DoF: what that hand held falls (Equip Item picks it up), the drop its Action
      const confused = event.data.confused;
      if (confused?.dropped && confused.hand) {
        f = { ...f, stowed: [...(f.stowed ?? state.sheets[f.id]!.stowed), ...confused.dropped] };
        if (!f.turn?.action) f = { ...f, turn: { ...NOTHING_SPENT, ...f.turn, action: dropLabel(confused.hand) } };
      }
      // 4+ DoF: its Action is an attack on the nearest character, when it has an Action to make it with;
      // 5+ DoF: an attack on itself (option confusedBands=both: after the one on the nearest, if there is one)
      const canAct = !f.turn?.action && !f.ailments.some((a) => AILMENTS[a.name].noActions);
      const nearest = canAct && confused?.acts.includes('attack-nearest') ? nearestTo(state, f) : [];
      const onItself = canAct && !!confused?.acts.includes('attack-self');
      const attack: ConfusedAttack | null = nearest.length ? { who: f.id, candidates: nearest, ...(onItself ? { thenItself: true as const } : {}) } : onItself ? { who: f.id, candidates: [f.id] } : null;
      const owed = attack ? { confusedAttack: attack } : state.confusedAttack ? { confusedAttack: null } : {};
      // Despaired: 5 Stress at the start of each of its turns; Miasma: the Stress its failed test cost
      if (hasAilment(f, 'despaired')) f = { ...f, stress: f.stress + 5 };
      if (event.data.miasma?.stress) f = { ...f, stress: f.stress + event.data.miasma.stress };
      return { ...put(state, f), current: event.data.id, round: event.data.round, oneMore: null, ...owed };
    }
    case 'attack-resolved': {
      const before = state.fighters[event.data.attacker]!;
      const protector = event.data.protector ? state.fighters[event.data.protector]! : null;
      const defender = state.fighters[event.data.defender]!;
      const r = resolvedAlready(event.data.dice, before, defender, event.data.spec, state.options, protector) ?? resolveAttack(before, defender, event.data.spec, given(event.data.dice), state.options, protector);
      // an attack on itself (Confused, 5+ DoF) lands on the one fighter: the defender's side, or the attacker's when repelled
      const onItself = event.data.attacker === event.data.defender;
      let s = onItself ? put(state, r.repelled ? r.attacker : r.defender) : put(put(state, r.attacker), r.defender);
      // Protect is spent on the attack that hit the ally
      if (r.protector) s = put(s, { ...r.protector, conditions: { ...r.protector.conditions, protecting: null } });
      s = panicAfterAttack(s, event.data.attacker, event.data.defender, r);
      if (event.data.shockTest && !event.data.shockTest.success) s = inflict(s, event.data.attacker, 'shocked');
      const b = event.data.summary.burst;
      if (b) {
        const wounds: Record<string, number> = {};
        for (const p of b.purchases) if ('extraWound' in p) wounds[p.extraWound] = (wounds[p.extraWound] ?? 0) + 1;
        for (const f of burstHits(state, before, event.data.spec, r, b.purchases, wounds, given(b.dice)).fighters) s = put(s, f);
      }
      // The tests made spend the Fate Point Advantages bought for them; a Chance Attack is counted
      const a = s.fighters[event.data.attacker]!;
      const chance = event.data.spec.chanceAttack ? { sinceTurn: true, targetsThisRound: [...a.chance.targetsThisRound, event.data.defender] } : a.chance;
      // a Focused Attack leaves no Move for the rest of the turn
      // Broken Fingers: attacking with that hand costs 5 Stress; Cracked: a failed attack test its DoF
      const handStress = event.data.spec.kind === 'magic' ? 0 : injuryStress(a.injuries, a.injuriesIgnored, { hand: event.data.spec.hand ?? 'right' });
      const failStress = r.attack.success ? 0 : injuryStress(a.injuries, a.injuriesIgnored, { failedBy: r.attack.degreesOfFailure });
      // an attack from stealth ends it (option stealthAttack)
      const unseen = a.conditions.stealthy && s.options.stealthAttack === 'ambushing' ? { stealthy: false } : {};
      // Reload, "Fumble": the attack fires one shot; a Fumble jams the weapon and loses all it holds
      const shot = event.data.spec.ammunition !== undefined ? { loaded: afterShot(a, reloadable(s.sheets[a.id]!, event.data.spec.ammunition, 'weapon'), r.fumble) } : {};
      s = put(s, { ...a, ...shot, pendingAdvantages: 0, chance, stress: a.stress + handStress + failStress, conditions: { ...a.conditions, ...unseen, ...(event.data.spec.action === 'focused' ? { moved: true } : {}) } });
      const d = s.fighters[event.data.defender]!;
      s = put(s, { ...d, pendingAdvantages: event.data.summary.evasionRoll !== null ? 0 : d.pendingAdvantages, openings: event.data.spec.chanceAttack ? d.openings.filter((o) => o.by !== event.data.attacker) : d.openings, evasionsThisRound: (d.evasionsThisRound ?? 0) + (r.evasion ? 1 : 0) });
      // option affinityReveal: a landed hit shows the struck character's affinity to its element
      if (event.data.summary.hit) {
        const knowledge = { ...s.knowledge };
        for (const id of [event.data.summary.protectedBy ?? event.data.defender, ...(b?.extra.map((h) => h.id) ?? [])]) {
          const k = struck(knowledge[id], event.data.spec.element, s.options);
          if (k) knowledge[id] = k;
        }
        s = { ...s, knowledge };
      }
      const held = state.oneMore?.holder === event.data.attacker ? state.oneMore : null;
      // "One More": staggering earns one; a One More action may earn another; otherwise it is spent
      // (a One More that paid for the attack and earned none is spent by the economy: see paying)
      if (r.oneMore && !onItself) s = { ...s, oneMore: { holder: event.data.attacker, chain: held?.chain ?? [event.data.attacker], advantages: 0 } };
      return owedAttackMade(s, event.data.attacker, !!event.data.spec.chanceAttack);
    }
    case 'exhaustion-tested': {
      // the Fate Point Advantages the test took are spent; a failure: unconscious, and so Helpless, for its Stress in minutes
      const s = event.data.fate ? update(state, event.data.who, (f) => ({ ...f, pendingAdvantages: 0 })) : state;
      return event.data.success ? s : update(s, event.data.who, (f) => ({ ...f, conditions: { ...f.conditions, helpless: true, unconscious: event.data.minutes * ROUNDS_PER_MINUTE } }));
    }
    case 'staunched': {
      const s = update(state, event.data.who, (f) => ({ ...f, pendingAdvantages: 0 }));
      return event.data.test.success ? update(s, event.data.target, (f) => ({ ...f, conditions: { ...f.conditions, bloodLoss: false, stemming: false } })) : s;
    }
    case 'stemming-declared':
      return update(state, event.data.who, (f) => ({ ...f, conditions: { ...f.conditions, stemming: event.data.stem } }));
    case 'bleeding-test-chosen':
      return update(state, event.data.who, (f) => ({ ...f, conditions: { ...f.conditions, bleedingTest: event.data.test } }));
    case 'fate-block-declared':
      return update(state, event.data.who, (f) => ({ ...f, conditions: { ...f.conditions, blockHeavy: event.data.heavy } }));
    case 'power-wasted':
      // the wasted action is spent all the same (see costOf), an owed Confused attack with it
      return owedAttackMade(state, event.data.who, false);
    case 'confused-target-chosen':
      return { ...state, confusedAttack: { ...state.confusedAttack, who: event.data.who, candidates: [event.data.target] } };
    case 'baton-passed': {
      const om = state.oneMore!;
      return { ...state, oneMore: { holder: event.data.to, chain: [...om.chain, event.data.to], advantages: event.data.advantages } };
    }
    case 'all-out-attack': {
      const om = state.oneMore!;
      const parts = event.data.participants.map((p) => ({ fighter: state.fighters[p.id]!, target: p.target, roll: p.roll }));
      const r = resolveAllOutAttack(parts, enemiesOf(state, om.holder), state.options);
      let s = state;
      for (const f of [...r.enemies, ...r.participants]) s = put(s, f);
      return { ...s, oneMore: null };
    }
    case 'defending': {
      const f = state.fighters[event.data.id]!;
      return put(state, { ...f, conditions: { ...f.conditions, defending: true } });
    }
    case 'protecting':
      return update(state, event.data.id, (f) => ({ ...f, conditions: { ...f.conditions, protecting: event.data.ally } }));
    case 'placed':
      return update(state, event.data.target, (f) => ({ ...f, conditions: { ...f.conditions, position: event.data.position, ...(event.data.altitude ? { altitude: event.data.altitude } : {}) } }));
    case 'moved': {
      const d = event.data;
      // Broken Toes: every Move costs 1 Stress
      let s = update(state, d.who, (f) => ({ ...f, stress: f.stress + injuryStress(f.injuries, f.injuriesIgnored, { move: true }), conditions: { ...f.conditions, position: d.to, moved: true, running: f.conditions.running || d.run, ...(d.altitude ? { altitude: d.altitude } : {}) }, openings: [...f.openings, ...d.left.map((by) => ({ by, trigger: 'flee' as const }))] }));
      // "Difficult Terrain": a failed full-speed crossing ends prone (Uneven) or takes the terrain's hit (Damaging)
      const t = d.terrainTest;
      if (t) s = update(s, d.who, (f) => {
        const g = t.damage !== null ? landTerrain(f, t, state.options) : f;
        return { ...g, pendingAdvantages: 0, conditions: { ...g.conditions, prone: g.conditions.prone || t.prone } };
      });
      // a failed stealth test gives the mover away; a stealth test that took a Fate Point Advantage spends it
      if (d.stealth && !d.stealth.success) s = update(s, d.who, (f) => ({ ...f, conditions: { ...f.conditions, stealthy: false } }));
      if (d.stealth?.fate) s = update(s, d.who, (f) => ({ ...f, pendingAdvantages: 0 }));
      // a second Move spends the One More
      return d.oneMore ? { ...s, oneMore: null } : s;
    }
    case 'terrain-set':
      return update(state, event.data.target, (f) => ({ ...f, conditions: { ...f.conditions, difficultTerrain: event.data.dtn, terrain: event.data.kind, terrainDamage: event.data.damage } }));
    case 'movement-tested':
      return update(state, event.data.who, (f) => ({ ...f, pendingAdvantages: 0 }));
    case 'wounds-restored':
      return update(state, event.data.target, (f) => {
        const r = restoreWounds(f.tracks, event.data.light, event.data.heavy);
        const injuries = injuriesAfterRestoring(f.injuries, r.heavyRestored, r.tracks.left.heavy === r.tracks.max.heavy, state.options);
        return { ...f, tracks: r.tracks, injuries };
      });
    case 'resource-used':
      return update(state, event.data.who, (f) => useResource(f, event.data.resource, event.data.amount));
    case 'injuries-treated':
      return update(state, event.data.target, (f) => ({ ...f, injuries: treatInjuries(f.injuries, state.options) }));
    case 'ailment-inflicted': {
      const d = event.data;
      // a resistance test spends the Fate Point Advantages bought for it; passed, the ailment does not take hold
      const s = d.resistance ? update(state, d.target, (f) => ({ ...f, pendingAdvantages: 0 })) : state;
      return d.resistance?.success ? s : inflict(s, d.target, d.ailment, d.turns, d.source);
    }
    case 'condition-set': {
      const f = state.fighters[event.data.target]!;
      // the GM ending Helplessness wakes an unconscious character
      const woken = event.data.condition === 'helpless' && !event.data.value ? { unconscious: 0 } : {};
      // a flyer's fall starts from the band it is at
      if (event.data.condition === 'falling') return put(state, { ...f, conditions: { ...f.conditions, falling: event.data.value && altitudeOf(f) !== 'ground' ? (altitudeOf(f) as 'low' | 'high') : undefined } });
      return put(state, { ...f, conditions: { ...f.conditions, [event.data.condition]: event.data.value, ...woken } });
    }
    case 'fate-spent': {
      const f = state.fighters[event.data.who]!;
      const d = event.data;
      const g =
        d.spend === 'restore-light' ? spendRestoreLight(f)
        : d.spend === 'remove-ailment' ? (d.ailment ? spendRemoveAilment(f, d.ailment) : refuse('no-ailment', 'ailment: name the ailment to remove', 'ailment', ruleCitation('fatePoints')))
        : d.spend === 'revive-persona' ? spendRevivePersona(f)
        : d.spend === 'restore-resource' ? (d.resource ? spendRestoreResource(f, d.resource) : refuse('no-resource', 'resource: name the pool to restore (spirit or exertion)', 'resource', ruleCitation('fatePoints')))
        : spendPoint(f, d.spend);
      // "Fate Points": two Advantages (option fatePointAdvantages) on the next test; an Injury ignored for the Round
      if (d.spend === 'advantage') return put(state, { ...g, pendingAdvantages: g.pendingAdvantages + fateAdvantages(state.options) });
      if (d.spend === 'ignore-injury' && d.location) return put(state, { ...g, injuriesIgnored: [...g.injuriesIgnored, d.location] });
      return put(state, g);
    }
    case 'turn-ended': {
      const f = state.fighters[event.data.id]!;
      // the openings it gave (a Flee, a failed Grapple) are answered in its Turn or not at all
      // a Panicked flight takes the Turn's Move and Action, and ends with it
      const active = ailmentsAtTurnEnd(f.ailments, f.turnsStarted).active.filter((a) => !(a.name === 'frozen' && event.data.frozen?.success));
      const after = put(state, { ...f, ...(event.data.fate ? { pendingAdvantages: 0 } : {}), ailments: active, openings: [], conditions: { ...f.conditions, fleeing: null } });
      // an owed Confused attack not made goes with the Turn
      return { ...after, ...(after.confusedAttack?.who === f.id ? { confusedAttack: null } : {}), oneMore: null };
    }
    case 'test-rolled':
      // Cracked: a failed test costs its DoF in Stress; Broken Fingers: using that hand costs 5
      return update(state, event.data.who, (f) => ({ ...f, pendingAdvantages: 0, stress: f.stress + injuryStress(f.injuries, f.injuriesIgnored, { ...(event.data.success ? {} : { failedBy: event.data.degrees }), ...(event.data.hand ? { hand: event.data.hand } : {}) }) }));
    case 'disengaged': {
      // the enemies it got away from cleanly: every one named for the Action, those it beat for a test
      const clean = event.data.method === 'action' ? (event.data.from ?? []) : event.data.results.filter((r) => r.won).map((r) => r.enemy);
      return update(state, event.data.who, (f) => ({ ...f, pendingAdvantages: event.data.method === 'test' ? 0 : f.pendingAdvantages, openings: [...f.openings, ...event.data.fled.map((by) => ({ by, trigger: 'flee' as const }))], conditions: { ...f.conditions, disengagedFrom: [...(f.conditions.disengagedFrom ?? []), ...clean] } }));
    }
    case 'fled':
      return update(state, event.data.who, (f) => ({ ...f, openings: [...f.openings, ...event.data.from.map((by) => ({ by, trigger: 'flee' as const }))] }));
    case 'grapple-resolved': {
      const d = event.data;
      let s = update(state, d.attacker, (f) => ({ ...f, pendingAdvantages: 0, openings: f.openings }));
      if (d.won) s = update(s, d.defender, (f) => ({ ...f, conditions: { ...f.conditions, grappledBy: d.attacker } }));
      else s = update(s, d.attacker, (f) => ({ ...f, openings: [...f.openings, { by: d.defender, trigger: 'failed-grapple' as const }] }));
      return d.evasionRoll !== null ? update(s, d.defender, (f) => ({ ...f, pendingAdvantages: 0 })) : s;
    }
    case 'grapple-escape':
      return update(state, event.data.who, (f) => ({ ...f, pendingAdvantages: event.data.result ? 0 : f.pendingAdvantages, conditions: event.data.won ? { ...f.conditions, grappledBy: null } : f.conditions }));
    case 'test-rerolled':
      return state;
    case 'round-ended': {
      // A new Round: each enemy may be Chance-Attacked again; ignored Injuries count again
      let s = state;
      for (const f of Object.values(state.fighters)) s = put(s, { ...f, chance: { ...f.chance, targetsThisRound: [] }, injuriesIgnored: [], evasionsThisRound: 0, conditions: { ...f.conditions, surprised: false, ...wakeCountdown(f) } });
      // A falling flyer drops a band at the end of each round; reaching Ground it crashes, as a fall of 50 m from High or 20 m from Low
      for (const f of Object.values(s.fighters)) {
        const from = f.conditions.falling;
        if (!from || f.out) continue;
        if (altitudeOf(f) === 'high') s = put(s, { ...f, conditions: { ...f.conditions, altitude: 'low' } });
        else {
          const crash = event.data.crashes?.find((c) => c.who === f.id);
          const landed = { ...f, conditions: { ...f.conditions, altitude: 'ground' as const, falling: undefined } };
          s = put(s, crash ? fallOn(landed, { metres: crashMetres(from), test: null, locationRoll: crash.locationRoll }, state.options) : landed);
        }
      }
      // Burning: at the end of each round a Damage 4 attack ignoring Armour, +1 per round burning, at most 1 wound
      for (const f of Object.values(s.fighters)) {
        const burning = f.ailments.find((a) => a.name === 'burning');
        if (!burning || f.out) continue;
        const damage = 4 + burning.elapsed;
        // "ignoring AP" (option apMeans): Armour ignored, or the body's Armour counted in full
        const defense = defenseToughnessBonus(f, state.options) + (state.options.apMeans === 'armour-penetration' ? armourAt(f, 'body', state.options) : 0);
        const wound = state.options.burning === 'automatic-wound' || damage > defense;
        // "Fate Points", Block Heavy Wound: a Heavy wound it deals is blocked as its player declared
        // "Wounds and Injury", Bruised Rib: the burn's wound brings one more, unless a Fate Point ignores
        // it this Round, the Round the burn ends (the ignored list as it stood before the reset above)
        const applied = wound ? applyWounds(f.tracks, hasBruisedRib(f.injuries, state.fighters[f.id]?.injuriesIgnored ?? []) ? 2 : 1, 0, state.options, blocksOnHit(f)) : null;
        const ailments = f.ailments.map((a) => (a === burning ? { ...a, elapsed: a.elapsed + 1 } : a));
        let g: Fighter = applied ? { ...afterBlocking(f, applied.fateSpent), tracks: applied.tracks, stress: f.stress + applied.stress, ailments } : { ...f, ailments };
        // "Wounds and Injury": a Heavy wound gives the Injury for its location; the burn names none (option burningInjury)
        if (applied && state.options.burningInjury === 'body') g = takeInjuries(g, 'body', f.tracks.left.heavy, applied.losses, state.options).fighter;
        s = put(s, isOut(g.tracks) ? { ...g, out: true, dead: state.options.deadlyWound === 'dead' } : g);
      }
      return s;
    }
    case 'week-started': {
      // "Fate Points": the pool refills at the start of each week
      let s = state;
      for (const f of Object.values(state.fighters)) s = put(s, weeklyRefresh(f, state.options));
      return s;
    }
    case 'undone':
      return state;
  }
}

/** What a viewer may see of a character: hidden GM characters are not shown to players. */
function visible(state: EncounterState, who: string, viewer: Actor): boolean {
  return viewer.role === 'gm' || !state.sheets[who]?.hidden;
}


/**
 * How a view names other characters: a hidden one's id in a list is left out, and a lone one becomes
 * WITHHELD, so that a viewer who may not see it learns neither its id nor, from a list, that it is there.
 */
interface Naming {
  show(id: string): boolean;
  one<T extends string | null | undefined>(id: T): T | typeof WITHHELD;
  some(ids: readonly string[]): string[];
}

function namingFor(show: (id: string) => boolean): Naming {
  return { show, one: (id) => (id && !show(id) ? WITHHELD : id), some: (ids) => ids.filter(show) };
}

/** A fighter with every other character's id in it named as the viewer may see them (Naming). */
function namedFighter(f: Fighter, n: Naming): Fighter {
  const c = f.conditions;
  const conditions: Conditions = {
    ...c,
    grappledBy: n.one(c.grappledBy),
    protecting: n.one(c.protecting),
    ...(c.fleeing !== undefined ? { fleeing: n.one(c.fleeing) } : {}),
    ...(c.distracting !== undefined ? { distracting: n.one(c.distracting) } : {}),
    ...(c.disengagedFrom ? { disengagedFrom: n.some(c.disengagedFrom) } : {}),
    ...(c.scaredBy ? { scaredBy: n.some(c.scaredBy) } : {}),
  };
  return {
    ...f,
    conditions,
    ailments: f.ailments.map((a) => (a.source === undefined ? a : { ...a, source: n.one(a.source) })),
    chance: { ...f.chance, targetsThisRound: n.some(f.chance.targetsThisRound) },
    openings: f.openings.filter((o) => n.show(o.by)),
  };
}

/** The characters an event names, for a viewer who must see them all to be shown it (the start of the encounter is named apart: namedStart). */
function mentions(event: EncounterEvent): string[] {
  const d = event.data as Record<string, unknown>;
  const out: string[] = [];
  for (const k of ['id', 'attacker', 'defender', 'target', 'who', 'from', 'to', 'grappler', 'ally', 'source', 'protector', 'forcedBy']) if (typeof d[k] === 'string') out.push(d[k] as string);
  if (event.type === 'all-out-attack') out.push(...event.data.participants.map((p) => p.id), ...event.data.killed, ...Object.keys(event.data.fateSpent ?? {}));
  if (event.type === 'fled') out.push(...event.data.from);
  if (event.type === 'moved') out.push(...event.data.left, ...event.data.engaged);
  if (event.type === 'disengaged') out.push(...event.data.results.map((r) => r.enemy), ...event.data.fled, ...(event.data.from ?? []));
  if (event.type === 'attack-resolved') out.push(...(event.data.summary.protectedBy ? [event.data.summary.protectedBy] : []), ...(event.data.summary.burst?.extra.map((h) => h.id) ?? []));
  if (event.type === 'test-rerolled') out.push(...mentions(event.data.replacement));
  return out;
}

type EncounterStarted = Extract<EncounterEvent, { type: 'encounter-started' }>;

/**
 * The start of the encounter as a viewer who may not see every character is told it (Naming): the
 * hidden ones are left out of the initiative order and the Surprised, and a shown character that
 * rolled off with a hidden one keeps its place but not its roll-off dice, which would tell of the tie.
 * Under initiativeLastTie=players-first the party and the others roll off apart, so only a hidden
 * character on the same side of that split withholds them. The dice are those of the roll-offs still
 * shown. A viewer who sees every character gets the event unchanged.
 */
function namedStart(event: EncounterStarted, n: Naming, rolledApart: (a: string, b: string) => boolean): EncounterStarted {
  const tie = (a: InitiativeEntry, b: InitiativeEntry) => a.initiative === b.initiative && a.score === b.score && a.fate === b.fate && !rolledApart(a.id, b.id);
  const hidden = event.data.order.filter((o) => !n.show(o.id));
  // Nothing hidden: the start as it was rolled, its dice in the order they were drawn.
  if (hidden.length === 0 && (event.data.surprised ?? []).every(n.show)) return event;
  const order = event.data.order.filter((o) => n.show(o.id)).map((o) => (hidden.some((h) => tie(h, o)) ? { ...o, rollOff: [] } : o));
  const { surprised: all, ...data } = event.data;
  const surprised = n.some(all ?? []);
  return { ...event, data: { ...data, order, dice: order.flatMap((o) => o.rollOff), ...(surprised.length ? { surprised } : {}) } };
}

/** One character as a viewer is shown it. */
export interface CharacterView {
  readonly id: string;
  readonly name: string;
  readonly side: string;
  /** Wounds left and the tracks' sizes; null while the viewer does not know them (Advanced Analyse Target, option detailsReveal). */
  readonly wounds: { readonly light: number; readonly heavy: number; readonly deadly: number } | null;
  readonly woundMax: { readonly light: number; readonly heavy: number; readonly deadly: number } | null;
  readonly stress: number;
  readonly persona: { readonly name: string; readonly wounds: number | null; readonly max: number | null } | null;
  readonly ailments: readonly { readonly name: AilmentName; readonly turnsLeft: number | null }[];
  readonly injuries: Fighter['injuries'];
  readonly conditions: Fighter['conditions'];
  readonly fatePoints: number;
  readonly spirit: { readonly current: number; readonly max: number };
  readonly exertion: { readonly current: number; readonly max: number };
  /** The enemies it stands adjacent to on the map: Engaged in Melee ("Movement and Combat"). */
  readonly engagedWith: readonly string[];
  readonly canOppose: boolean;
  readonly out: boolean;
  readonly dead: boolean;
  /** The sheet and the fighter with what the viewer does not know left out (its unknown affinities; Scores, wounds and traits). */
  readonly sheet: ShownSheet | undefined;
  readonly fighter: ShownFighter;
  /** The elements whose affinity the viewer is shown ("all", or those learnt: Analyse Target, option affinityReveal). */
  readonly affinitiesKnown: 'all' | readonly RegularElement[];
  /** Whether the party has analysed it ("Analysing Targets, Disrupting Targets and Tricks"). */
  readonly analysed: 'basic' | 'advanced' | null;
  /** Whether the viewer is shown its Wounds, Scores and Traits (option detailsReveal). */
  readonly detailsKnown: boolean;
  /**
   * What is left of its Turn ("Structured Time"): its own Action and Move (free only on its own Turn),
   * what took each when spent, and whether it holds a One More (one more Move or Action).
   */
  readonly turn: Remaining;
}

/** The encounter as one viewer is shown it: hidden GM characters are absent for players. */
export interface EncounterView {
  readonly preset: string;
  readonly options: D100Options;
  readonly round: number;
  /** Whose turn; "hidden" when it is a character the viewer may not see. */
  readonly current: string | null;
  readonly order: readonly string[];
  readonly oneMore: OneMore | null;
  /** The attack on the nearest character a Confused character owes this Turn, with the candidates the viewer may see; several: the GM names one. */
  readonly confusedAttack: ConfusedAttack | null;
  /** The Miasma growth rate of the Sea of Chaos the fight is in, 0 outside it ("Unprotected from Miasma"). */
  readonly miasma: number;
  readonly allOutAttackReady: boolean;
  readonly characters: readonly CharacterView[];
  /** The latest events in effect that the viewer may see (at most LOG_SHOWN), oldest first, as the viewer may see them. */
  readonly log: readonly ShownEncounterEvent[];
  /** Older events this viewer may see that are not in `log` (what the viewer may not see is not counted). */
  readonly logOmitted: number;
}

/** How many of the latest events a view carries. */
export const LOG_SHOWN = 60;

/**
 * The fields hideUnknownNumbers may write as null: the target numbers, Scores and defenses of a
 * character whose Scores the viewer does not know.
 */
export const UNKNOWN_NUMBER_FIELDS = ['target', 'score', 'defense', 'base', 'otherBase', 'attackTarget', 'evasionTarget', 'enemyTarget', 'attack', 'evasion'] as const;
type UnknownNumberField = (typeof UNKNOWN_NUMBER_FIELDS)[number];
type Unknowable<V> = V extends number ? number | null : WithUnknownNumbers<V>;

/** `T` with every number under a field of UNKNOWN_NUMBER_FIELDS, at any depth, possibly null. */
export type WithUnknownNumbers<T> = T extends readonly (infer U)[]
  ? readonly WithUnknownNumbers<U>[]
  : T extends object
    ? { readonly [K in keyof T]: K extends UnknownNumberField ? Unknowable<T[K]> : WithUnknownNumbers<T[K]> }
    : T;

type CharacterAdded = Extract<EncounterEvent, { type: 'character-added' }>;
type TestRerolled = Extract<EncounterEvent, { type: 'test-rerolled' }>;

/**
 * A d100 event as a viewer other than the GM receives it (redactD100Event): a number of a character
 * whose Scores the viewer does not know may be null (hideUnknownNumbers), and a sheet comes without
 * what the viewer does not know (redactSheet). An event as the GM receives it is one too.
 */
export type ShownEncounterEvent =
  | WithUnknownNumbers<Exclude<EncounterEvent, CharacterAdded | TestRerolled>>
  | { readonly type: 'character-added'; readonly data: Omit<CharacterAdded['data'], 'sheet'> & { readonly sheet: ShownSheet } }
  | { readonly type: 'test-rerolled'; readonly data: Omit<TestRerolled['data'], 'replacement'> & { readonly replacement: ShownEncounterEvent } };

/** An event as a viewer may see it: one that mentions a hidden GM character is not shown to players. */
export function redactD100Event(event: EncounterEvent, viewer: Actor, state: EncounterState): ShownEncounterEvent | null {
  if (viewer.role === 'gm') return event;
  if (event.type === 'character-added' && event.data.sheet.hidden) return null;
  // an enemy's affinities, Arcana and Personality stay hidden until the party learns them
  // (and its Wounds, Scores and Traits until an Advanced Analyse: option detailsReveal)
  if (event.type === 'character-added') return { ...event, data: { ...event.data, sheet: redactSheet(event.data.sheet, shownOf(state, event.data.id, viewer)) } };
  // the round ends for everyone; a hidden character's crash is not told
  if (event.type === 'round-ended' && event.data.crashes) {
    const crashes = event.data.crashes.filter((c) => visible(state, c.who, viewer));
    const { crashes: _all, ...data } = event.data;
    return { ...event, data: crashes.length ? { ...data, crashes } : data };
  }
  const show = (id: string) => visible(state, id, viewer);
  if (!mentions(event).every(show)) return null;
  const n = namingFor(show);
  // the encounter starts for everyone, without a hidden character's place in it; a shown character
  // fleeing from a hidden one: the flight is told, not from whom (Naming)
  // "Combat Structure", Step Three (option initiativeLastTie, U13): players-first rolls the party's tie apart from the rest
  const party = (id: string) => state.fighters[id]?.side === 'pc';
  const rolledApart = (a: string, b: string) => state.options.initiativeLastTie === 'players-first' && party(a) !== party(b);
  const named = event.type === 'encounter-started' ? namedStart(event, n, rolledApart) : event.type === 'turn-started' && event.data.fleeing ? { ...event, data: { ...event.data, fleeing: n.one(event.data.fleeing) } } : event;
  // nor the target numbers of its rolls, from which its Scores follow (hideUnknownNumbers below)
  const out = hideUnknownNumbers(named, (id) => !knownDetails(state, id, viewer));
  // an affinity not yet known is not told by the resistance test it changed, nor by its target number
  if (out.type === 'ailment-inflicted' && out.data.resistance?.element !== undefined) {
    const known = shownOf(state, out.data.target, viewer).affinities;
    if (known !== 'all' && !known.includes(out.data.resistance.element as RegularElement)) {
      const { element: _element, ...r } = out.data.resistance;
      const hidden = Object.values(AFFINITY_LABEL) as string[];
      return { ...out, data: { ...out.data, resistance: { ...r, target: r.modifiers.some((m) => hidden.includes(m.label)) ? null : r.target, modifiers: r.modifiers.filter((m) => !hidden.includes(m.label)) } } } as ShownEncounterEvent;
    }
  }
  return out;
}

/**
 * The target numbers of a character's rolls, as a viewer who does not know its Scores is shown them
 * (d100-combat-rules.txt, "Analysing Targets, Disrupting Targets and Tricks": only an Advanced Analyse
 * Target reveals an enemy's Scores, Wounds and Traits; option detailsReveal). A target number less its
 * listed modifiers is the Score it was rolled against, and a defense is its Toughness Bonus and
 * Unnatural Toughness, so both are written as null for such a character; the roll, success, degrees,
 * critical, fumble and the outcome stay.
 */
export function hideUnknownNumbers(event: EncounterEvent, unknown: (id: string) => boolean): ShownEncounterEvent {
  const num = (id: string, n: number | null): number | null => (unknown(id) ? null : n);
  const test = <T extends { target: number } | null | undefined>(id: string, t: T): WithUnknownNumbers<T> => (t && unknown(id) ? { ...t, target: null } : t) as WithUnknownNumbers<T>;
  const opposedFor = (id: string, r: OpposedRecord) => ({ ...r, target: num(id, r.target), enemyTarget: num(r.enemy, r.enemyTarget) });
  const e = event;
  switch (e.type) {
    case 'encounter-started':
      return { ...e, data: { ...e.data, order: e.data.order.map((o) => ({ ...o, score: num(o.id, o.score) })) } };
    case 'fell':
      return { ...e, data: { ...e.data, test: test(e.data.who, e.data.test), defense: num(e.data.who, e.data.defense) } };
    case 'turn-started': {
      if (!unknown(e.data.id)) return e;
      const { confused, miasma, bloodLoss } = e.data;
      const b = bloodLoss && ({ ...bloodLoss, target: null, ...(bloodLoss.base !== undefined ? { base: null } : {}), ...(bloodLoss.otherBase !== undefined ? { otherBase: null } : {}) } as unknown as BloodLossRecord);
      return { ...e, data: { ...e.data, ...(confused ? { confused: test(e.data.id, confused) } : {}), ...(miasma ? { miasma: test(e.data.id, miasma) } : {}), ...(b ? { bloodLoss: b } : {}) } };
    }
    case 'attack-resolved': {
      const d = e.data;
      const struck = d.summary.protectedBy ?? d.defender;
      const burst = d.summary.burst && { ...d.summary.burst, extra: d.summary.burst.extra.map((h) => ({ ...h, defense: num(h.id, h.defense) })) };
      return {
        ...e,
        data: {
          ...d,
          spec: { ...d.spec, attackTarget: num(d.attacker, d.spec.attackTarget), evasionTarget: num(d.defender, d.spec.evasionTarget) },
          summary: { ...d.summary, defense: num(struck, d.summary.defense), ...(burst ? { burst } : {}) },
          ...(d.shockTest ? { shockTest: test(d.attacker, d.shockTest) } : {}),
        },
      };
    }
    case 'exhaustion-tested':
    case 'movement-tested':
    case 'test-rolled':
      return { ...e, data: test(e.data.who, e.data) } as EncounterEvent;
    case 'staunched':
    case 'ailment-fought':
      return { ...e, data: { ...e.data, test: test(e.data.who, e.data.test) } } as EncounterEvent;
    case 'ailment-inflicted':
      return e.data.resistance ? { ...e, data: { ...e.data, resistance: test(e.data.target, e.data.resistance) } } : e;
    case 'reloading':
      return e.data.hurry ? { ...e, data: { ...e.data, hurry: test(e.data.who, e.data.hurry) } } : e;
    case 'moved':
      return { ...e, data: { ...e.data, ...(e.data.stealth ? { stealth: test(e.data.who, e.data.stealth) } : {}), ...(e.data.terrainTest ? { terrainTest: test(e.data.who, e.data.terrainTest) } : {}) } };
    case 'all-out-attack':
      return { ...e, data: { ...e.data, participants: e.data.participants.map((p) => ({ ...p, target: num(p.id, p.target) })) } };
    case 'disrupted':
      return { ...e, data: { ...e.data, result: opposedFor(e.data.who, e.data.result) } };
    case 'disengaged':
      return { ...e, data: { ...e.data, results: e.data.results.map((r) => opposedFor(e.data.who, r)) } };
    case 'grapple-escape':
      return e.data.result ? { ...e, data: { ...e.data, result: opposedFor(e.data.who, e.data.result) } } : e;
    case 'grapple-resolved':
    case 'trick-resolved': {
      const d = e.data;
      const impact = e.type === 'trick-resolved' && e.data.impact ? { impact: { ...e.data.impact, defense: num(d.defender, e.data.impact.defense) } } : {};
      return { ...e, data: { ...d, attack: num(d.attacker, d.attack), evasion: num(d.defender, d.evasion), ...impact } } as EncounterEvent;
    }
    case 'test-rerolled':
      return { ...e, data: { ...e.data, replacement: hideUnknownNumbers(e.data.replacement, unknown) } };
    case 'turn-ended':
      return e.data.frozen ? { ...e, data: { ...e.data, frozen: test(e.data.id, e.data.frozen) } } : e;
    default:
      return e;
  }
}

/** How many events of the commands in effect up to a command a kind of viewer may see, and the latest command with one. */
interface ShownSoFar {
  readonly count: number;
  readonly latest: Chain<readonly EncounterEvent[]> | null;
}

/**
 * The events shown, counted per command in effect, for the GM and for everyone else (what a player or
 * an observer may see depends only on the role). Whether an event is shown depends on the sheets of
 * the characters it names, and a character's sheet comes only from its `character-added` below it in
 * the same stack, so the count up to a command never changes and is kept beside the stack: a view
 * counts only the commands added since the last one, and reads back only as far as the events it shows.
 */
const shownSoFar = { gm: new WeakMap<Chain<readonly EncounterEvent[]>, ShownSoFar>(), table: new WeakMap<Chain<readonly EncounterEvent[]>, ShownSoFar>() };

function shownUpTo(state: EncounterState, viewer: Actor): { count: number; log: ShownEncounterEvent[] } {
  const kept = shownSoFar[viewer.role === 'gm' ? 'gm' : 'table'];
  const pending: Chain<readonly EncounterEvent[]>[] = [];
  let known: ShownSoFar = { count: 0, latest: null };
  for (let c = state.groups; c; c = c.below) {
    const k = kept.get(c);
    if (k) {
      known = k;
      break;
    }
    pending.push(c);
  }
  for (let i = pending.length - 1; i >= 0; i--) {
    const node = pending[i]!;
    const shown = node.top.filter((e) => redactD100Event(e, viewer, state) !== null).length;
    known = { count: known.count + shown, latest: shown > 0 ? node : known.latest };
    kept.set(node, known);
  }
  const log: ShownEncounterEvent[] = [];
  for (let c = known.latest; c && log.length < LOG_SHOWN; c = c.below ? (kept.get(c.below)?.latest ?? null) : null) {
    log.unshift(...c.top.flatMap((e) => redactD100Event(e, viewer, state) ?? []));
  }
  return { count: known.count, log: log.slice(-LOG_SHOWN) };
}

export function viewEncounter(state: EncounterState, viewer: Actor): EncounterView {
  const show = (id: string) => visible(state, id, viewer);
  const n = namingFor(show);
  const { count, log } = shownUpTo(state, viewer);
  const oneMore = state.oneMore && show(state.oneMore.holder) ? { ...state.oneMore, chain: n.some(state.oneMore.chain) } : null;
  return {
    log,
    logOmitted: count - log.length,
    preset: state.preset,
    // The options and each shown character's sheet and fighter let a viewer work out the exact odds
    // of an attack before rolling (declaredAttackOdds) without anything it may not see.
    options: state.options,
    round: state.round,
    current: n.one(state.current),
    order: n.some(state.order),
    oneMore,
    miasma: state.miasma ?? 0,
    confusedAttack: state.confusedAttack && show(state.confusedAttack.who) ? { who: state.confusedAttack.who, candidates: n.some(state.confusedAttack.candidates), ...(state.confusedAttack.thenItself ? { thenItself: true as const } : {}) } : null,
    allOutAttackReady: state.oneMore ? allEnemiesStaggered(enemiesOf(state, state.oneMore.holder)) : false,
    characters: Object.values(state.fighters)
      .filter((f) => show(f.id))
      .map((f) => [viewer.role === 'gm' ? f : namedFighter(f, n), shownOf(state, f.id, viewer)] as const)
      .map(([f, shown]) => ({
        id: f.id,
        name: f.name,
        side: f.side,
        controller: controllerOf(state, f.id),
        wounds: shown.details ? f.tracks.left : null,
        woundMax: shown.details ? f.tracks.max : null,
        stress: f.stress,
        persona: f.persona ? { name: f.persona.name, wounds: shown.details ? f.persona.wounds : null, max: shown.details ? f.persona.max : null } : null,
        ailments: f.ailments.map((a) => ({ name: a.name, turnsLeft: a.turns === null ? null : a.turns - a.elapsed })),
        injuries: f.injuries,
        conditions: f.conditions,
        fatePoints: f.fate.current,
        spirit: f.resources.spirit,
        exertion: f.resources.exertion,
        engagedWith: Object.values(state.fighters).filter((o) => o.side !== f.side && !o.out && show(o.id) && adjacent(f, o)).map((o) => o.id),
        fateAdvantages: f.pendingAdvantages,
        injuriesIgnored: f.injuriesIgnored,
        chanceAttack: { madeSinceTurn: f.chance.sinceTurn, targetsThisRound: f.chance.targetsThisRound },
        canOppose: canOppose(f),
        out: f.out,
        dead: f.dead,
        sheet: state.sheets[f.id] && redactSheet(state.sheets[f.id]!, shown),
        fighter: redactFighter(f, shown),
        affinitiesKnown: shown.affinities,
        detailsKnown: shown.details,
        analysed: state.knowledge?.[f.id]?.analysed ?? null,
        turn: remaining({ current: state.current, oneMore }, f),
      })),
  };
}

export const encounterDecider: Decider<EncounterState, EncounterCommand, EncounterEvent, ShownEncounterEvent> = {
  initialState: initialEncounter,
  parseCommand(raw: unknown): ParseResult<EncounterCommand> {
    const r = commandSchema.safeParse(raw);
    if (r.success) return { ok: true, command: r.data };
    const i = r.error.issues[0]!;
    const field = i.path.join('.') || 'command';
    return { ok: false, error: { code: 'bad-command', message: `${field}: ${i.message}`, field } };
  },
  decide: decideEncounter,
  evolve: evolveEncounter,
  redactEvent: redactD100Event,
  viewState: viewEncounter,
  audience: d100Audience,
};

