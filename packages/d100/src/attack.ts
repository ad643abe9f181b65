import { modifier, RuleError, sumModifiers, type Modifier } from '@personae/core';
import type { DiceSource } from '@personae/dice';
import { drawIn } from './draws';
import { advantageFromAilments, AILMENTS, inflictAilment, isTechnicalAgainst, type AilmentName } from './ailments';
import { isImmune, isPhysical, type Affinity, type Element } from './elements';
import { ailmentScoreDisadvantages, armourAt, bonus, canOppose, defenseToughnessBonus, disadvantagesOnAllTests, effectiveAffinity, hasAilment, hasHighGround, livingPersona, strengthBonus, terrainDisadvantages, toughness, type Fighter, type Score } from './fighter';
import { hasBruisedRib, INJURIES, injuryFor, injuryTestDisadvantages, type Injury } from './injuries';
import { hitLocation, injuryBlock, type Location, type LocationResult } from './location';
import type { D100Options } from './options';
import { ruleCitation } from './rules';
import { resolveOpposed, resolveTest, type OpposedResult, type TestResult, type TieRoll } from './test';
import { afterBlocking, blocksOnHit } from './fate';
import { applyWounds, isOut, restoreLight, type WoundLoss } from './wounds';

export type AttackKind = 'melee' | 'ballistic' | 'magic';

/** A counted Advantage or Disadvantage with what gives it ("Charge", "Cover (Light)"). */
export interface Counted {
  readonly label: string;
  readonly count: number;
}

/** One attack as declared (d100-combat-rules.txt, "How Attacks Work", Steps One and Two). */
export interface AttackSpec {
  readonly kind: AttackKind;
  readonly element: Element;
  /** The attack's Tier, for Absorb; a mundane physical attack is Tier 1. */
  readonly tier?: number;
  /** The ailment a magic Critical Hit of this attack gives (option magicCritical=signature-ailment). */
  readonly criticalAilment?: AilmentName;
  /** The weapon's (or power's) damage value. */
  readonly damage: number;
  /** The Score or skill the attack is tested against (before Advantages). */
  readonly attackTarget: number;
  /** The evasion skill the defender opposes with, or null when it does not oppose. */
  readonly evasionTarget: number | null;
  readonly advantages?: readonly Counted[];
  readonly disadvantages?: readonly Counted[];
  readonly evasionAdvantages?: readonly Counted[];
  readonly evasionDisadvantages?: readonly Counted[];
  readonly damageModifiers?: readonly Modifier[];
  /** A Called Attack names the location (two Disadvantages are added). */
  readonly called?: Location;
  /** The attack ignores the target's Armour (falls, Burning, an Enraged target). */
  readonly ignoreArmour?: boolean;
  /** A Chance Attack never earns a One More (d100-combat-rules.txt, "Chance Attacks"). */
  readonly chanceAttack?: boolean;
  /** Fate Points the defender spends to block Heavy wounds from this attack. */
  readonly fateBlocks?: number;
  /** The hand the weapon is in, for arm Injuries (the right unless said). */
  readonly hand?: 'right' | 'left';
  /** The Score behind the defender's evasion, and whether it is a Parry, for its Injuries. */
  readonly evasionScore?: Score;
  readonly evasionParry?: boolean;
  /** Extra wounds a Burst Attack bought on this target ("Standard Attack and other Attack Actions"). */
  readonly extraWounds?: number;
  /** A Called Attack that ignores the target's protector, with one more Disadvantage ("Defending and Protecting"). */
  readonly ignoreProtector?: boolean;
  /** The weapon whose ammunition the attack spends, when its sheet counts it (a `clip`): one shot, or all on a Fumble ("Fumble": it jams). */
  readonly ammunition?: string;
  /** The attack action, when not a Standard Attack ("Standard Attack and other Attack Actions"). */
  readonly action?: 'charge' | 'focused' | 'all-weapon';
}

/**
 * The situational entries of the Advantage table (d100-combat-rules.txt, "How Attacks Work") a
 * declaration may name, each +1 (Advantage) or -1 (Disadvantage), some for one kind of attack only.
 * The entries the engine works out itself (Ailment, Grappled, Prone, High Ground, Running, Fatigue,
 * Difficult Terrain) are not among them.
 */
export const SITUATIONS = {
  ambushing: { label: 'Ambushing', sign: 1 },
  'close-range': { label: 'Range (Close)', sign: 1, kind: 'ballistic' },
  'point-blank': { label: 'Range (Point Blank)', sign: 1, kind: 'ballistic' },
  'unarmed-enemy': { label: 'Unarmed Enemy', sign: 1, kind: 'melee' },
  'outnumbering-2': { label: 'Outnumbering (2 to 1)', sign: 1, kind: 'melee' },
  'outnumbering-3': { label: 'Outnumbering (3 to 1)', sign: 1, kind: 'melee' },
  'bad-weather': { label: 'Bad Weather', sign: -1 },
  'obscuring-haze': { label: 'Obscuring Haze', sign: -1 },
  darkness: { label: 'Darkness', sign: -1 },
  'low-light': { label: 'Low Light', sign: -1 },
  'cover-light': { label: 'Cover (Light)', sign: -1 },
  'cover-heavy': { label: 'Cover (Heavy)', sign: -1 },
  'shooting-into-melee': { label: 'Shooting into Melee', sign: -1, kind: 'ballistic' },
  'shooting-at-prone': { label: 'Shooting at Prone', sign: -1, kind: 'ballistic' },
} as const satisfies Record<string, { label: string; sign: 1 | -1; kind?: AttackKind }>;
export type Situation = keyof typeof SITUATIONS;
export const SITUATION_NAMES = Object.keys(SITUATIONS) as Situation[];

/**
 * What each die an attack draws is for, in the order drawn: `tie-attack` and `tie-evasion` are the pair
 * rolled again to break a tie (option opposedTie=reroll), from the attack and evasion pools.
 */
export type AttackDraw = 'attack' | 'evasion' | 'location' | 'tie-attack' | 'tie-evasion';

/** What a landed hit did to the one it landed on. */
export interface HitOutcome {
  readonly location: LocationResult;
  readonly affinity: Affinity;
  /** The ailment a Technical Hit exploited (and cleared), or null. */
  readonly technical: AilmentName | null;
  readonly damage: number;
  readonly damageSteps: readonly Modifier[];
  readonly defense: number;
  readonly defenseSteps: readonly Modifier[];
  /** Normal wounds, each with why. */
  readonly wounds: readonly string[];
  /** Savage conditions met. */
  readonly savage: readonly string[];
  readonly losses: readonly WoundLoss[];
  readonly personaWounds: number;
  readonly personaBroken: boolean;
  readonly stress: number;
  readonly injuries: readonly Injury[];
  readonly staggered: boolean;
  readonly healed: number;
  readonly endedAilments: readonly AilmentName[];
  readonly gainedAilments: readonly AilmentName[];
  /** The ailment a magic Critical Hit gave (option magicCritical=signature-ailment), when it took hold. */
  readonly criticalAilment?: AilmentName;
  readonly fateSpent: number;
  readonly out: boolean;
}

export interface AttackResult {
  readonly attack: TestResult;
  readonly evasion: TestResult | null;
  readonly opposed: OpposedResult | null;
  readonly fumble: boolean;
  readonly critical: boolean;
  readonly hit: boolean;
  /** The outcome on the defender, or on the attacker when the defender Repels. */
  readonly outcome: HitOutcome | null;
  readonly repelled: boolean;
  /** The attack Staggered an enemy and was not a Chance Attack (d100-combat-rules.txt, "One More"). */
  readonly oneMore: boolean;
  readonly attacker: Fighter;
  readonly defender: Fighter;
  /** The protector the hit landed on instead of the defender ("Defending and Protecting", Protect). */
  readonly protector?: Fighter;
  /** Both attack rolls against a Condemned target (option `condemned`), when a second was rolled. */
  readonly condemnedRolls?: readonly number[];
  /** Every pair of rolls made again to break a tie (option opposedTie=reroll), in order. */
  readonly tieRolls?: readonly TieRoll[];
  /** Whether the defender could not oppose because it had already evaded this Round (option `evasionsPerRound`). */
  readonly evasionSpent: boolean;
  readonly draws: readonly AttackDraw[];
}

/** The options the Advantages of an attack or evasion read. */
export type ModifierOptions = Pick<D100Options, 'injuryDisadvantage' | 'difficultTerrainScope' | 'highGround'>;

function counted(slug: string, list: readonly Counted[], sign: 1 | -1): Modifier[] {
  return list.filter((c) => c.count !== 0).map((c) => modifier(slug, c.label, sign * 10 * c.count));
}

function netAdvantages(mods: readonly Modifier[]): number {
  return Math.round(sumModifiers(mods) / 10);
}

function checkSpec(spec: AttackSpec): void {
  const whole = (v: unknown, field: string, min: number) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new RuleError('bad-attack', `${field}: ${JSON.stringify(v)} is not a whole number from ${min}`, field, ruleCitation('damage'));
  };
  whole(spec.damage, 'attack.damage', -100);
  whole(spec.attackTarget, 'attack.attackTarget', -1000);
  if (spec.evasionTarget !== null) whole(spec.evasionTarget, 'attack.evasionTarget', -1000);
  if (spec.tier !== undefined) whole(spec.tier, 'attack.tier', 1);
  if (spec.fateBlocks !== undefined) whole(spec.fateBlocks, 'attack.fateBlocks', 0);
}

/** The attack's Advantages and Disadvantages, those the rules add by themselves included. */
export function attackModifiers(attacker: Fighter, defender: Fighter, spec: AttackSpec, options?: ModifierOptions): Modifier[] {
  const mods = [...counted('advantage', spec.advantages ?? [], 1), ...counted('disadvantage', spec.disadvantages ?? [], -1)];
  const ailing = advantageFromAilments(defender.ailments);
  // d100-combat-rules.txt, ailments passage: enemies gain 1 Advantage per ailment (Stunned gives one more)
  if (ailing) mods.push(modifier('advantage', 'Ailment', 10 * ailing, defender.ailments.map((a) => AILMENTS[a.name].title).join(', ')));
  // "Grappled Enemy": melee attacks against a grappled target gain Advantage
  if (spec.kind === 'melee' && defender.conditions.grappledBy !== null) mods.push(modifier('advantage', 'Grappled Enemy', 10));
  if (spec.kind === 'melee' && defender.conditions.prone) mods.push(modifier('advantage', 'Prone (Melee)', 10));
  // "Called Attack": two Disadvantages
  if (spec.called) mods.push(modifier('disadvantage', 'Called Attack', -20));
  // "Defending and Protecting": a Called Attack ignores a protector with one more Disadvantage
  if (spec.called && spec.ignoreProtector) mods.push(modifier('disadvantage', 'past the protector', -10));
  if (spec.kind === 'melee' && hasAilment(attacker, 'enraged')) mods.push(modifier('advantage', 'Enraged', 10));
  for (const d of disadvantagesOnAllTests(attacker)) mods.push(modifier('disadvantage', d.label, -10 * d.count));
  // "Wounds and Injury": an arm's Injury burdens attacks made with that hand
  if (options && spec.kind !== 'magic') for (const d of injuryTestDisadvantages(attacker.injuries, attacker.injuriesIgnored ?? [], { hand: spec.hand ?? 'right' }, options)) mods.push(modifier('disadvantage', d.label, -10 * d.count));
  if (options) {
    // "Difficult Terrain" (option difficultTerrainScope) and "High Ground" (option highGround)
    const score: Score = spec.kind === 'melee' ? 'melee' : spec.kind === 'ballistic' ? 'ballistic' : 'magic';
    for (const d of terrainDisadvantages(attacker, score, options)) mods.push(modifier('disadvantage', d.label, -10 * d.count));
    if (hasHighGround(attacker, defender, options)) mods.push(modifier('advantage', 'High Ground', 10));
    // Run: melee attacks on the runner gain Advantage, Ballistic ones take Disadvantage ("Running Target")
    if (defender.conditions.running && spec.kind === 'melee') mods.push(modifier('advantage', 'Running Target', 10));
    if (defender.conditions.running && spec.kind === 'ballistic') mods.push(modifier('disadvantage', 'Running Target (Shoot)', -10));
  }
  return mods;
}

export function evasionModifiers(defender: Fighter, spec: AttackSpec, options?: ModifierOptions): Modifier[] {
  const mods = [...counted('advantage', spec.evasionAdvantages ?? [], 1), ...counted('disadvantage', spec.evasionDisadvantages ?? [], -1)];
  // "Defending and Protecting": Defend gives Advantage on evasion
  if (defender.conditions.defending) mods.push(modifier('advantage', 'Defend', 10));
  for (const d of disadvantagesOnAllTests(defender)) mods.push(modifier('disadvantage', d.label, -10 * d.count));
  // "Wounds and Injury": leg Injuries burden Agility evasions, an arm's Injury a Parry with that hand
  if (options) {
    const test = { ...(spec.evasionScore ? { score: spec.evasionScore } : {}), ...(spec.evasionParry ? { hand: 'right' as const } : {}) };
    for (const d of injuryTestDisadvantages(defender.injuries, defender.injuriesIgnored ?? [], test, options)) mods.push(modifier('disadvantage', d.label, -10 * d.count));
    for (const d of terrainDisadvantages(defender, spec.evasionScore ?? 'agility', options)) mods.push(modifier('disadvantage', d.label, -10 * d.count));
  }
  for (const d of ailmentScoreDisadvantages(defender, spec.evasionScore ?? 'agility')) mods.push(modifier('disadvantage', d.label, -10 * d.count));
  return mods;
}

/** The Technical Hit an attack of `element` scores on the target, if any (d100-combat-rules.txt, "Technical Hits"). */
export function technicalAilment(target: Fighter, element: Element, options: D100Options): AilmentName | null {
  for (const a of target.ailments) if (a.name !== 'staggered' && isTechnicalAgainst(a.name, element, options)) return a.name;
  return null;
}

interface LandInput {
  readonly damageSteps: Modifier[];
  readonly element: Element;
  readonly tier: number;
  readonly kind: AttackKind;
  readonly location: LocationResult;
  readonly critical: boolean;
  readonly ignoreArmour: boolean;
  readonly fateBlocks: number;
  /** The reflected hit of a Repel gets no Critical or Technical bonuses. */
  readonly reflected: boolean;
  /** Wounds a Burst Attack bought on this target, whatever the damage. */
  readonly extraWounds?: number;
  /** Only the one wound for damage over Defense: no extra wounds, no Savage (a fall under fallUsesWoundRules=one-wound). */
  readonly baseWoundOnly?: boolean;
  /** The ailment a magic Critical Hit gives under magicCritical=signature-ailment. */
  readonly criticalAilment?: AilmentName;
}

/**
 * Lays `normal` and `savage` wounds on a target: its living Persona first ("Wounds and Personas"),
 * then its tracks with the Injuries of each Heavy wound lost ("Wounds and Injury") and their
 * immediate effects, the last Injury per location staying (none where the wounds have no location).
 * `fateBlocks`: Heavy wounds the hit's own declaration blocks, before those declared ahead.
 */
export function layWounds(target: Fighter, normal: number, savage: number, at: { readonly location: Location | null; readonly fateBlocks?: number }, options: D100Options) {
  let t = target;
  let personaWounds = 0;
  let personaBroken = false;
  let stress = 0;
  let losses: WoundLoss[] = [];
  let fateSpent = 0;
  let injuries: Injury[] = [];
  let gained: AilmentName[] = [];
  let toTracks = { normal, savage };
  const persona = livingPersona(t);
  if (persona && toTracks.normal + toTracks.savage > 0) {
    // "Wounds and Personas": the Persona loses wounds first, with Stress but no Injuries
    const total = toTracks.normal + toTracks.savage;
    personaWounds = Math.min(total, persona.wounds);
    const left = persona.wounds - personaWounds;
    stress += personaWounds;
    personaBroken = left === 0;
    if (personaBroken) stress += 10;
    t = { ...t, persona: { ...persona, wounds: left } };
    const rest = total - personaWounds;
    const carry = personaBroken && options.personaOverflow === 'carry' ? rest : 0;
    const normalCarried = Math.max(0, Math.min(carry, toTracks.normal - personaWounds));
    toTracks = { normal: normalCarried, savage: carry - normalCarried };
  }
  if (toTracks.normal + toTracks.savage > 0) {
    // "Fate Points", Block Heavy Wound: the blocks given with the hit first, then those its player declared ahead
    const applied = applyWounds(t.tracks, toTracks.normal, toTracks.savage, options, blocksOnHit(t, at.fateBlocks));
    losses = [...applied.losses];
    stress += applied.stress;
    fateSpent = applied.fateSpent;
    // "Wounds and Injury": the Injury by location and Heavy wounds left; one per location
    const blocked: Fighter = { ...afterBlocking(t, fateSpent, at.fateBlocks), tracks: applied.tracks };
    const taken = at.location === null ? { fighter: blocked, injuries: [], gained: [] } : takeInjuries(blocked, at.location, t.tracks.left.heavy, applied.losses, options);
    t = taken.fighter;
    injuries = taken.injuries;
    gained = taken.gained;
    if (isOut(t.tracks)) t = { ...t, out: true, dead: options.deadlyWound === 'dead' };
  }
  return { target: t, personaWounds, personaBroken, stress, losses, fateSpent, injuries, gained };
}

/**
 * The Injuries of the Heavy wounds among `losses`, all at `location` ("Wounds and Injury"): each
 * Heavy wound lost (not blocked) gives the row for the Heavy wounds left after it, a newer Injury
 * replacing the older at that location; then their immediate effects (Prone, Blood Loss, Stunned,
 * Confused). `heavyBefore` is the Heavy track before the losses; `target` already carries the new tracks.
 */
export function takeInjuries(target: Fighter, location: Location, heavyBefore: number, losses: readonly WoundLoss[], options: D100Options): { fighter: Fighter; injuries: Injury[]; gained: AilmentName[] } {
  const injuries: Injury[] = [];
  const gained: AilmentName[] = [];
  let heavyLeft = heavyBefore;
  let list = [...target.injuries];
  for (const loss of losses) {
    if (loss.track !== 'heavy' || loss.blocked) continue;
    heavyLeft--;
    const def = injuryFor(location, heavyLeft);
    const injury: Injury = { location, name: def.name, level: def.level };
    list = [...list.filter((i) => i.location !== location), injury];
    injuries.push(injury);
  }
  let t: Fighter = { ...target, injuries: list };
  for (const injury of injuries) {
    for (const eff of INJURIES[injuryBlock(injury.location)][injury.level]!.immediate) {
      if (eff === 'prone') t = { ...t, conditions: { ...t.conditions, prone: true } };
      else if (eff === 'blood-loss' || eff === 'blood-loss-once') t = { ...t, conditions: { ...t.conditions, bloodLoss: true } };
      else {
        const name = eff.slice('ailment:'.length) as AilmentName;
        const r = inflictAilment(t.ailments, name, { turnsStarted: t.turnsStarted }, (e) => isImmune(livingPersona(t)?.affinities ?? t.affinities, e), options);
        if (r.ok) (t = { ...t, ailments: r.ailments }), gained.push(name);
      }
    }
  }
  return { fighter: t, injuries, gained };
}

/**
 * Whether a body Heavy wound lost before the attack's last wound gives Bruised Rib or worse; a body
 * Injury a Fate Point ignores this Round ("Fate Points", Ignore Injury) adds nothing, the new one too.
 */
export function bruisedRibBeforeLast(target: Fighter, losses: readonly WoundLoss[], location: Location): boolean {
  if (injuryBlock(location) !== 'body' || target.injuriesIgnored.includes('body')) return false;
  let heavyLeft = target.tracks.left.heavy;
  for (const [i, loss] of losses.entries()) {
    if (loss.track !== 'heavy' || loss.blocked) continue;
    heavyLeft--;
    if (injuryFor(location, heavyLeft).level >= 1) return i < losses.length - 1;
  }
  return false;
}

/**
 * Lands a hit on `target` (d100-combat-rules.txt, "How Attacks Work" Step Five, "Inflicting Multiple
 * Wounds", "Savage Attacks", "Elemental Affinities", "Wounds and Personas", "Wounds and Injury").
 */
export function landHit(target: Fighter, input: LandInput, options: D100Options): { target: Fighter; outcome: HitOutcome } {
  let affinity = effectiveAffinity(target, input.element);
  const technical = input.reflected ? null : technicalAilment(target, input.element, options);
  // "Technical Hits": they ignore Elemental Resistances (option technicalIgnores)
  if (technical && (affinity === 'resist' || (options.technicalIgnores === 'resist-block-repel-absorb' && affinity !== 'weak'))) affinity = 'normal';
  const damage = sumModifiers(input.damageSteps);
  const base: Omit<HitOutcome, 'affinity' | 'technical' | 'defense' | 'defenseSteps'> = {
    location: input.location,
    damage,
    damageSteps: input.damageSteps,
    wounds: [],
    savage: [],
    losses: [],
    personaWounds: 0,
    personaBroken: false,
    stress: 0,
    injuries: [],
    staggered: false,
    healed: 0,
    endedAilments: [],
    gainedAilments: [],
    fateSpent: 0,
    out: target.out,
  };
  if (affinity === 'block') return { target, outcome: { ...base, affinity, technical: null, defense: 0, defenseSteps: [] } };
  if (affinity === 'absorb') {
    // "Absorb": heals 1 Light wound per Tier of the attack
    const tracks = restoreLight(target.tracks, input.tier);
    const healed = tracks.left.light - target.tracks.left.light;
    return { target: { ...target, tracks }, outcome: { ...base, affinity, technical: null, defense: 0, defenseSteps: [], healed } };
  }
  const tb = bonus(toughness(target));
  const defenseSteps: Modifier[] = [];
  // "Weak": the damage ignores the Toughness Bonus; "Resist": +5 TB
  if (affinity !== 'weak') defenseSteps.push(modifier('toughness-bonus', 'Toughness Bonus', tb));
  // Unnatural Toughness raises the Bonus, except against an Enraged character (ailments passage, Enraged)
  const unnatural = defenseToughnessBonus(target, options) - tb;
  if (affinity !== 'weak' && unnatural) defenseSteps.push(modifier('unnatural-toughness', `Unnatural Toughness (${target.unnaturalToughness})`, unnatural));
  if (affinity === 'resist') defenseSteps.push(modifier('resist', 'Resist', 5));
  const armour = armourAt(target, input.location.location, options);
  if (armour && !input.ignoreArmour) defenseSteps.push(modifier('armour', `Armour (${input.location.location})`, armour));
  const defense = sumModifiers(defenseSteps);
  const defending = target.conditions.defending;
  const wounds: string[] = [];
  const savage: string[] = [];
  const margin = damage - defense;
  // "Wounds and Injury", Bruised Rib: whatever brings a wound brings one more (a fall's one wound, a Burst's bought ones too)
  const bruised = hasBruisedRib(target.injuries, target.injuriesIgnored);
  if (margin > 0) wounds.push('damage over Defense');
  if (margin > 0 && !input.baseWoundOnly) {
    if (margin >= 5) wounds.push('High Damage');
    if (target.vital.includes(input.location.location)) wounds.push('Headshot/Weakspot');
    // Defend: no extra wounds from Critical, Technical or Weakness hits
    if (affinity === 'weak' && !defending) wounds.push('Weakness');
    if (technical && !defending) wounds.push('Technical Hit');
    if (input.critical && !input.reflected && !defending) wounds.push('Critical Hit');
  }
  if (margin > 0 && bruised) wounds.push('Bruised Rib');
  if (margin > 0 && !input.baseWoundOnly) {
    if (target.conditions.helpless || (options.drowsedIsHelpless === 'drowsed-helpless' && hasAilment(target, 'drowsed'))) savage.push('Helpless');
    if (wounds.length >= 4) savage.push('4+ Wounds');
    if (margin >= 10) savage.push('Very High Damage');
  }
  for (let i = 0; i < (input.extraWounds ?? 0); i++) wounds.push('Burst Attack');
  if (margin <= 0 && bruised && wounds.length > 0) wounds.push('Bruised Rib');
  const at = { location: input.location.location, fateBlocks: input.fateBlocks };
  let laid = layWounds(target, wounds.length, savage.length, at, options);
  // option injuryTiming (U34), per-wound: a Bruised Rib the attack itself gives adds its wound when a
  // later wound of the same attack follows the one that gave it
  if (options.injuryTiming === 'per-wound' && margin > 0 && !input.baseWoundOnly && !hasBruisedRib(target.injuries, target.injuriesIgnored) && bruisedRibBeforeLast(target, laid.losses, input.location.location)) {
    wounds.push('Bruised Rib (from this attack)');
    if (wounds.length >= 4 && !savage.includes('4+ Wounds')) savage.push('4+ Wounds');
    laid = layWounds(target, wounds.length, savage.length, at, options);
  }
  const { personaWounds, personaBroken, stress, losses, fateSpent, injuries, gained } = laid;
  let t = laid.target;
  t = { ...t, stress: t.stress + stress };
  // Ailments ended by the hit: the exploited one, Drowsed and Frozen by damage, Burning by Ice
  const tookDamage = options.takesDamage === 'hit' || personaWounds + losses.filter((l) => !l.blocked).length > 0;
  const ended: AilmentName[] = [];
  const keep = t.ailments.filter((a) => {
    const def = AILMENTS[a.name];
    const end = a.name === technical || (def.endsOn === 'wound' && tookDamage) || (def.endsOn === 'ice-hit' && input.element === 'ice');
    if (end) ended.push(a.name);
    return !end;
  });
  t = { ...t, ailments: keep };
  // Stagger: a Weakness hit, a Technical Hit, a physical Critical Hit (magic ones by option); not while Defending
  const staggers = !input.reflected && (affinity === 'weak' || technical !== null || (input.critical && (isPhysical(input.element) || options.magicCritical === 'stagger')));
  let staggered = false;
  if (staggers && !defending && !t.out) {
    const r = inflictAilment(t.ailments, 'staggered', { turnsStarted: t.turnsStarted }, () => false, { ...options, ailmentSameCategory: 'ignore-new' });
    if (r.ok) (t = { ...t, ailments: r.ailments }), (staggered = true), gained.push('staggered');
  }
  // "Critical Hits": a magic one's effect by its type, here the ailment its spell names (option magicCritical, U28);
  // Defend stops the extra wound and the Stagger only, so it does not stop this
  const signature = input.critical && !input.reflected && !isPhysical(input.element) && options.magicCritical === 'signature-ailment' ? input.criticalAilment : undefined;
  let criticalAilment: AilmentName | undefined;
  if (signature && !t.out) {
    const r = inflictAilment(t.ailments, signature, { turnsStarted: t.turnsStarted }, (e) => isImmune(livingPersona(t)?.affinities ?? t.affinities, e), options);
    if (r.ok) (t = { ...t, ailments: r.ailments }), gained.push(signature), (criticalAilment = signature);
  }
  return {
    target: t,
    outcome: { ...base, affinity, technical, defense, defenseSteps, wounds, savage, losses, personaWounds, personaBroken, stress, injuries, staggered, endedAilments: ended, gainedAilments: gained, fateSpent, out: t.out, ...(criticalAilment ? { criticalAilment } : {}) },
  };
}

/**
 * A whole attack with injected dice, drawn in this order: the attack roll (twice against a Condemned
 * target under condemned=attacker-better-of-two), the evasion roll (when the defender opposes and
 * the attack did not Fumble), pairs of attack and evasion rolls breaking a tie (option
 * opposedTie=reroll), a second attack roll when a miss against a Condemned target is rerolled (and
 * its own tie-breaking pairs), the location roll (when the attack lands, is not Called and the location is a fresh
 * roll), and for a Repel a location roll for the attacker. `draws` says what each die was for. A
 * hit on a protected ally lands on `protector` instead ("Defending and Protecting"). `buy`, when
 * given, is asked once the attack lands (not repelled) for the wounds its attack test bought on the
 * target (a Burst Attack, "Standard Attack and other Attack Actions"), in place of `spec.extraWounds`.
 */
export function resolveAttack(attacker: Fighter, defender: Fighter, spec: AttackSpec, dice: DiceSource, options: D100Options, protector: Fighter | null = null, buy?: (attack: TestResult) => number): AttackResult {
  checkSpec(spec);
  if (attacker.out) throw new RuleError('out-of-fight', `${attacker.name} is out of the fight and cannot attack`, 'attacker', ruleCitation('woundTracks'));
  const draws: AttackDraw[] = [];
  // Each die is drawn from the table's pool named for its use (./pools.ts), when the dice know pools.
  const die = (what: AttackDraw): number => (draws.push(what), drawIn(dice, what === 'tie-attack' ? 'attack' : what === 'tie-evasion' ? 'evasion' : what).die(100));
  const tieDice = { actor: () => die('tie-attack'), reactor: () => die('tie-evasion') };
  const tieRolls: TieRoll[] = [];
  const mods = attackModifiers(attacker, defender, spec, options);
  let attack = resolveTest(spec.attackTarget, die('attack'), mods, options);
  const helpless = defender.conditions.helpless || (options.drowsedIsHelpless === 'drowsed-helpless' && hasAilment(defender, 'drowsed'));
  // Condemned: "attacks against you reroll to hit" (option condemned, U45)
  const condemned = hasAilment(defender, 'condemned');
  let condemnedRolls: number[] | undefined;
  if (condemned && options.condemned === 'attacker-better-of-two') {
    const second = die('attack');
    condemnedRolls = [attack.roll, second];
    if (second < attack.roll) attack = resolveTest(spec.attackTarget, second, mods, options);
  }
  // Option evasionsPerRound (U50): one evasion a Round at most
  const evasionSpent = options.evasionsPerRound === 'one' && defender.evasionsThisRound > 0;
  const mayOppose = spec.evasionTarget !== null && canOppose(defender) && !evasionSpent;
  let evasion = null as TestResult | null;
  const contest = (a: TestResult): { hit: boolean; opposed: OpposedResult | null } => {
    if (a.fumble) return { hit: false, opposed: null }; // "Fumble": an automatic miss, no evasion roll
    if (helpless) return { hit: true, opposed: null }; // Helpless: attacks hit automatically
    if (mayOppose && evasion === null) evasion = resolveTest(spec.evasionTarget!, die('evasion'), evasionModifiers(defender, spec, options), options);
    const opposed = resolveOpposed(a, evasion, options, tieDice);
    if (opposed.tieRolls) tieRolls.push(...opposed.tieRolls);
    return { hit: opposed.actorWins || (a.critical && options.criticalNeedsWin === 'critical-lands' && a.success), opposed };
  };
  let { hit, opposed } = contest(attack);
  if (!hit && condemned && options.condemned === 'attacker-may-reroll') {
    const second = die('attack');
    condemnedRolls = [attack.roll, second];
    attack = resolveTest(spec.attackTarget, second, mods, options);
    ({ hit, opposed } = contest(attack));
  }
  const fumble = attack.fumble;
  // "Critical Hits": a critical roll that does not land is no Critical Hit
  const critical = hit && attack.critical;
  const common = { attack, evasion, opposed, fumble, critical, hit, evasionSpent, draws, ...(condemnedRolls ? { condemnedRolls } : {}), ...(tieRolls.length ? { tieRolls } : {}) };
  if (!hit) return { ...common, outcome: null, repelled: false, oneMore: false, attacker, defender };
  const finalAttack = attack;
  const pickLocation = (): LocationResult => {
    if (options.hitLocation === 'reversed-attack-roll') return hitLocation(finalAttack.roll, options);
    return hitLocation(die('location'), options);
  };
  const location: LocationResult = spec.called ? { roll: 0, number: 0, location: spec.called } : pickLocation();
  const net = netAdvantages(mods);
  const damageSteps: Modifier[] = [modifier('weapon', 'weapon damage', spec.damage), ...(spec.damageModifiers ?? [])];
  // Step Five: Strength Bonus is added to melee weapon damage (Enraged: Unnatural Strength, option unnatural)
  if (spec.kind === 'melee') damageSteps.push(modifier('strength-bonus', 'Strength Bonus', strengthBonus(attacker, options)));
  const reflectedSteps = [...damageSteps];
  if (attack.degreesOfSuccess) damageSteps.push(modifier('degrees', 'attacker Degrees of Success', attack.degreesOfSuccess));
  const ev = evasion as TestResult | null;
  if (ev && ev.degreesOfSuccess) damageSteps.push(modifier('degrees', 'defender Degrees of Success', -ev.degreesOfSuccess));
  // Step Two: every Advantage in excess of Disadvantage adds 1 damage
  if (net > 0) damageSteps.push(modifier('advantage', 'net Advantage', net));
  // Protect: the hit lands on the protector instead
  const target = protector ?? defender;
  const affinity = effectiveAffinity(target, spec.element);
  const tier = spec.tier ?? 1;
  const landedOn = (t: Fighter) => (protector ? { defender, protector: t } : { defender: t });
  if (affinity === 'repel' && technicalAilment(target, spec.element, options) === null) {
    // "Repel": the attack turns back on the attacker; a Repel of its own Blocks it
    if (attack.degreesOfSuccess) reflectedSteps.push(modifier('degrees', 'attacker Degrees of Success', attack.degreesOfSuccess));
    if (net > 0) reflectedSteps.push(modifier('advantage', 'net Advantage', net));
    const selfLocation = options.hitLocation === 'reversed-attack-roll' ? location : hitLocation(die('location'), options);
    const selfAffinity = effectiveAffinity(attacker, spec.element);
    if (selfAffinity === 'repel') {
      const blocked = landHit({ ...attacker, persona: null, affinities: { [spec.element]: 'block' } }, { damageSteps: reflectedSteps, element: spec.element, tier, kind: spec.kind, location: selfLocation, critical: false, ignoreArmour: !!spec.ignoreArmour, fateBlocks: 0, reflected: true }, options);
      return { ...common, outcome: blocked.outcome, repelled: true, oneMore: false, attacker, ...landedOn(target) };
    }
    const back = landHit(attacker, { damageSteps: reflectedSteps, element: spec.element, tier, kind: spec.kind, location: selfLocation, critical: false, ignoreArmour: !!spec.ignoreArmour, fateBlocks: 0, reflected: true }, options);
    return { ...common, outcome: back.outcome, repelled: true, oneMore: false, attacker: back.target, ...landedOn(target) };
  }
  // An Enraged target: attacks on it ignore "AP" (option apMeans, U53)
  const ignoreArmour = !!spec.ignoreArmour || (hasAilment(target, 'enraged') && options.apMeans === 'armour-points');
  const landed = landHit(target, { damageSteps, element: spec.element, tier, kind: spec.kind, location, critical, ignoreArmour, fateBlocks: spec.fateBlocks ?? 0, reflected: false, extraWounds: buy ? buy(attack) : (spec.extraWounds ?? 0), ...(spec.criticalAilment ? { criticalAilment: spec.criticalAilment } : {}) }, options);
  return {
    ...common,
    outcome: landed.outcome,
    repelled: false,
    oneMore: landed.outcome.staggered && !spec.chanceAttack,
    attacker,
    ...landedOn(landed.target),
  };
}
