import type { OptionName } from './options';
import { openPointKinds, openPointRow, type OpenPoint as CoreOpenPoint, type OpenPointHandling } from '@personae/core';

/**
 * How the table treats each term `lucidity-primary-character.txt` uses without defining (U1..U53 of the
 * rule inventory) and each place where it contradicts itself (C1..C15): a typed option; one fixed
 * reading in code, where the seed or its other rules leave only one that works; a GM ruling the table
 * records; or a record on the sheet with no effect the engine could compute. Each entry says where.
 */
export type Handling = OpenPointHandling<OptionName>;
export type OpenPoint = CoreOpenPoint<OptionName>;

const { opt, fixed, gm, record } = openPointKinds<OptionName>();

export const OPEN_TERMS: readonly OpenPoint[] = [
  fixed('U1', 'the ordinary d20 roll', '`rollD20` (roll.ts)', 'every part is named by the seed: d20, attribute, skill rank, trait bonuses, the buff or break d6'),
  opt('U2', 'success comparison', 'successOn'),
  gm('U3', 'unopposed difficulty', 'the `target` of each `roll` command', 'the seed sets no difficulties; the GM names the number'),
  opt('U4', 'a roll "against" an attribute', 'passiveValue'),
  opt('U5', 'opposed checks', 'opposedTie'),
  opt('U6', 'Defense', 'defenseBase'),
  fixed('U7', 'the attack roll', '`attackParts` (encounter.ts): the weapon\'s attribute and skill rank', 'the seed ties melee to STR and ranged to DEX and lists weapon skills'),
  record('U8', 'weapons', 'the weapon record of the sheet schema (sheet.ts)', 'the seed promises example weapons and lists none'),
  fixed('U9', 'armour, Protection, shields, Soak', '`protection` = armour + shield (derived.ts); Brawler ignores all of it', 'the traits speak of shields, armour and Soak; one Protection value serves them all'),
  fixed('U10', 'the damage formula', 'the weapon\'s damage dice plus trait bonuses (encounter.ts)', 'only Breakthrough adds an attribute to damage, so attributes add nothing otherwise'),
  opt('U11', 'unarmed strike', 'unarmedDamage'),
  fixed('U12', 'Initiative', '`start` (encounter.ts): d20 + AWA, ties to the higher AWA, then the earlier added', 'AWA "impacts Initiative" and nothing else does'),
  opt('U13', 'round length and "a minute"', 'roundSeconds'),
  fixed('U14', 'opportunity and free attacks', '`attack` with `reaction` (encounter.ts): once per round, no action', 'Move and Rescue Exploits name them; their cost is the least that lets them happen'),
  gm('U15', 'flanking', 'the `flanking` flag of an attack', 'the table has no map; the GM says who flanks'),
  opt('U16', 'critical success', 'criticalSuccess', 'critEffect'),
  opt('U17', 'Degree of Failure', 'degreeOfFailure'),
  gm('U18', 'the relevant attribute of a roll', 'the `attribute` of each roll; CON fixed for the roll at 0 Health', 'the seed leaves the choice to the situation'),
  opt('U19', 'Lucidity bounds', 'lucidityBelowZero'),
  opt('U20', 'levels above 6', 'levelsAbove6'),
  gm('U21', 'XP per gold or milestone', 'the `award-xp` command', 'the seed gives no rate'),
  opt('U22', 'current values after a level-up', 'levelUpCurrent'),
  gm('U23', 'wounds and their healing', 'the injury recorded at 0 Health with the seed\'s healing time (health.ts)', 'the seed gives ranges ("2-3 days") and leaves the outcome to the GM'),
  record('U24', 'spells', 'the spell record `{ name, energyCost, castingTimeRounds, effect }` (combatant.ts)', 'the seed names Energy and casting time and lists no spell'),
  opt('U25', '"10 + CON damage" while casting', 'castDelayDamage'),
  record('U26', 'spirits (capacity, capture)', 'the sheet\'s notes', 'the seed names KNO and WIL as their attributes and defines nothing else'),
  fixed('U27', '"once per rest"', 'a long rest renews Inspirator and Wingman (encounter.ts `rested`)', 'the long rest is the only rest the seed defines'),
  gm('U28', 'the Lunar Pause ritual and moons', 'the `lunarPause` flag of a `rest`', 'whether a moon is up and the ritual done is the GM\'s to say'),
  fixed('U29', 'Prone', 'the `prone` and `standing` flags of a move', 'the seed gives Prone an effect on movement only'),
  fixed('U30', 'handedness and dual-wielding', 'weapon `hands` (1, 2, massive) and the Guts check (encounter.ts)', 'Guts names the three cases'),
  fixed('U31', 'improvised weapons', 'the weapon flag `improvised`', 'Improvised Fighter needs only the flag'),
  gm('U32', 'a "1v1 scenario"', 'the `oneOnOne` flag of an attack', 'whether a fight is one against one is the GM\'s to say'),
  fixed('U33', '"group" and "companions"', 'the combatants on the same side (Fellowship, Healthy Living)', 'the table knows sides and nothing finer'),
  fixed('U34', 'rolls against fear, disease, poison', 'the `purpose` of a roll; the GM sets the target', 'the traits that look at them need only the purpose'),
  gm('U35', 'Help\'s "relevant skill"; Wingman\'s cost', 'the GM accepts a Help; Wingman is its own command', 'which skill is relevant is the situation\'s; the table does not check it'),
  gm('U36', 'how many Read questions', 'the log (the roll is recorded; the GM answers 1 to 3)', 'the seed: "the GM will then tell you" how many'),
  gm('U37', 'a failed exploit\'s consequences', 'the `exploit` ruling in the log', 'the seed: the GM makes a ruling; no lockout unless the GM rules one'),
  fixed('U38', 'narrative-combat resistance', '`narrative` (encounter.ts): d20 + the target\'s attribute against 10 + the attacker\'s, or the GM\'s ruling', 'C9 needs a resistance; this is the Defense shape (U6) again'),
  opt('U39', 'unique and custom traits', 'customTraits', 'traitCount'),
  record('U40', 'Armor and Language skills', 'the sheet\'s `armorSkills` and `languages`', 'the seed: "you either have them or you don\'t", with no number attached'),
  fixed('U41', 'Energy', 'spent by `cast`, refilled by `rest` (encounter.ts)', 'the seed names only spells and rests'),
  fixed('U42', 'carry capacity', 'item slots (sheet.ts)', 'STR feeds both; the seed gives slots a formula and capacity none'),
  fixed('U43', 'coins and gold', 'one currency, `coins` (500 to a slot)', 'the seed uses both words for one thing'),
  fixed('U44', 'designated items', 'the `designated` flag, counted against 2 + DEX (sheet.ts)', 'the seed gives the count; swapping is an action of the log'),
  opt('U45', 'a Lucidity roll in place of an attack', 'lucidityOnAttack'),
  opt('U46', 'Fate\'s Gamble details', 'fatesGambleTargets'),
  fixed('U47', 'buffs and breaks on a Lucidity roll', '`rollLucidity`: a buff lowers the die, a break raises it', 'a roll-under die is helped by going down'),
  fixed('U48', 'the GM\'s modifier on Lucidity checks', '`gmModifier` of a Lucidity roll, the GM\'s alone (authority.ts)', 'the seed: "modified at the GM\'s discretion"'),
  fixed('U49', 'trait buffs that meet', '`rollTraitEffects` (traits.ts): one buff each, counted before cancelling', 'Buffs and Breaks counts buffs one by one'),
  fixed('U50', 'Ready', '`ready` and `reaction: readied` (encounter.ts); readied actions not spent are gone when its next turn begins', 'the seed sets actions aside for a trigger and says no more'),
  opt('U51', 'skill points and rank caps', 'skillPoints'),
  record('U52', 'starting gear', 'the sheet\'s items', 'the seed\'s gear heading lists nothing'),
  fixed('U53', 'which rolled score goes where', 'a rolled sheet records each score under its attribute', 'the seed says the player "assigns" them: free placement'),
];

export const CONTRADICTIONS: readonly OpenPoint[] = [
  opt('C1', 'the Protection procedure deducts twice', 'protectionPipeline'),
  opt('C2', 'Protection equal to the damage', 'protectionEqualsDamage'),
  opt('C3', 'an "Attribute Score" added to Lucidity', 'lucidityAttribute'),
  opt('C4', 'Lucidity plus attribute, or "the current Lucidity"', 'lucidityTarget'),
  opt('C5', 'major exploits not listed, then described', 'majorExploits'),
  opt('C6', 'an exploit on a hit, or after damage', 'exploitTrigger'),
  opt('C7', 'exploits on melee attacks, or on any', 'exploitAttacks'),
  opt('C8', 'Lucidity from a rest with a Lunar Pause', 'lunarLucidity'),
  opt('C9', 'narrative damage on the opponent\'s failure or success', 'narrativeDamage'),
  opt('C10', 'the roll at 0 Health: already at 0, or reaching it', 'zeroHealthTrigger'),
  opt('C11', 'regaining all Lucidity before death', 'finalTurnLucidity'),
  opt('C12', 'Rapid Strikes and spells', 'rapidStrikesSpells'),
  opt('C13', 'Educated and the skills without ranks', 'educatedScope'),
  opt('C14', 'two halvings of a move', 'halfMoveStacking'),
  opt('C15', 'Health and Energy recalculated or added per level', 'healthRecalc'),
];

/** The section of docs/lucidity/options.md that lists every open term and contradiction. */
export function openPointsMarkdown(): string[] {
  const row = (p: OpenPoint): string => openPointRow(p, (o) => `\`${o}\``);
  return [
    '## Every open term and contradiction',
    '',
    'The rule inventory lists 53 terms the seed uses without defining (U1-U53) and 15 contradictions',
    '(C1-C15). Each is an option above, one reading in code where only one works with the rest of the',
    "rules, a GM ruling the table records, or a record on the sheet with nothing to compute. From",
    '`packages/lucidity/src/open-points.ts`.',
    '',
    '| # | term | how the table treats it | why |',
    '| --- | --- | --- | --- |',
    ...[...OPEN_TERMS, ...CONTRADICTIONS].map(row),
  ];
}
