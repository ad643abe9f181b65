import { OPTION_SPECS, type OptionName } from './options';
import { openPointKinds, openPointRow, type OpenPoint as CoreOpenPoint, type OpenPointHandling } from '@personae/core';

/**
 * How the table treats each point of the d100 rule inventory (shared/notes/rulesets/d100-combat.md):
 * the terms `d100-combat-rules.txt` uses without defining (U1..U53), the places where it says one thing
 * two ways (C1..C22), and the numbered rules (D) whose open detail a group may set. Each is a typed
 * option; one fixed reading in code, where the seed or its neighbouring rules leave only one that works;
 * a GM ruling the table records; or a record on the sheet with nothing the engine could compute.
 */
export type Handling = OpenPointHandling<OptionName>;
export type OpenPoint = CoreOpenPoint<OptionName>;

const { opt, fixed, gm, record } = openPointKinds<OptionName>();

export const OPEN_TERMS: readonly OpenPoint[] = [
  fixed('U1', 'the test: roll-under d100', '`resolveTest` (test.ts): success when the roll is at or under the target, "00" read as 100', 'every test the seed names is a percentile test against a Score or skill'),
  opt('U2', 'which result a reroll keeps', 'rerollKeeps'),
  opt('U3', 'rolls of 01 and 100', 'autoResults'),
  opt('U4', 'Degrees of Success and Failure', 'degrees'),
  opt('U5', 'opposed test ties', 'opposedTie'),
  opt('U6', 'where the hit location comes from', 'hitLocation'),
  fixed('U7', 'the hit-location table', '`LOCATION_TABLE` (location.ts): head 1-10, arms 11-30, body 31-70, legs 71-100', 'the seed says "roll randomly" and gives no table; the roll-under family this chapter adapts uses these ranges'),
  fixed('U8', 'the Injury table headings', '`injuryBlock` (location.ts): head, body, arm, leg, each side of arms and legs its own', 'the seed drops its headings; the entries (skull, rib, hand, foot) name the block'),
  record('U9', 'the "important spot" of a non-human', 'the sheet\'s `vital` locations, head unless given (sheet.ts)', 'the seed names the head for humans only; a creature\'s spot is its stat block\'s'),
  fixed('U10', 'Scores and their Bonuses', '`bonus` (fighter.ts): the tens digit of the Score; the ten Scores and Realisation of the sheet (scores.ts)', 'the seed uses AB, SB, TB and the rest as the tens of their Scores'),
  gm('U11', 'who is Surprised', 'the `surprised` list of the `start` command', 'the seed: the GM determines it'),
  gm('U12', 'a "starting Advantage" for initiative', 'the `startingAdvantages` of the `start` command (initiative.ts)', 'the seed lists Ambushing and no rule to count others; the GM gives them'),
  opt('U13', 'the cut-off last initiative tie-break', 'initiativeLastTie'),
  opt('U14', 'disengaging from several enemies', 'disengageOpposition'),
  fixed('U15', 'skills and their training', '`TRAINING_BONUS` (sheet.ts): the governing Score, untrained -20 up to master +30; a focus is a label', 'the seed names skills with foci and no values; the family\'s training steps fit its -20 to +30 Advantages'),
  record('U16', 'weapons', 'the weapon record of the sheet (sheet.ts): flat damage, class, element, tier, Burst rating, hands', 'the seed speaks of "the damage value of your weapon" and lists none'),
  opt('U17', 'Armour at each location', 'armour'),
  fixed('U18', 'a Burst Attack\'s extra targets', '`burstHits` (encounter.ts): hit with the attack\'s degrees, no evasion, a location each', 'the seed says degrees "buy" hits; a bought hit is not contested again'),
  opt('U19', 'how long Protect waits', 'protectDuration'),
  record('U20', 'how long a weapon takes to reload', 'the weapon\'s `clip`, `reload` (Actions, 1 unless given) and `spareLoads` on the sheet (sheet.ts); the `reload` command spends them one Action at a time, an attack a shot, a Fumble all (ammunition.ts)', 'the seed: reloading "depends on the weapon", and it gives no weapon; a weapon without a clip is not counted'),
  fixed('U21', 'the cost of Going Prone, Rising and Going Stealthy', 'the Action each (`payFor`, economy.ts)', 'the seed lists them among the actions'),
  fixed('U22', 'the scatter frame', '`scatter` and `scatterLanding` (movement.ts): the ones digit of the attack roll on a keypad, north the map\'s top row (smaller y), a diagonal metre one square each way, 0 along the line to the attacker, 5 straight up; the tens digit in metres; the GM\'s `scatter` command applies it to the attack just made', 'the seed gives the keypad and says only that an attack "sometimes" scatters; the map\'s north is the only frame a table without facing has'),
  record('U23', 'size categories', 'the sheet\'s `size`, categories above or below Normal (0 unless given, -4 to 4); `attackSpec` (encounter.ts) gives attacks on it 1 Advantage per category larger, 1 Disadvantage per category smaller', 'the seed counts size in categories from Normal and names none; a stat block gives how many'),
  fixed('U24', 'weapon range and half range', '`mapSituations` (encounter.ts): with both characters on the map, a Ballistic attack beyond the weapon\'s `range` is refused, Range (Close) within half of it, Range (Point Blank) within 3 m unless adjacent (engaged), Shooting at Prone at a Prone target past Point Blank; a declared entry the map contradicts is refused. Off the map, or for a weapon without a range, the GM names the `close-range` and `point-blank` situations (attack.ts `SITUATIONS`)', 'the seed gives the bands by the weapon\'s range and 3 m; the map measures them, both entries counting when both hold, as the table lists them apart'),
  fixed('U25', 'Physical and Magic attacks', '`isPhysical` (elements.ts): the Melee and Missile elements; every other element is magic', 'the ten elements begin with Melee and Missile, the two the seed treats as mundane'),
  record('U26', 'an attack\'s Tier', 'the weapon\'s `tier` (sheet.ts), 1 unless given; read by Absorb (attack.ts)', 'the seed: mundane physical attacks are Tier 1, and names no other'),
  record('U27', 'Arcana Level', 'the sheet\'s `arcanaLevel`, checked by Analyse Target (analyse.ts)', 'the seed asks for Level 4 and 7 and defines no scale'),
  opt('U28', 'a magic Critical Hit\'s effect "based on its type"', 'magicCritical'),
  gm('U29', 'Knockdown\'s star and "Combos"', 'the `trick` command (kind knockdown); a combo is the GM\'s ruling', 'the seed\'s sentence is cut off'),
  opt('U30', 'what a Technical Hit ignores', 'technicalIgnores'),
  fixed('U31', 'the hit a Repel turns back', '`resolveAttack` (attack.ts): the damage before the target\'s degrees, at a fresh location, against the attacker\'s own Defense and affinity, no Critical or Technical bonus', 'the seed turns the attack back and says no more; the reflected hit is not contested again'),
  opt('U32', 'All Out Attack details', 'aoaSavage', 'aoaInjury'),
  opt('U33', 'the severity of a Savage wound', 'savageSeverity'),
  opt('U34', 'when Injuries take effect within one attack', 'injuryTiming'),
  opt('U35', 'wounds past a broken Persona', 'personaOverflow'),
  fixed('U36', 'Stress', 'the sheet\'s `stress`, a counter without limit, with the Fatigue and Exhaustion thresholds (fighter.ts)', 'the seed adds and removes Stress and names thresholds, never a maximum'),
  opt('U37', 'falls and the wound rules', 'fallUsesWoundRules'),
  fixed('U38', 'the Fate Point pool', 'the Realisation Bonus as the pool, refilled by `new-week` (fate.ts, sheet.ts)', 'the seed refreshes Fate Points each week and ties them to Realisation'),
  opt('U39', 'losing the Deadly wound', 'deadlyWound'),
  opt('U40', 'a second ailment of a category', 'ailmentSameCategory'),
  fixed('U41', 'how "N turns" of an ailment count', '`inflictAilment` and turn ends (ailments.ts): the sufferer\'s own turns begun after it took hold', 'the seed counts durations in turns; only the sufferer\'s own turns give every ailment its full count'),
  opt('U42', 'the ailment-resistance test', 'ailmentResistScore'),
  opt('U43', 'Unnatural traits', 'unnatural'),
  opt('U44', '"takes damage"', 'takesDamage'),
  opt('U45', 'Condemned\'s reroll to hit', 'condemned'),
  fixed('U46', 'the Group Action', '`all-out-attack` (allOutAttack.ts): each participant tests at once, no Stress', 'the seed uses the word only for the All Out Attack, and calls it stress-free'),
  gm('U47', 'Miasma growth and the Sea of Chaos', 'the `set-miasma` command (conditions.ts `miasmaStress`)', 'the seed points to a page it does not contain; the GM sets the rate'),
  fixed('U48', 'Spirit, Exertion and Evoker Rank', '`resourceMaxima` (fighter.ts) from the sheet\'s `evokerRank`', 'the seed names the pools without maxima; they grow with the Evoker\'s Rank'),
  record('U49', 'Social Links and Confidant ranks', 'the sheet\'s `socialLinks` (0 to 10 each), read by Baton Pass (batonPass.ts)', 'the seed points to ranks it does not define'),
  opt('U50', 'evasions per Round', 'evasionsPerRound'),
  fixed('U51', 'Helpless and the dice', '`resolveAttack` (attack.ts): the attacker still rolls for degrees and Critical; any roll but a Fumble hits', 'the seed: attacks on the Helpless hit; degrees still feed damage'),
  gm('U52', 'fear, medicine, first aid and healing', 'the `restore-wounds`, `treat-injuries` and `set-condition` commands', 'none of these is in the seed; the GM rules them'),
  opt('U53', '"AP"', 'apMeans'),
];

export const CONTRADICTIONS: readonly OpenPoint[] = [
  opt('C1', 'any evasion against magic, or no Dodge against mental attacks', 'evasionVsMagic'),
  opt('C2', 'Difficult Terrain on every action, or on movement and Agility', 'difficultTerrainScope'),
  opt('C3', 'Bad Weather and Obscuring Haze describe one thing', 'hazeWeather'),
  opt('C4', 'a Fate Point\'s one Advantage or two', 'fatePointAdvantages'),
  opt('C5', 'Ice immunity conferring immunity to Shocked', 'frozenImmunity'),
  opt('C6', 'the Grapple action and the Grappled condition name different triggers', 'grappleEscape'),
  opt('C7', 'three lengths for an Injury', 'injuryDuration'),
  opt('C8', 'Confused\'s overlapping bands', 'confusedBands'),
  opt('C9', '"by 2 DoF" or "2 DoF or more"', 'dofThresholds'),
  opt('C10', 'the difference between a DoF and a DoS', 'panickedMargin'),
  opt('C11', 'Stunned "until wears off"', 'stunnedDuration'),
  opt('C12', '"Physical" among Technical elements', 'technicalPhysical'),
  opt('C13', 'Blood Loss "out of Wounds"', 'bloodLossOutOfWounds', 'bloodLossInjury'),
  opt('C14', 'Blood Loss to Toughness 0 against the floor of 1', 'bloodLossToughness'),
  opt('C15', 'Injury Disadvantages inherited "as above"', 'injuryDisadvantage'),
  opt('C16', 'Charge and Focused Attack listed twice', 'doubleListedAdvantage'),
  opt('C17', 'a Critical Hit that loses the opposed test', 'criticalNeedsWin'),
  fixed('C18', 'the Round ends after every Action, or after every Turn', '`end-turn` (encounter.ts, turns.ts): `round-ended` once every character in the order has had its Turn', 'a Turn may hold no Action; only the Turn count ends every Round'),
  opt('C19', 'one Chance Attack per own Turn, or per enemy per Round', 'chanceAttackLimit'),
  opt('C20', 'High Ground "roughly 1 metre or less below you"', 'highGround'),
  opt('C21', 'Drowsed and Helpless sleepers', 'drowsedIsHelpless'),
  opt('C22', 'Burning as an attack or a wound', 'burning', 'burningInjury'),
];

/** Numbered rules of the inventory whose open detail (a number, a choice the seed leaves open) is an option. */
export const RULE_DETAILS: readonly OpenPoint[] = [
  opt('D7', 'the Bonus initiative counts', 'initiativeBonus'),
  opt('D44', 'what reveals an enemy\'s affinities', 'affinityReveal'),
  opt('D45', 'what reveals an enemy\'s Wounds, Scores and Traits', 'detailsReveal'),
  opt('D56', 'an attack from stealth', 'stealthAttack'),
  opt('D70', 'the Fumble range', 'fumbleFrom'),
  opt('D72', 'the Critical Hit range', 'criticalRange'),
  opt('D108', 'the weekly Fate Point refresh', 'fatePointsPerWeek'),
  opt('D124', 'the Stress that calls for the Exhausted test', 'exhaustionTest'),
];

/** The section of docs/d100/options.md that lists every point of the inventory. */
export function openPointsMarkdown(): string[] {
  const cell = (p: OpenPoint): string => openPointRow(p, (o) => `\`${o}\` (default \`${String(OPTION_SPECS[o].default)}\`)`);
  return [
    '## Every point of the rule inventory',
    '',
    'The rule inventory lists 53 terms the seed uses without defining (U1-U53) and 22 places where it',
    'says one thing two ways (C1-C22). Each is an option above, one reading in code where only one works',
    'with the rest of the rules, a GM ruling the table records, or a record on the sheet with nothing to',
    'compute. The numbered rules (D) whose open detail is an option follow. From',
    '`packages/d100/src/open-points.ts`.',
    '',
    '| # | point | how the table treats it | why |',
    '| --- | --- | --- | --- |',
    ...[...OPEN_TERMS, ...CONTRADICTIONS, ...RULE_DETAILS].map(cell),
  ];
}
