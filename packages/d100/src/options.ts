import { RuleError, type Citation, type OptionDescriptor } from '@personae/core';
import { seed } from './rules';

/**
 * The most times both sides roll again to break one tie under opposedTie=reroll (inventory U5); a tie
 * still standing after them goes to the reactor, as the seed's attacker must win to hit.
 */
export const TIE_REROLLS = 10;

/**
 * Table options of the d100 ruleset. The seed leaves some terms undefined (the test's degrees, the
 * location table, how ties of an opposed test fall) and says some things twice in different ways;
 * each such point is an option here, with the default documented in docs/d100/options.md. Values of
 * an option settling a contradiction are named after the readings.
 */
interface Spec<T> {
  readonly title: string;
  readonly description: string;
  readonly topic: string;
  readonly source: Citation;
  /** The point of the rule inventory it settles (U = undefined term, C = contradiction). */
  readonly settles: string;
  readonly default: T;
  /** For enumerated options: every value and what it means. */
  readonly values?: Readonly<Record<T & string, string>>;
  readonly kind: 'enum' | 'boolean' | 'integer';
  readonly min?: number;
  readonly max?: number;
}

function choice<const V extends string>(spec: Omit<Spec<V>, 'kind' | 'values' | 'default'> & { values: Record<V, string>; default: NoInfer<V> }): Spec<V> {
  return { ...spec, kind: 'enum' };
}
function whole(spec: Omit<Spec<number>, 'kind'>): Spec<number> {
  return { ...spec, kind: 'integer' };
}
function flag(spec: Omit<Spec<boolean>, 'kind'>): Spec<boolean> {
  return { ...spec, kind: 'boolean' };
}

export const OPTION_SPECS = {
  degrees: choice({
    title: 'Degrees of Success and Failure',
    description: 'How degrees are counted. The seed uses degrees everywhere but never defines them.',
    topic: 'Tests',
    source: seed('How Attacks Work'),
    settles: 'U4',
    default: 'tens-digit',
    values: {
      'tens-digit': 'success: tens digit of the target minus tens digit of the roll; failure: the reverse; both can be 0',
      'tens-digit-plus-one': 'as tens-digit, plus one (every success has at least 1 degree, every failure at least 1)',
      margin: 'the difference between target and roll, divided by 10 and rounded down',
      'margin-plus-one': 'as margin, plus one',
    },
  }),
  autoResults: choice({
    title: 'Rolls of 01 and 100',
    description: 'Whether a roll of 01 always succeeds and a roll of 100 always fails.',
    topic: 'Tests',
    source: seed('How Attacks Work'),
    settles: 'U3',
    default: 'ffg',
    values: { ffg: '01 always succeeds and 100 always fails, whatever the target', none: 'only the target decides' },
  }),
  criticalRange: whole({
    title: 'Critical Hit range',
    description: 'An attack roll at or under this number is a Critical Hit (talents and weapons may widen it).',
    topic: 'Criticals',
    source: seed('Critical Hits'),
    settles: 'D72',
    default: 10,
    min: 0,
    max: 100,
  }),
  fumbleFrom: whole({
    title: 'Fumble range',
    description: 'An attack roll at or over this number is a Fumble.',
    topic: 'Criticals',
    source: seed('How Attacks Work'),
    settles: 'D70',
    default: 96,
    min: 1,
    max: 101,
  }),
  opposedTie: choice({
    title: 'Opposed test ties',
    description: 'Who wins an opposed test when both succeed with the same degrees.',
    topic: 'Tests',
    source: seed('Standard Attack and other Attack Actions'),
    settles: 'U5',
    default: 'higher-target-then-reactor',
    values: {
      'higher-target-then-reactor': 'the higher final target wins; equal targets go to the side opposing (the reactor)',
      reactor: 'the side opposing wins every tie',
      actor: 'the side acting wins every tie',
      reroll: `both sides roll their tests again (same targets) until one wins; these rolls only break the tie (the first degrees, Critical and Fumble stand), and a tie still standing after ${TIE_REROLLS} pairs goes to the reactor`,
    },
  }),
  hitLocation: choice({
    title: 'Hit location roll',
    description: 'Where the location number comes from.',
    topic: 'Attacks',
    source: seed('How Attacks Work'),
    settles: 'U6',
    default: 'fresh-roll',
    values: {
      'fresh-roll': 'a separate d100 is rolled for the location',
      'reversed-attack-roll': 'the attack roll read as two digits and reversed (05 gives 50, 10 gives 01, 100 gives 100)',
    },
  }),
  criticalNeedsWin: choice({
    title: 'Critical Hits and the opposed test',
    description: 'The seed makes any attack roll of 10 or less a Critical Hit, yet an attack lands only when the attacker wins.',
    topic: 'Criticals',
    source: seed('Critical Hits'),
    settles: 'C17',
    default: 'needs-win',
    values: { 'needs-win': 'a critical roll still has to win the opposed test to land', 'critical-lands': 'a critical roll that succeeds lands whatever the evasion' },
  }),
  magicCritical: choice({
    title: 'Magic Critical Hit effect',
    description: 'The seed says magic criticals have an effect "based on their type", and that "certain spells" have Critical Effects, but gives none: the spells are not in this chapter.',
    topic: 'Criticals',
    source: seed('Critical Hits'),
    settles: 'U28',
    default: 'gm',
    values: {
      gm: 'the extra wound only; the GM applies any further effect',
      stagger: 'magic criticals Stagger like physical ones',
      'signature-ailment': 'a magic Critical Hit also gives the ailment its weapon or spell names (the sheet weapon\'s `criticalAilment`), unless the target is immune to it or its category is taken (option ailmentSameCategory); one naming none gives only the extra wound',
    },
  }),
  technicalIgnores: choice({
    title: 'What a Technical Hit ignores',
    description: 'Technical Hits "ignore Elemental Resistances": Resist only, or every affinity above Normal.',
    topic: 'Affinities',
    source: seed('Technical Hits'),
    settles: 'U30',
    default: 'resist',
    values: { resist: 'a Resist affinity counts as Normal', 'resist-block-repel-absorb': 'any affinity above Normal counts as Normal' },
  }),
  technicalPhysical: choice({
    title: '"Physical" in the Technical Hit column',
    description: 'Frozen and Shocked list "Physical" as a Technical Hit element, which is not one of the ten elements.',
    topic: 'Ailments',
    source: seed('Ailments (untitled passage after "Fate Points")'),
    settles: 'C12',
    default: 'melee-and-missile',
    values: { 'melee-and-missile': 'Physical means the Melee and Missile elements', none: 'the word is ignored' },
  }),
  savageSeverity: choice({
    title: 'Severity of a Savage wound',
    description: 'A Savage wound is one severity "higher than normal": above the track the normal wounds reached, or above Light.',
    topic: 'Wounds',
    source: seed('Savage Attacks'),
    settles: 'U33',
    default: 'above-last-normal',
    values: { 'above-last-normal': 'one above the track the last normal wound of the attack landed on', 'above-light': 'always a Heavy wound (overflowing like any wound)' },
  }),
  injuryTiming: choice({
    title: 'When Injuries take effect inside one attack',
    description: 'An attack may take several Heavy wounds at once; the seed does not say whether an Injury one of them gives (Bruised Rib\'s extra wound above all) already counts for the rest of that attack.',
    topic: 'Wounds',
    source: seed('Wounds and Injury'),
    settles: 'U34',
    default: 'after-attack',
    values: {
      'after-attack': 'the attack\'s wounds are all laid first, then its Injuries take effect (the last per location stays): a Bruised Rib the attack gives adds no wound to it',
      'per-wound': 'each Heavy wound\'s Injury takes effect as it is lost: a Bruised Rib (or worse body Injury) the attack gives adds one wound to it when a later wound of the attack follows',
    },
  }),
  personaOverflow: choice({
    title: 'Wounds past a broken Persona',
    description: 'Whether the wounds of the attack that breaks a Persona carry on to the Evoker.',
    topic: 'Wounds',
    source: seed('Wounds and Personas'),
    settles: 'U35',
    default: 'none',
    values: { none: 'the rest of that attack is spent on the Persona', carry: 'the rest of that attack goes to the Evoker\'s tracks' },
  }),
  deadlyWound: choice({
    title: 'Losing the Deadly wound',
    description: 'The seed says a character who loses the Deadly wound is out of the fight or dead.',
    topic: 'Wounds',
    source: seed('Wound tracks (untitled passage before "Inflicting Multiple Wounds")'),
    settles: 'U39',
    default: 'out-of-fight',
    values: { 'out-of-fight': 'out of the fight (the GM may still rule death)', dead: 'dead' },
  }),
  ailmentSameCategory: choice({
    title: 'A second ailment of a category',
    description: 'One ailment per category: whether a new one of an occupied category is refused or replaces the old.',
    topic: 'Ailments',
    source: seed('Ailments (untitled passage after "Fate Points")'),
    settles: 'U40',
    default: 'ignore-new',
    values: { 'ignore-new': 'the new ailment does not take hold', replace: 'the new ailment replaces the old one' },
  }),
  ailmentResistScore: choice({
    title: 'The ailment-resistance test',
    description: 'The seed names tests to resist an ailment (Defend gives them an Advantage, Weak -20, Resist +20) without the Score they use. Made when the GM inflicts an ailment with `resist: true`.',
    topic: 'Ailments',
    source: seed('Elemental Affinities'),
    settles: 'U42',
    default: 'by-category',
    values: { 'by-category': 'Toughness against Staggered and Physical ailments, Willpower against Mental and Spiritual ones', willpower: 'Willpower against every ailment' },
  }),
  stunnedDuration: choice({
    title: 'How long Stunned lasts',
    description: 'Stunned lasts "until wears off", while durations are defaults only.',
    topic: 'Ailments',
    source: seed('Ailments (untitled passage after "Fate Points")'),
    settles: 'C11',
    default: 'two-turns',
    values: { 'two-turns': 'two of the sufferer\'s turns, like the other ailments', 'one-turn': 'one of the sufferer\'s turns', gm: 'until the GM removes it' },
  }),
  takesDamage: choice({
    title: '"Takes damage" (Drowsed, Frozen)',
    description: 'What ends an ailment that lasts until the sufferer takes damage.',
    topic: 'Ailments',
    source: seed('Ailments (untitled passage after "Fate Points")'),
    settles: 'U44',
    default: 'wound',
    values: { wound: 'losing at least one wound (Persona wounds count)', hit: 'being hit by an attack, wound or not' },
  }),
  drowsedIsHelpless: choice({
    title: 'Drowsed and Helpless',
    description: 'Helpless covers sleepers, while Drowsed (a sleep) has its own milder rule.',
    topic: 'Ailments',
    source: seed('Helpless (untitled passage after "Score Decay")'),
    settles: 'C21',
    default: 'drowsed-own-rule',
    values: { 'drowsed-own-rule': 'Drowsed only gives Technical Hits', 'drowsed-helpless': 'a Drowsed target is also Helpless' },
  }),
  fatePointAdvantages: choice({
    title: 'Advantages bought with a Fate Point',
    description: 'The Advantage table says a Fate Point gives Advantage; the Fate Points section says two.',
    topic: 'Fate Points',
    source: seed('Fate Points'),
    settles: 'C4',
    default: 'two-advantages',
    values: { 'two-advantages': 'the Fate Points section: two Advantages', 'one-advantage': 'the Advantage table: one Advantage' },
  }),
  doubleListedAdvantage: choice({
    title: 'Charge and Focused Attack Advantage',
    description: 'Charge and Focused Attack grant Advantage in their own text and again in the Advantage table.',
    topic: 'Advantages',
    source: seed('How Attacks Work'),
    settles: 'C16',
    default: 'count-once',
    values: { 'count-once': 'one Advantage', 'count-twice': 'the action and the table each give one' },
  }),
  hazeWeather: choice({
    title: 'Bad Weather and Obscuring Haze',
    description: 'The two Disadvantages describe the same smoke, fog or haze.',
    topic: 'Advantages',
    source: seed('How Attacks Work'),
    settles: 'C3',
    default: 'count-once',
    values: { 'count-once': 'one Disadvantage when both are flagged', stack: 'two Disadvantages' },
  }),
  chanceAttackLimit: choice({
    title: 'How often a character makes Chance Attacks',
    description: 'After a Chance Attack no other comes until the start of your next Turn, and an enemy may be Chance-Attacked once per Round: which limit rules.',
    topic: 'Chance Attacks',
    source: seed('Chance Attacks'),
    settles: 'C19',
    default: 'one-per-own-turn',
    values: { 'one-per-own-turn': 'after one Chance Attack, none until the start of your next Turn (and each enemy once per Round)', 'one-per-enemy-per-round': 'any number, but each enemy at most once per Round' },
  }),
  grappleEscape: choice({
    title: 'When a Grappled character tests to escape',
    description: 'The Grapple action names Move, Action or evasion as the moments that call for the escape test; the Grappled condition names moving or attacking.',
    topic: 'Grapple',
    source: seed('Grappled and Immobilised'),
    settles: 'C6',
    default: 'union',
    values: { union: 'a Move, an Action, an attack or an evasion each call for the test', 'action-text': 'a Move, an Action or an evasion (the Grapple action)', 'condition-text': 'a move or an attack (the Grappled condition)' },
  }),
  disengageOpposition: choice({
    title: 'Disengaging from several enemies',
    description: 'The seed speaks of leaving melee with one target; with several, who opposes the Disengage test.',
    topic: 'Movement',
    source: seed('Movement and Combat'),
    settles: 'U14',
    default: 'each-enemy',
    values: { 'each-enemy': 'one opposed test against each engaged enemy; each one you lose to gets its Flee Chance Attack', 'best-enemy': 'one opposed test against the enemy with the best Melee score; losing it is a Flee from all of them' },
  }),
  rerollKeeps: choice({
    title: 'Which result a Fate Point reroll keeps',
    description: 'A Fate Point rerolls a test already rolled; the seed does not say which roll stands.',
    topic: 'Fate Points',
    source: seed('Fate Points'),
    settles: 'U2',
    default: 'second',
    values: { second: 'the second roll stands', better: 'the better (lower) of the two rolls stands' },
  }),
  injuryDisadvantage: choice({
    title: 'Stacking Injury Disadvantages',
    description: 'Worse Injuries include the ones "above": whether each inherited row adds its Disadvantage again.',
    topic: 'Injuries',
    source: seed('Wounds and Injury'),
    settles: 'C15',
    default: 'one-per-location',
    values: { 'one-per-location': 'a location gives its Disadvantage once', 'one-per-row': 'each inherited row adds one more' },
  }),
  bloodLossOutOfWounds: choice({
    title: '"Out of Wounds" under Blood Loss',
    description: 'A bleeder out of wounds suffers Toughness decay "instead of suffering a Heavy Wound".',
    topic: 'Special conditions',
    source: seed('Blood Loss'),
    settles: 'C13',
    default: 'no-light-left',
    values: { 'no-light-left': 'out of Light wounds: decay instead of a Heavy wound', 'no-wounds-left': 'only when every track is empty' },
  }),
  bloodLossInjury: choice({
    title: 'Injuries from Heavy wounds Blood Loss costs',
    description: 'The seed names a location only for the Heavy wound a bleeder loses at Toughness 0 ("to the body"); a failed Blood Loss test that costs a Heavy wound otherwise (the Heavy track under bloodLossOutOfWounds=no-wounds-left, or a Bruised Rib\'s extra wound spilling onto it) has none, and an Injury needs one.',
    topic: 'Special conditions',
    source: seed('Blood Loss'),
    settles: 'C13',
    default: 'body',
    values: {
      body: 'every Heavy wound Blood Loss costs is one to the body, with the body Injury for the Heavy wounds left, as at Toughness 0',
      none: 'only the Heavy wound at Toughness 0 gives an Injury; any other Heavy wound from bleeding gives none',
    },
  }),
  bloodLossToughness: choice({
    title: 'Blood Loss and the Toughness floor',
    description: 'Blood Loss can take Toughness to zero, while decay normally stops at 1.',
    topic: 'Special conditions',
    source: seed('Score Decay'),
    settles: 'C14',
    default: 'to-zero',
    values: { 'to-zero': 'Blood Loss may take Toughness to 0', 'floor-one': 'Toughness stops at 1' },
  }),
  burning: choice({
    title: 'The Burning attack',
    description: 'Burning is "a Damage 4 attack ignoring AP, dealing 1 wound": an attack compared with Defense, or a wound outright.',
    topic: 'Ailments',
    source: seed('Ailments (untitled passage after "Fate Points")'),
    settles: 'C22',
    default: 'attack-vs-tb',
    values: { 'attack-vs-tb': 'Damage 4 (+1 per round burning) against the Toughness Bonus, Armour ignored: one wound when it exceeds it', 'automatic-wound': 'one wound at the end of every round' },
  }),
  burningInjury: choice({
    title: 'Injuries from Heavy wounds Burning deals',
    description: 'Every Heavy wound lost gives the Injury for its location and the Heavy wounds left; the Burning attack names no location, so a Heavy wound it deals has none to give an Injury at.',
    topic: 'Ailments',
    source: seed('Wounds and Injury'),
    settles: 'C22',
    default: 'body',
    values: {
      body: 'a Heavy wound Burning deals is one to the body, with the body Injury for the Heavy wounds left (as bloodLossInjury=body does for bleeding)',
      none: 'a Heavy wound Burning deals costs its Stress but gives no Injury',
    },
  }),
  evasionVsMagic: choice({
    title: 'Evading magic',
    description: 'Standard Attack lets any evasion skill oppose magic; How Attacks Work lets Dodge oppose only attacks that are not mental. A mental attack is a magic attack of the Psychic element.',
    topic: 'Attacks',
    source: seed('Standard Attack and other Attack Actions'),
    settles: 'C1',
    default: 'any-evasion',
    values: {
      'any-evasion': 'any evasion skill opposes any magic attack',
      'no-dodge-vs-mental': 'Dodge (Acrobatics) and a plain Agility evasion cannot oppose a Psychic magic attack; Parry or Anticipate still can, and without them the target does not oppose',
    },
  }),
  difficultTerrainScope: choice({
    title: 'Where Difficult Terrain gives Disadvantages',
    description: 'The Advantage table puts the Difficult Terrain Number on every action taken in the terrain; the Difficult Terrain section puts it on the movement test and, in uneven terrain, on Agility tests.',
    topic: 'Movement',
    source: seed('Difficult Terrain'),
    settles: 'C2',
    default: 'movement-and-agility',
    values: {
      'movement-and-agility': 'the Difficult Terrain Number falls on Agility tests only (movement tests and Agility evasions included)',
      'all-actions': 'the Difficult Terrain Number falls on every test taken in the terrain: attacks, evasions and other tests',
    },
  }),
  frozenImmunity: choice({
    title: 'Immunity to Frozen',
    description: 'Frozen says immunity to Ice confers immunity to Shocked, while Shocked names Elec for its own immunity.',
    topic: 'Ailments',
    source: seed('Ailments (untitled passage after "Fate Points")'),
    settles: 'C5',
    default: 'ice-frozen',
    values: {
      'ice-frozen': 'a slip of the pen: immunity to Ice confers immunity to Frozen, immunity to Elec to Shocked',
      literal: 'as written: immunity to Ice or to Elec confers immunity to Shocked, and nothing confers immunity to Frozen',
    },
  }),
  injuryDuration: choice({
    title: 'How long an Injury lasts',
    description: 'Injuries last until the character rests or receives medical attention, for as long as the Heavy wound remains lost, and until all Heavy wounds are cleared.',
    topic: 'Injuries',
    source: seed('Wounds and Injury'),
    settles: 'C7',
    default: 'all-heavy-restored',
    values: {
      'all-heavy-restored': 'every Injury ends when the Heavy track is full again',
      'that-heavy-restored': 'each Heavy wound restored ends the latest Injury still in place',
      'rest-or-medical': 'Injuries end only with rest or medical attention (the treat command), whatever is restored',
    },
  }),
  confusedBands: choice({
    title: 'Confused at 5 or more Degrees of Failure',
    description: 'Confused attacks the nearest character at 4+ DoF and itself at 5+: the bands overlap.',
    topic: 'Ailments',
    source: seed('Ailments (untitled passage after "Fate Points")'),
    settles: 'C8',
    default: 'highest-band',
    values: { 'highest-band': 'at 5+ DoF only the 5+ band holds: it attacks itself', both: 'at 5+ DoF both hold: it attacks the nearest character and itself' },
  }),
  dofThresholds: choice({
    title: 'Climbing: "fail by 2 DoF" and "fail by 4 DoF"',
    description: 'Climbing names its failures "by 2 DoF" and "by 4 DoF", where Swimming and Leaping say "or more".',
    topic: 'Movement',
    source: seed('Obstacles and unusual movement'),
    settles: 'C9',
    default: 'at-least',
    values: { 'at-least': '2 or more DoF: doubly Hindered; 4 or more: loses its grip and falls', exactly: 'exactly 2 DoF: doubly Hindered; exactly 4: falls; any other failure: Hindered' },
  }),
  panickedMargin: choice({
    title: 'Panicked: "the difference between your DoF and their DoS"',
    description: 'A Panicked character failing a test against the source flees when the difference between its DoF and the source\'s DoS is 3 or more; a failure and a success lie on opposite sides of the target.',
    topic: 'Ailments',
    source: seed('Ailments (untitled passage after "Fate Points")'),
    settles: 'C10',
    default: 'sum',
    values: { sum: 'the distance between the two results: DoF plus DoS, 3 or more', 'absolute-difference': 'the arithmetic difference of the two numbers, 3 or more' },
  }),
  highGround: choice({
    title: 'High Ground',
    description: 'High Ground is given against enemies at a lower elevation, "roughly 1 metre or less below you".',
    topic: 'Advantages',
    source: seed('How Attacks Work'),
    settles: 'C20',
    default: 'at-least-1m-lower',
    values: { 'at-least-1m-lower': 'the target stands 1 metre or more below the attacker', 'up-to-1m-lower': 'the target stands below the attacker, by 1 metre at most' },
  }),
  initiativeBonus: choice({
    title: 'The Bonus initiative counts',
    description: 'Initiative is "either" the Agility Bonus or the Perception Bonus; the seed does not say which, nor who chooses.',
    topic: 'Initiative',
    source: seed('Combat Structure'),
    settles: 'D7',
    default: 'higher',
    values: {
      higher: 'the higher of the two (the one a character would choose); equal Bonuses count the higher Score behind them for the tie-break',
      agility: 'always the Agility Bonus (its Score breaks ties)',
      perception: 'always the Perception Bonus (its Score breaks ties)',
    },
  }),
  initiativeLastTie: choice({
    title: 'The last initiative tie-break',
    description: 'The seed\'s sentence on a tie of initiative, Score and Fate Points breaks off.',
    topic: 'Initiative',
    source: seed('Combat Structure'),
    settles: 'U13',
    default: 'roll-off',
    values: {
      'roll-off': 'each tied character rolls d10, higher first, rolling again while equal',
      'players-first': 'characters of the party\'s side ("pc") first, then a d10 roll-off among those still tied',
      gm: 'the GM orders them (tieOrder on the start command)',
    },
  }),
  armour: choice({
    title: 'Armour',
    description: 'Defense is "Toughness Bonus plus Armour"; the seed does not say whether Armour differs by location.',
    topic: 'Attacks',
    source: seed('How Attacks Work'),
    settles: 'U17',
    default: 'per-location',
    values: { 'per-location': 'each location has its own Armour value', single: 'the body\'s Armour value covers every location' },
  }),
  protectDuration: choice({
    title: 'How long Protect waits',
    description: 'Protect takes "the next non-AoE attack that hits" the ally, without saying how long it waits for one.',
    topic: 'Actions',
    source: seed('Defending and Protecting'),
    settles: 'U19',
    default: 'next-turn-start',
    values: { 'next-turn-start': 'until the start of the protector\'s next turn, like Defend', 'until-triggered': 'until an attack hits the ally' },
  }),
  stealthAttack: choice({
    title: 'An attack from stealth',
    description: 'Going Stealthy lets a character unseen by its enemies enter stealth; the seed does not say what that gives an attack.',
    topic: 'Actions',
    source: seed('Special Movement Actions'),
    settles: 'D56',
    default: 'ambushing',
    values: {
      ambushing: 'the attack gains the Ambushing Advantage, and it ends the stealth',
      gm: 'nothing by itself: the GM rules the attack\'s Advantages (situations) and when the stealth ends',
    },
  }),
  affinityReveal: choice({
    title: 'What reveals an enemy\'s affinities',
    description: 'Analyse Target reveals an enemy\'s affinities, so they are hidden from the party until then; the seed does not say whether being struck with an element shows that one.',
    topic: 'Actions',
    source: seed('Analysing Targets, Disrupting Targets and Tricks'),
    settles: 'D44',
    default: 'analyse-or-struck',
    values: {
      'analyse-or-struck': 'Analyse Target reveals them all; a hit with an element reveals the affinity to that element (its effect is seen anyway)',
      analyse: 'only Analyse Target reveals them',
      open: 'every affinity is shown to everyone',
    },
  }),
  detailsReveal: choice({
    title: 'What reveals an enemy\'s Wounds, Scores and Traits',
    description: 'Advanced Analyse Target reveals an enemy\'s Wounds, Scores and Traits besides what Analyse Target does, so they are hidden from the party until then.',
    topic: 'Actions',
    source: seed('Analysing Targets, Disrupting Targets and Tricks'),
    settles: 'D45',
    default: 'advanced-analyse',
    values: {
      'advanced-analyse': 'only an Advanced Analyse Target reveals them: until then players are not sent an enemy\'s wound tracks, Scores or Unnatural Toughness (and so cannot work out the odds of attacks on it), nor the target numbers of its rolls or the Defense its hits meet in the events and the log (see the rules map)',
      open: 'they are shown to everyone',
    },
  }),
  unnatural: choice({
    title: 'Unnatural traits',
    description: 'Enraged gives Unnatural Strength (2) without defining Unnatural traits.',
    topic: 'Ailments',
    source: seed('Ailments (untitled passage after "Fate Points")'),
    settles: 'U43',
    default: 'add-to-bonus',
    values: { 'add-to-bonus': 'Unnatural Strength (2) adds 2 to the Strength Bonus', 'multiply-bonus': 'Unnatural Strength (2) doubles the Strength Bonus' },
  }),
  condemned: choice({
    title: 'Condemned: "attacks against you reroll to hit"',
    description: 'How the reroll against a Condemned target is made.',
    topic: 'Ailments',
    source: seed('Ailments (untitled passage after "Fate Points")'),
    settles: 'U45',
    default: 'attacker-may-reroll',
    values: {
      'attacker-may-reroll': 'an attack that misses rolls its attack test once more against the same evasion, and the second result stands',
      'attacker-better-of-two': 'every attack rolls its attack test twice and keeps the lower roll',
    },
  }),
  evasionsPerRound: choice({
    title: 'Evasions per Round',
    description: 'The seed never limits how often a character opposes attacks.',
    topic: 'Attacks',
    source: seed('How Attacks Work'),
    settles: 'U50',
    default: 'unlimited',
    values: { unlimited: 'a character opposes every attack', one: 'a character opposes one attack per Round; later ones that Round go unopposed' },
  }),
  apMeans: choice({
    title: '"AP" (Burning, Enraged)',
    description: 'Burning\'s attack and attacks on an Enraged character "ignore AP".',
    topic: 'Ailments',
    source: seed('Ailments (untitled passage after "Fate Points")'),
    settles: 'U53',
    default: 'armour-points',
    values: { 'armour-points': 'Armour Points: the attack ignores the target\'s Armour (Defense is the Toughness Bonus)', 'armour-penetration': 'Armour Penetration: the attack has none, so the target\'s Armour counts in full (the body\'s, for Burning)' },
  }),
  exhaustionTest: choice({
    title: 'The Stress that calls for the Exhausted Toughness test',
    description: 'An Exhausted character tests Toughness whenever it suffers Stress, or falls unconscious; the seed does not say whether the Stress that makes it Exhausted calls for the test too.',
    topic: 'Special conditions',
    source: seed('Fatigue and Exhaustion'),
    settles: 'D124',
    default: 'while-exhausted',
    values: { 'while-exhausted': 'only Stress suffered while already Exhausted', 'on-reaching': 'also the Stress that makes the character Exhausted' },
  }),
  fallUsesWoundRules: choice({
    title: 'Falls and the wound rules',
    description: 'A fall is "a hit" of 1 damage per metre; the seed does not say whether High Damage, a Headshot and the Savage conditions apply to it.',
    topic: 'Movement',
    source: seed('Obstacles and unusual movement'),
    settles: 'U37',
    default: 'wound-rules',
    values: {
      'wound-rules': 'a fall is a hit like any other: extra wounds and Savage wounds as its damage and location give them',
      'one-wound': 'a fall that beats the Toughness Bonus deals one wound, nothing more but a Bruised Rib\'s',
    },
  }),
  aoaSavage: choice({
    title: 'All Out Attack and Savage wounds',
    description: 'An All Out Attack deals its wounds without meeting Defense; the seed makes any attack of 4 or more wounds Savage.',
    topic: 'Wounds',
    source: seed('All Out Attack'),
    settles: 'U32',
    default: 'no-savage',
    values: {
      'no-savage': 'its wounds are laid on the tracks as counted: the Savage conditions belong to hits that meet Defense',
      'four-wounds-savage': '4 or more wounds each make it Savage: one more wound, a severity higher (option savageSeverity)',
    },
  }),
  aoaInjury: choice({
    title: 'Injuries from Heavy wounds an All Out Attack deals',
    description: 'Every Heavy wound lost gives the Injury for its location and the Heavy wounds left; an All Out Attack "hits all enemies" without a location roll, so a Heavy wound it deals has none to give an Injury at.',
    topic: 'Wounds',
    source: seed('Wounds and Injury'),
    settles: 'U32',
    default: 'body',
    values: {
      body: 'each Heavy wound an All Out Attack deals is one to the body, with the body Injury for the Heavy wounds left (as burningInjury=body does for Burning); under injuryTiming=per-wound a Bruised Rib or worse it gives adds one wound to it when a later wound follows',
      none: 'a Heavy wound an All Out Attack deals costs its Stress but gives no Injury',
    },
  }),
  fatePointsPerWeek: flag({
    title: 'Weekly Fate Point refresh',
    description: 'Whether the Fate Point pool refills at the start of each week.',
    topic: 'Fate Points',
    source: seed('Fate Points'),
    settles: 'D108',
    default: true,
  }),
} as const;

type Specs = typeof OPTION_SPECS;
type ValueOf<S> = S extends Spec<infer T> ? (S extends { kind: 'enum' } ? T : T extends boolean ? boolean : T extends number ? number : T) : never;

/** The options in force at a d100 table. */
export type D100Options = { readonly [K in keyof Specs]: ValueOf<Specs[K]> };
export type OptionName = keyof Specs;

export const OPTION_NAMES = Object.keys(OPTION_SPECS) as OptionName[];

export const DEFAULT_OPTIONS: D100Options = Object.fromEntries(OPTION_NAMES.map((n) => [n, OPTION_SPECS[n].default])) as unknown as D100Options;

/** Named option sets; the first is the default. */
export const PRESETS = {
  /** The seed's defaults as documented in docs/d100/options.md. */
  seed: {},
  /** The older roll-under family: degrees from the margin, location from the reversed attack roll. */
  'ffg-margin': { degrees: 'margin', hitLocation: 'reversed-attack-roll' },
  /** The later roll-under family: one degree at least, location from the reversed attack roll. */
  'ffg-tens-plus-one': { degrees: 'tens-digit-plus-one', hitLocation: 'reversed-attack-roll' },
} as const satisfies Record<string, Partial<Record<OptionName, unknown>>>;
export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

function optionError(message: string, field: string, rule?: Citation): RuleError {
  return new RuleError('bad-option', message, field, rule);
}

/** Reads one option value, from its text form (the CLI) or from JSON. */
export function parseOptionValue(name: string, raw: unknown): D100Options[OptionName] {
  if (!Object.prototype.hasOwnProperty.call(OPTION_SPECS, name)) {
    throw optionError(`unknown d100 option "${name}"; the options are: ${OPTION_NAMES.join(', ')}`, `options.${name}`);
  }
  const spec = OPTION_SPECS[name as OptionName] as Spec<unknown>;
  if (spec.kind === 'enum') {
    const values = Object.keys(spec.values!);
    if (typeof raw !== 'string' || !values.includes(raw)) {
      throw optionError(`option ${name}: "${String(raw)}" is not one of ${values.join(', ')}`, `options.${name}`, spec.source);
    }
    return raw as D100Options[OptionName];
  }
  if (spec.kind === 'boolean') {
    if (raw === true || raw === 'true') return true;
    if (raw === false || raw === 'false') return false;
    throw optionError(`option ${name}: "${String(raw)}" is not true or false`, `options.${name}`, spec.source);
  }
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < (spec.min ?? -Infinity) || n > (spec.max ?? Infinity)) {
    throw optionError(`option ${name}: "${String(raw)}" is not a whole number from ${spec.min} to ${spec.max}`, `options.${name}`, spec.source);
  }
  return n;
}

/** The options in force for a preset and overrides; a bad name or value is a RuleError naming it. */
export function resolveOptions(preset: string = 'seed', overrides: Readonly<Record<string, unknown>> = {}): D100Options {
  if (!Object.prototype.hasOwnProperty.call(PRESETS, preset)) {
    throw optionError(`unknown d100 preset "${preset}"; the presets are: ${PRESET_NAMES.join(', ')}`, 'preset');
  }
  const out: Record<string, unknown> = { ...DEFAULT_OPTIONS, ...PRESETS[preset as PresetName] };
  for (const [name, raw] of Object.entries(overrides)) out[name] = parseOptionValue(name, raw);
  return out as D100Options;
}

/** The options as the hosts list them. */
export function optionDescriptors(): OptionDescriptor[] {
  return OPTION_NAMES.map((name) => {
    const s = OPTION_SPECS[name] as Spec<string | number | boolean>;
    const d: OptionDescriptor = {
      name,
      title: s.title,
      description: s.description,
      kind: s.kind,
      default: s.default,
      topic: s.topic,
      source: s.source,
      ...(s.values ? { values: Object.keys(s.values) } : {}),
    };
    return d;
  });
}
