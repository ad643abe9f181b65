import { cite, defineRules, type Citation } from '@personae/core';

/** The seed document this ruleset implements. */
export const SEED = 'd100-combat-rules.txt';

/** A citation into the seed by its section heading. */
export function seed(section: string): Citation {
  return cite(SEED, section);
}

/** Analyse Target, Distract and Scary Face share one section of the seed. */
export const ANALYSE_CITATION = seed('Analysing Targets, Disrupting Targets and Tricks');

/** The seed gives the wound tracks without a heading of their own. */
const WOUND_TRACKS = 'Wound tracks (untitled passage before "Inflicting Multiple Wounds")';

/**
 * The rules of the seed this package implements, by stable id, each with the seed's heading and one
 * sentence in the project's own words. docs/d100/rules.md maps each one to its code and tests.
 */
export const RULES = defineRules({
  test: { document: SEED, section: 'How Attacks Work', summary: 'A test rolls d100 against a target number; rolling at or under it succeeds, and the tens digits measure the degrees.' },
  advantage: { document: SEED, section: 'How Attacks Work', summary: 'Each Advantage adds 10 to the test and each Disadvantage takes 10; net Advantage adds 1 damage each.' },
  opposedTest: { document: SEED, section: 'Standard Attack and other Attack Actions', summary: 'An opposed test is won by succeeding with more degrees than the opponent, or by succeeding when the opponent fails.' },
  fumble: { document: SEED, section: 'Fumble (untitled passage after "Chance Attacks")', summary: 'An attack roll of 96 or more is a Fumble: an automatic miss without an evasion roll; a Ballistic weapon jams.' },
  criticalHit: { document: SEED, section: 'Critical Hits', summary: 'An attack roll of 10 or less is a Critical Hit: one extra wound, and a Physical attack Staggers.' },
  hitLocation: { document: SEED, section: 'How Attacks Work', summary: 'A landed attack hits a location found on a d100 location table.' },
  damage: { document: SEED, section: 'How Attacks Work', summary: 'Damage is the weapon value plus modifiers plus attacker degrees minus defender degrees; damage above Defense (TB plus Armour) deals a wound.' },
  woundTracks: { document: SEED, section: WOUND_TRACKS, summary: 'Light wounds equal TB, Heavy wounds half TB (at least 1), one Deadly wound; an empty track passes the wound to the next one.' },
  stress: { document: SEED, section: WOUND_TRACKS, summary: 'Losing a Light wound costs 1 Stress, a Heavy wound 5, the Deadly wound 10.' },
  multipleWounds: { document: SEED, section: 'Inflicting Multiple Wounds', summary: 'High Damage, a Headshot, a Weakness, a Technical Hit and a Critical Hit each add one wound.' },
  savage: { document: SEED, section: 'Savage Attacks', summary: 'Each Savage condition (Helpless, 4+ wounds, damage 10 over Defense) adds a wound one severity higher.' },
  personaWounds: { document: SEED, section: 'Wounds and Personas', summary: 'An equipped Persona loses wounds first; a broken Persona costs its Evoker 10 Stress.' },
  injuries: { document: SEED, section: 'Wounds and Injury', summary: 'A lost Heavy wound gives an Injury fixed by the location and the Heavy wounds left; one per location.' },
  affinities: { document: SEED, section: 'Elemental Affinities', summary: 'Each element meets one affinity: Weak, Normal, Resist, Block, Repel or Absorb.' },
  technicalHit: { document: SEED, section: 'Technical Hits', summary: 'An attack of an element listed for one of the target\'s ailments is a Technical Hit: one extra wound, Stagger, and it clears that ailment.' },
  oneMore: { document: SEED, section: 'One More', summary: 'Staggering an enemy with an attack earns one One More per action: an extra Move or Action at the end of the turn.' },
  batonPass: { document: SEED, section: 'Baton Pass', summary: 'A One More may pass to a Confidant ally, who gains Advantages by Social Link rank; nobody receives twice in a chain.' },
  allOutAttack: { document: SEED, section: 'All Out Attack', summary: 'With every enemy Staggered, a One More may start an All Out Attack of at least two participants.' },
  fatePoints: { document: SEED, section: 'Fate Points', summary: 'A pool equal to the Realisation Bonus, refilled weekly, spent one point at a time for fixed benefits.' },
  ailments: { document: SEED, section: 'Ailments (untitled passage after "Fate Points")', summary: 'Ailments fall into four categories, one ailment per category; enemies gain an Advantage per ailment.' },
  initiative: { document: SEED, section: 'Combat Structure', summary: 'Initiative is the Agility or Perception Bonus plus starting Advantages; ties go to the higher Score, then the larger Fate Point pool.' },
  structuredTime: { document: SEED, section: 'Structured Time', summary: 'Rounds hold one Turn per character, each with one Move and one Action.' },
  bloodLoss: { document: SEED, section: 'Blood Loss', summary: 'A bleeding character tests Toughness at the start of each turn and loses a wound on a failure.' },
  fatigue: { document: SEED, section: 'Fatigue and Exhaustion', summary: 'Stress above Toughness gives a Disadvantage to all tests; Stress 20 above Toughness gives another.' },
  scoreDecay: { document: SEED, section: 'Score Decay', summary: 'Decay lowers a Score for a time, never below 1 unless a rule says so.' },
  helpless: { document: SEED, section: 'Helpless (untitled passage after "Score Decay")', summary: 'Attacks against a Helpless target hit automatically and are Savage.' },
  miasma: { document: SEED, section: 'Unprotected from Miasma', summary: 'Without an equipped Persona in the Sea of Chaos, each battle round a failed Willpower test costs Stress equal to the growth rate.' },
  chanceAttacks: { document: SEED, section: 'Chance Attacks', summary: 'An attack out of turn that an opponent opens, by anyone free of ailments: one per trigger, none again until its next Turn, each enemy once a Round, no Ballistic weapon but a pistol in melee.' },
  disengage: { document: SEED, section: 'Movement and Combat', summary: 'Leaving melee takes an opposed Disengage test or an Action; failing it, or being driven off, is a Flee that gives each enemy left a Chance Attack with Advantage.' },
  grapple: { document: SEED, section: 'Standard Attack and other Attack Actions', summary: 'A Grapple is a melee attack with Grappling: losing opens a Chance Attack, winning grapples the target instead of damaging it.' },
  burst: { document: SEED, section: 'Standard Attack and other Attack Actions', summary: 'A Burst Attack takes a Disadvantage; each Degree of Success, up to the Burst rating, buys an extra target or an extra wound on one already hit.' },
  flight: { document: SEED, section: 'Flight (untitled passage after "Difficult Terrain")', summary: 'Flyers are at Ground, Low or High; a Basic Move may change the band by one; High and lower bands cannot attack each other without a long-ranged Ballistic weapon, Ground cannot melee Low; a falling flyer drops a band each round and crashes at Ground.' },
  grappled: { document: SEED, section: 'Grappled and Immobilised', summary: 'A grappled character must win an opposed test to move or act; each failure wastes the action.' },
});

export type RuleId = keyof typeof RULES;

export function ruleCitation(id: RuleId): Citation {
  const r = RULES[id];
  return { document: r.document, section: r.section };
}
