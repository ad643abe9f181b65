import {
  ailmentTitle,
  checkSheet,
  commandSchema,
  declaredAttackOdds,
  declaredTestOdds,
  fateAdvantages,
  TRAINING_BONUS,
  knownInFull,
  owedOnItself,
  PRESET_NAMES,
  rejudgeD100Log,
  resolveOptions,
  ruleCitation,
  separation,
  shotsIn,
  spareLoadsOf,
  BALLISTIC_CLASSES,
  type HurrySkill,
  type D100AttackVerdict,
  type AttackOdds,
  type CharacterView,
  type ConfusedAttack,
  type D100Derived,
  type ShownEncounterEvent,
  type EncounterView,
  type FateSpend,
  type TestOdds,
} from '@personae/d100';
import type { Problem } from '@personae/core';
import type { Decisions } from '../../lib/api';
import { judgedRows, type JudgedRow } from '../replay';
import { countChartGroups, countChartViews, underEachPreset, type CountChartView } from '../compare';

/**
 * The d100 pages' model, apart from the screen: the sheet a builder edits, its live check by the
 * ruleset's own `checkSheet` (d100-combat-rules.txt; problems name field, value and rule), the exact
 * odds of a declared attack from the viewer's own view, and the log in words.
 */

export type Score = 'melee' | 'ballistic' | 'magic' | 'strength' | 'toughness' | 'agility' | 'intelligence' | 'perception' | 'willpower' | 'fellowship';
export const SCORE_LABEL: Record<Score, string> = {
  melee: 'Melee',
  ballistic: 'Ballistic',
  magic: 'Magic',
  strength: 'Strength',
  toughness: 'Toughness',
  agility: 'Agility',
  intelligence: 'Intelligence',
  perception: 'Perception',
  willpower: 'Willpower',
  fellowship: 'Fellowship',
};
export const SCORE_KEYS = Object.keys(SCORE_LABEL) as Score[];

/** The sheet as the builder edits it: plain data, sent to the server as it is. */
export interface D100Draft {
  ruleset: 'd100';
  name: string;
  kind: 'evoker' | 'shadow' | 'npc';
  side: string;
  hidden: boolean;
  scores: Record<Score, number>;
  realisation: number;
  skills: { name: string; focus?: string; score: Score; training: 'untrained' | 'known' | 'trained' | 'experienced' | 'master' }[];
  affinities: Record<string, string>;
  persona?: { name: string; wounds: number; affinities: Record<string, string> };
  armour: Record<string, number>;
  weapons: {
    name: string;
    class: 'melee' | 'thrown' | 'pistol' | 'basic' | 'heavy' | 'magic';
    element: string;
    damage: number;
    tier: number;
    /** Metres it reaches (absent: no limit the table measures). */
    range?: number;
    /** Shots one load holds; with it the table counts the ammunition of this Ballistic weapon. */
    clip?: number;
    /** Actions a Reload takes (absent: 1). */
    reload?: number;
    /** Loads carried besides the one in it (absent: as many as needed). */
    spareLoads?: number;
    /** The Burst rating: the extra targets or wounds its degrees may buy (absent: no Burst Attack). */
    burst?: number;
    /** A Ballistic weapon the GM approves as specially long-ranged: it reaches between High and lower bands. */
    longRange?: boolean;
    /** The ailment a magic Critical Hit with it gives under option magicCritical=signature-ailment. */
    criticalAilment?: string;
  }[];
  /** Size categories above (positive) or below (negative) Normal, -4 to 4 (absent: 0). */
  size?: number;
  stress: number;
  fatePoints?: number;
  /** Evoker Rank (absent: 1 for an Evoker, 0 otherwise); Spirit and Exertion grow with it. */
  evokerRank?: number;
  /** The character can fly between the altitude bands. */
  flight?: boolean;
  /** The rating of the Unnatural Toughness trait (absent: none). */
  unnaturalToughness?: number;
  /** Arcana Level: 4 lets the character Analyse Target, 7 Advanced Analyse Target. */
  arcanaLevel?: number;
  /** Social Links by the Confidant's name (or id) and rank, as rows; the sheet keeps them by name. */
  socialLinks: { name: string; rank: number }[];
}

export function newD100Draft(): D100Draft {
  return {
    ruleset: 'd100',
    name: '',
    kind: 'evoker',
    side: 'pc',
    hidden: false,
    scores: Object.fromEntries(SCORE_KEYS.map((s) => [s, 30])) as Record<Score, number>,
    realisation: 20,
    skills: [],
    affinities: {},
    armour: {},
    weapons: [{ name: 'Knife', class: 'melee', element: 'melee', damage: 4, tier: 1 }],
    stress: 0,
    socialLinks: [],
  };
}

/** The draft without empty optional parts, as the sheet file has it. */
export function draftSheet(d: D100Draft): Record<string, unknown> {
  const affinities = Object.fromEntries(Object.entries(d.affinities).filter(([, v]) => v && v !== 'normal'));
  const armour = Object.fromEntries(Object.entries(d.armour).filter(([, v]) => Number.isFinite(v) && v !== 0));
  // a weapon's optional numbers left blank are left out, as the sheet file has them
  const weapons = d.weapons.map((w) => Object.fromEntries(Object.entries(w).filter(([, v]) => v !== undefined)));
  const out: Record<string, unknown> = { ...d, affinities, armour, weapons, skills: d.skills.map((s) => (s.focus ? s : { name: s.name, score: s.score, training: s.training })) };
  if (d.socialLinks.length) out.socialLinks = Object.fromEntries(d.socialLinks.map((l) => [l.name.trim(), l.rank]));
  else delete out.socialLinks;
  if (!d.hidden) delete out.hidden;
  if (d.fatePoints === undefined) delete out.fatePoints;
  if (!d.flight) delete out.flight;
  if (!d.unnaturalToughness) delete out.unnaturalToughness;
  if (!d.size) delete out.size;
  if (d.persona) out.persona = { ...d.persona, affinities: Object.fromEntries(Object.entries(d.persona.affinities).filter(([, v]) => v && v !== 'normal')) };
  else delete out.persona;
  return out;
}

export interface DraftCheck {
  readonly ok: boolean;
  readonly problems: readonly Problem[];
  readonly derived: D100Derived | null;
}

/**
 * The Social Link rows' own problems: the sheet keeps one rank per Confidant's name, so a row without a
 * name or a name given twice would be lost there ("Baton Pass": the pass goes to a Confidant).
 */
function socialLinkProblems(d: D100Draft): Problem[] {
  const rule = ruleCitation('batonPass');
  const names = d.socialLinks.map((l) => l.name.trim());
  return names.flatMap((n, i): Problem[] =>
    !n
      ? [{ field: `socialLinks.${i}.name`, value: d.socialLinks[i]!.name, message: `socialLinks.${i}.name: name the Confidant (a character's name or id)`, rule }]
      : names.indexOf(n) !== i
        ? [{ field: `socialLinks.${i}.name`, value: n, message: `socialLinks.${i}.name: "${n}" has a Social Link already (row ${names.indexOf(n) + 1}); a Confidant has one rank`, rule }]
        : [],
  );
}

/** The sheet's problems about a Social Link (by name) moved onto the row that holds it. */
function onRows(d: D100Draft, p: Problem): Problem {
  if (!p.field.startsWith('socialLinks.')) return p;
  const key = p.field.slice('socialLinks.'.length);
  const i = d.socialLinks.findIndex((l) => l.name.trim() === key);
  return i < 0 ? p : { ...p, field: `socialLinks.${i}.rank`, rule: p.rule ?? ruleCitation('batonPass') };
}

export function checkDraft(d: D100Draft): DraftCheck {
  const own = socialLinkProblems(d);
  const r = checkSheet(draftSheet(d));
  const problems = [...own, ...(r.ok ? [] : r.problems.map((p) => onRows(d, p)))];
  return r.ok && !own.length ? { ok: true, problems: [], derived: r.derived } : { ok: false, problems, derived: r.ok ? r.derived : null };
}

/** The problems about one field (a dotted path) or anything under it. */
export function problemsAt(problems: readonly Problem[], field: string): Problem[] {
  return problems.filter((p) => p.field === field || p.field.startsWith(`${field}.`));
}

/** Where a problem's rule comes from, in a few words. */
export function ruleText(p: Problem): string {
  const r = p.rule as { document?: string; section?: string } | undefined;
  return r?.section ? `${r.section}${r.document ? ` (${r.document})` : ''}` : '';
}

export type D100View = EncounterView;
export type AttackDeclaration = { attacker: string; defender: string; weapon?: string; called?: string; advantages?: number; disadvantages?: number };

/** The attack command a declaration sends. */
export function attackCommand(a: AttackDeclaration): Record<string, unknown> {
  return {
    type: 'attack',
    attacker: a.attacker,
    defender: a.defender,
    ...(a.weapon ? { weapon: a.weapon } : {}),
    ...(a.called ? { called: a.called } : {}),
    advantages: a.advantages ? [{ label: 'Situation', count: a.advantages }] : [],
    disadvantages: a.disadvantages ? [{ label: 'Situation', count: a.disadvantages }] : [],
  };
}

/**
 * The exact odds of a declared attack, from what this viewer is shown: null when either character is
 * not in the view (a hidden GM character is never guessed at), or the declaration is refused.
 */
export function oddsFor(view: D100View, a: AttackDeclaration, fateReroll = false): AttackOdds | { error: string } | null {
  const shown = new Map(view.characters.map((c) => [c.id, c]));
  const att = shown.get(a.attacker);
  const def = shown.get(a.defender);
  // an enemy whose Scores the viewer does not know (option detailsReveal) has no odds to work out
  const attacker = att && knownInFull(att.sheet, att.fighter);
  const defender = def && knownInFull(def.sheet, def.fighter);
  if (!att || !def || !attacker || !defender) return null;
  const parsed = commandSchema.safeParse(attackCommand(a));
  if (!parsed.success || parsed.data.type !== 'attack') return { error: parsed.success ? 'not an attack' : (parsed.error.issues[0]?.message ?? 'not an attack') };
  try {
    return declaredAttackOdds(
      { options: view.options, oneMore: view.oneMore, fighters: { [att.id]: attacker.fighter, [def.id]: defender.fighter }, sheets: { [att.id]: attacker.sheet, [def.id]: defender.sheet } },
      parsed.data,
      fateReroll,
    );
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

export interface AttackChoice {
  /** The choice, in words ("without the 2 Advantages", "with Agi instead"). */
  readonly label: string;
  readonly odds: AttackOdds | { error: string } | null;
}

/**
 * The declared attack's odds without each choice in it and with each one the attacker could still make
 * (d100-combat-rules.txt, "How Attacks Work": each Advantage adds 10 to the test, each Disadvantage takes
 * 10; a Called Attack names the location and carries two Disadvantages), and with a Fate Point spent to
 * roll a miss again ("Fate Points", Reroll), each worked out exactly as the declaration itself is.
 */
export function choiceOddsFor(view: D100View, a: AttackDeclaration): AttackChoice[] {
  const out: AttackChoice[] = [];
  const count = (n: number, what: string) => (n === 1 ? `the ${what}` : `the ${n} ${what}s`);
  if (a.advantages) out.push({ label: `without ${count(a.advantages, 'Advantage')}`, odds: oddsFor(view, { ...a, advantages: 0 }) });
  out.push({ label: 'with one more Advantage', odds: oddsFor(view, { ...a, advantages: (a.advantages ?? 0) + 1 }) });
  if (a.disadvantages) out.push({ label: `without ${count(a.disadvantages, 'Disadvantage')}`, odds: oddsFor(view, { ...a, disadvantages: 0 }) });
  if (a.called) {
    const { called: _called, ...rolled } = a;
    out.push({ label: `without calling the ${a.called} (the location rolled)`, odds: oddsFor(view, rolled) });
  }
  const attacker = view.characters.find((c) => c.id === a.attacker);
  // "Fate Points", Reroll: a missed attack rolled again, the kept roll as the table's option says.
  if ((attacker?.fighter?.fate.current ?? 0) > 0) out.push({ label: 'with a Fate Point to reroll a miss', odds: oddsFor(view, a, true) });
  const weapons = attacker?.sheet?.weapons ?? [];
  const chosen = a.weapon ?? weapons[0]?.name;
  for (const w of weapons) if (w.name !== chosen) out.push({ label: `with ${w.name} instead`, odds: oddsFor(view, { ...a, weapon: w.name }) });
  return out;
}

/**
 * A plain test as declared on the form: a Score, or one of the character's skills (its target is the
 * governing Score plus the training, docs/d100/sheet.md), with Advantages and Disadvantages
 * (d100-combat-rules.txt, "How Attacks Work").
 */
export interface TestDeclaration {
  readonly who: string;
  readonly score: Score;
  /** The index of the skill in the character's sheet; absent: the Score alone. */
  readonly skill?: number;
  readonly advantages?: number;
  readonly disadvantages?: number;
}

/** The test command a declaration sends, or an error naming the field when the skill is not there. */
export function testCommand(view: D100View, t: TestDeclaration): Record<string, unknown> | { error: string } {
  const c = view.characters.find((x) => x.id === t.who);
  const counted = (n: number | undefined) => (n ? [{ label: 'Situation', count: n }] : []);
  const plain = { type: 'test', who: t.who, advantages: counted(t.advantages), disadvantages: counted(t.disadvantages) };
  if (t.skill === undefined) return { ...plain, score: t.score, label: SCORE_LABEL[t.score] };
  const skill = c?.sheet?.skills?.[t.skill];
  const score = skill && (c.fighter.scores?.[skill.score] ?? c.sheet?.scores?.[skill.score]);
  if (!skill || score === undefined) return { error: `skill: ${t.skill} is not one of ${c?.name ?? t.who}'s skills` };
  return { ...plain, score: skill.score, target: score + TRAINING_BONUS[skill.training], label: skill.focus ? `${skill.name} (${skill.focus})` : skill.name };
}

/**
 * The exact odds of a declared test from what this viewer is shown (`declaredTestOdds`, the modifiers
 * the table applies: Fate Point Advantages, Fatigue, ailments, Injuries, terrain); null when the
 * character's numbers are not shown. With `fateReroll` a failure is rolled again ("Fate Points").
 */
export function testOddsFor(view: D100View, t: TestDeclaration, fateReroll = false): (TestOdds & { target: number }) | { error: string } | null {
  const c = view.characters.find((x) => x.id === t.who);
  const known = c && knownInFull(c.sheet, c.fighter);
  if (!c || !known) return null;
  const command = testCommand(view, t);
  if ('error' in command) return { error: String(command.error) };
  const parsed = commandSchema.safeParse(command);
  if (!parsed.success || parsed.data.type !== 'test') return { error: parsed.success ? 'not a test' : (parsed.error.issues[0]?.message ?? 'not a test') };
  try {
    return declaredTestOdds({ options: view.options, fighters: { [c.id]: known.fighter } }, parsed.data, fateReroll);
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** One Fate Point spend offered now: the command it sends, and the choice it needs (an ailment, a location, a pool, the test rolled again). */
export interface FateOffer {
  readonly spend: FateSpend;
  readonly label: string;
  readonly field?: 'ailment' | 'location' | 'resource' | 'test';
  readonly choices?: readonly { readonly value: string; readonly label: string }[];
}

/** The events of the last command in this viewer's log (a Reroll takes back a test of that command only). */
function lastCommand(view: D100View): readonly ShownEncounterEvent[] {
  const last = view.log[view.log.length - 1];
  if (!last || !('group' in last.data)) return [];
  const group = last.data.group;
  return view.log.filter((e) => 'group' in e.data && e.data.group === group);
}

/**
 * The Fate Point spends the rules allow `c` now (d100-combat-rules.txt, "Fate Points"): Advantages on
 * the next test; a Reroll of its own test, attack or evasion in the command just made; Restore Light
 * Wounds when one is lost; Remove Ailment, Ignore Injury and Revive Broken Persona when there is one;
 * Restore Spirit or Exertion below its maximum. None without a point left. Block Heavy Wound is declared
 * ahead (fateBlockField), never spent alone. The server decides again.
 */
export function fateOffers(view: D100View, c: CharacterView): FateOffer[] {
  if (c.fatePoints < 1 || c.dead) return [];
  const n = fateAdvantages(view.options);
  const out: FateOffer[] = [{ spend: 'advantage', label: `${n} Advantage${n === 1 ? '' : 's'} on ${c.name}'s next test` }];
  const first = lastCommand(view)[0];
  const rerolls: string[] = [];
  if (first?.type === 'test-rolled' && first.data.who === c.id) rerolls.push('test');
  if (first?.type === 'attack-resolved' && !first.data.summary.burst) {
    if (first.data.attacker === c.id) rerolls.push('attack');
    if (first.data.defender === c.id && first.data.summary.evasionRoll !== null) rerolls.push('evasion');
  }
  if (rerolls.length) out.push({ spend: 'reroll', label: 'Reroll', field: 'test', choices: rerolls.map((r) => ({ value: r, label: `the ${r === 'test' ? `test (${first?.type === 'test-rolled' ? first.data.label || first.data.score : ''})` : `${r} roll`} just made` })) });
  if (c.wounds && c.woundMax && c.wounds.light < c.woundMax.light) out.push({ spend: 'restore-light', label: 'Restore Light Wounds' });
  if (c.ailments.length) out.push({ spend: 'remove-ailment', label: 'Remove Ailment', field: 'ailment', choices: c.ailments.map((a) => ({ value: a.name, label: ailmentTitle(a.name) })) });
  const ignored = c.fighter.injuriesIgnored ?? [];
  const injured = [...new Set(c.injuries.map((i) => i.location))].filter((l) => !ignored.includes(l));
  if (injured.length) out.push({ spend: 'ignore-injury', label: 'Ignore Injury for the Round', field: 'location', choices: injured.map((l) => ({ value: l, label: l })) });
  if (c.persona && c.persona.wounds === 0) out.push({ spend: 'revive-persona', label: `Revive ${c.persona.name}` });
  const low = (['spirit', 'exertion'] as const).filter((r) => c[r].current < c[r].max);
  if (low.length) out.push({ spend: 'restore-resource', label: 'Restore', field: 'resource', choices: low.map((r) => ({ value: r, label: r === 'spirit' ? 'Spirit' : 'Exertion' })) });
  return out;
}

/** Whether a weapon of this class is Ballistic, so its ammunition may be counted (docs/d100/sheet.md, clip). */
export const isBallistic = (weaponClass: string): boolean => BALLISTIC_CLASSES.includes(weaponClass);

/**
 * The chosen weapon's range and, with both characters on the map, the metres between them as the table
 * measures them ("How Attacks Work", Step One; U24): a Ballistic attack beyond the range is refused, so
 * `beyond` warns before sending. Null for a weapon without a range. The server decides again.
 */
export function attackRange(
  attacker: Pick<CharacterView, 'id' | 'conditions'>,
  defender: Pick<CharacterView, 'id' | 'conditions' | 'name'>,
  weapon: { readonly class: string; readonly range?: number | undefined } | undefined,
): { range: number; metres: number | null; beyond: boolean; text: string } | null {
  if (weapon?.range === undefined) return null;
  const metres = attacker.id === defender.id ? null : separation(attacker, defender);
  const beyond = metres !== null && metres > weapon.range && isBallistic(weapon.class);
  const where = metres === null ? ' (not measured: both must be on the map)' : `; ${defender.name} is ${metres} m away`;
  const note = beyond ? ': beyond it, the table refuses a Ballistic attack' : metres !== null && metres > weapon.range ? ' (the table measures the range of Ballistic attacks only)' : '';
  return { range: weapon.range, metres, beyond, text: `Range ${weapon.range} m${where}${note}` };
}

/**
 * The ammunition of each weapon whose sheet gives a clip, in words ("Equipment Actions (Consumables,
 * Reloading)", Reload; "Fumble"): the shots loaded of the clip, the spare loads when counted, and a
 * Reload under way with the Actions it still takes.
 */
export function ammunitionNotes(c: Pick<CharacterView, 'sheet' | 'fighter'>): string[] {
  return (c.sheet?.weapons ?? []).flatMap((w) => {
    if (w.clip === undefined) return [];
    const spare = spareLoadsOf(c.fighter, w);
    const under = c.fighter.reloading?.weapon === w.name ? `, reloading (${c.fighter.reloading.left} Action${c.fighter.reloading.left === 1 ? '' : 's'} left)` : '';
    return [`${w.name} ${shotsIn(c.fighter, w)}/${w.clip} shots${spare !== null ? `, ${spare} spare load${spare === 1 ? '' : 's'}` : ''}${under}`];
  });
}

/**
 * The weapons the character may Reload now: each in hand whose ammunition is counted and not full, the
 * one under way first. The server refuses an empty stock or a weapon put away again.
 */
export function reloadChoices(c: Pick<CharacterView, 'sheet' | 'fighter'>): { value: string; label: string }[] {
  const stowed = c.fighter.stowed ?? c.sheet?.stowed ?? [];
  const under = c.fighter.reloading?.weapon;
  return (c.sheet?.weapons ?? [])
    .filter((w) => w.clip !== undefined && !stowed.includes(w.name) && (w.name === under || shotsIn(c.fighter, w) < w.clip))
    .sort((a, b) => Number(b.name === under) - Number(a.name === under))
    .map((w) => ({ value: w.name, label: w.name === under ? `${w.name} (Reload under way, ${c.fighter.reloading!.left} Action${c.fighter.reloading!.left === 1 ? '' : 's'} left)` : `${w.name} (${shotsIn(c.fighter, w)}/${w.clip} shots)` }));
}

/**
 * The reload command: one Action on the weapon; a hurry test (Ballistics or Survival) only as a Reload
 * begins, its `target` given in place of the sheet's only with it (docs/d100/scenario-format.md, reload).
 */
export function reloadCommand(who: string, weapon: string, hurry?: HurrySkill | '', target?: number): Record<string, unknown> {
  return { type: 'reload', who, weapon, ...(hurry ? { hurry, ...(target !== undefined ? { target } : {}) } : {}) };
}

/**
 * What the GM may give a resistance test in place of the table's: the element of the ailment's source
 * (-20 when the target is Weak to it, +20 when it Resists it), the Score tested instead of option
 * ailmentResistScore's, or the target number itself.
 */
export interface ResistOverrides {
  readonly element?: string | undefined;
  readonly score?: Score | undefined;
  readonly resistTarget?: number | undefined;
}

/**
 * The GM's inflict-ailment command; with `resist` the target first tests to resist it (option
 * ailmentResistScore). The overrides go only with `resist`: the table refuses them without it.
 */
export function inflictCommand(target: string, ailment: string, resist: boolean, overrides: ResistOverrides = {}): Record<string, unknown> {
  const given = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined && v !== ''));
  return { type: 'inflict-ailment', target, ailment, ...(resist ? { resist: true, ...given } : {}) };
}

/**
 * Whether the command just made in this view made an attack the GM may rule scatters (the passage
 * after "Chance Attacks": "take the test that you used for the attack"). The server decides again.
 */
export function mayScatter(view: D100View): boolean {
  const events = lastCommand(view);
  return events.some((e) => e.type === 'attack-resolved') && !events.some((e) => e.type === 'scattered');
}

/** The spend-fate command of an offer, with its choice (the first when none is made). */
export function fateCommand(who: string, offer: FateOffer, choice?: string): Record<string, unknown> {
  const value = choice && offer.choices?.some((x) => x.value === choice) ? choice : offer.choices?.[0]?.value;
  return { type: 'spend-fate', who, spend: offer.spend, ...(offer.field && value ? { [offer.field]: value } : {}) };
}

/**
 * Block Heavy Wound ("Fate Points"), as whoever plays `c` declares it ahead: how many Heavy wounds from
 * the hits it takes it blocks, one Fate Point each (the count standing now), up to its Fate Points.
 */
export function fateBlockField(c: Pick<CharacterView, 'conditions' | 'fatePoints'>): { label: string; value: number; max: number } {
  return { label: 'Block Heavy wounds it incurs', value: c.conditions.blockHeavy ?? 0, max: Math.min(FATE_BLOCK_MAX, c.fatePoints) };
}
/** The most a fate-block command declares (its schema's bound). */
const FATE_BLOCK_MAX = 10;

/** The fate-block command declaring `heavy` blocks for `who`. */
export function fateBlockCommand(who: string, heavy: number): Record<string, unknown> {
  return { type: 'fate-block', who, heavy };
}

/** The views of the rule-set comparison: each outcome, or the chance of at least / at most k wounds. */
export const D100_CHART_VIEWS = countChartViews('wounds', 'Chance of each outcome', (bound) => `Chance the target loses ${bound} this many wounds`);
export type D100ChartView = CountChartView<'wounds'>;

/**
 * The declared attack under the table's own rules and under each d100 preset (docs/d100/options.md),
 * each worked out by the same exact odds from this viewer's view; null when the table's own odds are not
 * known to this viewer.
 */
export function presetOddsFor(view: D100View, a: AttackDeclaration): { label: string; odds: AttackOdds }[] | null {
  return underEachPreset(view.preset, PRESET_NAMES, (preset) => oddsFor(preset === null ? view : { ...view, options: resolveOptions(preset) }, a));
}

const OUTCOME_FIELDS = [['hit', 'Hit'], ['critical', 'Critical'], ['fumble', 'Fumble'], ['stagger', 'Stagger'], ['out', 'Out']] as const;

/** One group of bars per figure of the view, one bar per rule set. */
export const d100ChartGroups = countChartGroups(
  'wounds',
  (entries: readonly { odds: AttackOdds }[]) => OUTCOME_FIELDS.map(([f, label]) => ({ label, values: entries.map((e) => e.odds[f]) })),
  (e) => e.odds.wounds,
);

/**
 * Physical d100 results as typed ("23 70 00", commas allowed; "00" is 100), in the order the table
 * draws them; blank means the table rolls. A word that is not a d100 result is named.
 */
export function parseDice(text: string): { dice: number[] } | { error: string } {
  const words = text.split(/[\s,]+/).filter(Boolean);
  const dice: number[] = [];
  for (const w of words) {
    const n = /^\d{1,3}$/.test(w) ? (w === '00' ? 100 : Number(w)) : NaN;
    if (!Number.isInteger(n) || n < 1 || n > 100) return { error: `dice: "${w}" is not a d100 result (1 to 100; "00" is 100)` };
    dice.push(n);
  }
  return { dice };
}

/**
 * What a Confused character's owed attack is on, in words (the Confused row of the ailments passage:
 * 4+ DoF the nearest character, 5+ itself; under confusedBands=both the one, then the other).
 */
export function confusedAttackText(owed: Pick<ConfusedAttack, 'who' | 'candidates' | 'thenItself'>, name: (id: string) => string): string {
  if (owedOnItself(owed)) return 'itself';
  const list = owed.candidates.length ? owed.candidates.map(name).join(', ') : 'a character the GM names';
  const whom = owed.candidates.length > 1 ? `one of ${list}, which the GM names` : list;
  return `the nearest character: ${whom}${owed.thenItself ? ', then on itself' : ''}`;
}

const BANDS: Readonly<Record<string, string>> = { low: 'flying Low', high: 'flying High' };

/**
 * What a character card says of the conditions the seed names outside the ailment table: the
 * altitude band and a fall, Difficult Terrain with its kind, number and damage, unconsciousness,
 * bleeding, and the rest of the turn's states (Protect, Run, Distract, Scary Face).
 */
export function conditionNotes(c: Pick<CharacterView, 'conditions'>, name: (id: string) => string): string[] {
  const k = c.conditions;
  const kind = k.terrain ?? (k.difficultTerrain ? 'uneven' : null);
  return [
    ...(k.altitude && BANDS[k.altitude] ? [BANDS[k.altitude]!] : []),
    ...(k.falling ? [`falling (from ${k.falling === 'high' ? 'High' : 'Low'})`] : []),
    ...(kind === 'damaging' ? [`Damaging terrain ${k.difficultTerrain} (damage ${k.terrainDamage ?? 0})`] : kind === 'uneven' ? [`Uneven/Slippery terrain ${k.difficultTerrain}`] : []),
    ...(k.unconscious ? ['unconscious'] : k.helpless ? ['helpless'] : []),
    ...(k.bloodLoss ? ['bleeding'] : []),
    ...(k.protecting ? [`protects ${name(k.protecting)}`] : []),
    ...(k.running ? ['running'] : []),
    ...(k.mustFlee ? ['must flee (Panicked)'] : []),
    ...(k.prone ? ['prone'] : []),
    ...(k.defending ? ['defending'] : []),
    ...(k.stealthy ? ['in stealth'] : []),
    ...(k.distracting ? [`distracting ${name(k.distracting)}`] : []),
    ...(k.scaredBy?.length ? [`Scary Face of ${k.scaredBy.map(name).join(', ')}`] : []),
    ...(k.blockHeavy ? [`blocks up to ${k.blockHeavy} Heavy wound(s) with Fate Points`] : []),
  ];
}

/** The log in words and ailment titles come from the ruleset, as the CLI's replay prints them. */
export { ailmentTitle, describeD100Event } from '@personae/d100';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** What an attack came to, in words: the hit, its location, Critical, the wounds dealt. */
function verdictText(v: D100AttackVerdict): string {
  if (!v.hit) return v.fumble ? 'Fumble (miss)' : 'miss';
  const parts = [`hit (${v.location ?? 'no location'})`, ...(v.critical ? ['Critical'] : []), ...(v.repelled ? ['repelled'] : []), ...v.wounds, ...(v.oneMore ? ['One More'] : [])];
  return parts.join(', ');
}

const oddsText = (v: D100AttackVerdict | null): string => (v?.odds ? `hit ${pct(v.odds.hit)}, Critical ${pct(v.odds.critical)}, out ${pct(v.odds.out)}` : '—');

/**
 * The GM's re-judge of the table's log (docs/lab.md, "The same dice, other rules"): every attack of the
 * recorded decisions resolved again with its own dice under `now` (`rejudgeD100Log`), in words.
 */
export function judgeD100Log(decisions: Decisions, now: { preset: string; overrides: Record<string, unknown> }): JudgedRow[] {
  return judgedRows(rejudgeD100Log(decisions.events, decisions.setup, now), { what: (r) => `${r.attacker} attacks ${r.defender}`, dice: (r) => r.dice, verdict: verdictText, odds: oddsText });
}
