import {
  ATTRIBUTES,
  checkSheet,
  declaredAttackOdds,
  declaredRollOdds,
  lucidityChance,
  PRESETS,
  rejudgeLucidityLog,
  resolveOptions,
  type LucidityAttackVerdict,
  rollScores,
  scoreModifier,
  STANDARD_ARRAY,
  type Attribute,
  type Combatant,
  type DeclaredAttackOdds,
  type LucidityOptions,
  type RollPurpose,
  type SheetDerived,
} from '@personae/lucidity';
import type { Problem } from '@personae/core';
import type { Decisions } from '../../lib/api';
import { judgedRows, type JudgedRow } from '../replay';
import { countChartGroups, countChartViews, underEachPreset, type CountChartView } from '../compare';
import type { DiceSource } from '@personae/dice';

/**
 * The Lucidity pages' model, apart from the screen: the sheet a builder edits (rolled or standard array,
 * lucidity-primary-character.txt "Generating Attributes"), its live check by the ruleset's own
 * `checkSheet`, and exact odds from the viewer's own view.
 */

export interface LucidityDraft {
  name: string;
  method: 'standard-array' | 'rolled';
  /** Standard array: the modifier each attribute takes. */
  arrayPick: Record<Attribute, number>;
  /** Rolled: the 4d6-drop-lowest score of each attribute. */
  scores: Record<Attribute, number>;
  traits: string[];
  skills: { name: string; rank: number }[];
  weapon: { name: string; damage: string; attribute: 'STR' | 'DEX'; skill: string };
  armor: number;
}

export function newLucidityDraft(): LucidityDraft {
  const pick = Object.fromEntries(ATTRIBUTES.map((a, i) => [a, STANDARD_ARRAY[i]!])) as Record<Attribute, number>;
  return {
    name: '',
    method: 'standard-array',
    arrayPick: pick,
    scores: Object.fromEntries(ATTRIBUTES.map((a) => [a, 10])) as Record<Attribute, number>,
    traits: [],
    skills: [],
    weapon: { name: 'Shortsword', damage: '1d6', attribute: 'STR', skill: '' },
    armor: 0,
  };
}

/** The attribute modifiers a draft gives (a score out of 3..18 gives no modifier: the check names it). */
export function draftAttributes(d: LucidityDraft): Record<Attribute, number> {
  if (d.method === 'standard-array') return { ...d.arrayPick };
  return Object.fromEntries(
    ATTRIBUTES.map((a) => {
      try {
        return [a, scoreModifier(d.scores[a])];
      } catch {
        return [a, 0];
      }
    }),
  ) as Record<Attribute, number>;
}

/** The sheet the draft stands for, as the server receives it. */
export function draftSheet(d: LucidityDraft): Record<string, unknown> {
  const items: Record<string, unknown>[] = [];
  if (d.weapon.name) items.push({ name: d.weapon.name, designated: true, weapon: { damage: d.weapon.damage, attribute: d.weapon.attribute, ...(d.weapon.skill ? { skill: d.weapon.skill } : {}) } });
  if (d.armor > 0) items.push({ name: 'Armor', armor: { protection: d.armor } });
  return {
    ruleset: 'lucidity',
    name: d.name,
    level: 1,
    attributes: draftAttributes(d),
    creation: d.method === 'standard-array' ? { method: 'standard-array' } : { method: 'rolled', scores: d.scores },
    traits: d.traits,
    skills: Object.fromEntries(d.skills.filter((s) => s.name).map((s) => [s.name, s.rank])),
    items,
  };
}

export interface DraftCheck {
  readonly ok: boolean;
  readonly problems: readonly Problem[];
  readonly warnings: readonly Problem[];
  readonly derived: SheetDerived | null;
}

export function checkDraft(d: LucidityDraft, opts: LucidityOptions): DraftCheck {
  const problems: Problem[] = [];
  if (d.method === 'rolled') {
    for (const a of ATTRIBUTES) {
      const s = d.scores[a];
      if (!Number.isInteger(s) || s < 3 || s > 18) problems.push({ field: `creation.scores.${a}`, value: s, message: `${a}: a rolled score is 3 to 18 (4d6, lowest dropped), not ${s}` });
    }
  }
  const r = checkSheet(draftSheet(d), opts);
  if (!r.ok) return { ok: false, problems: [...problems, ...r.problems], warnings: [], derived: null };
  return { ok: problems.length === 0, problems, warnings: r.warnings, derived: r.derived };
}

/** The options in force at a table, from the view's preset and overrides. */
export function viewOptions(view: { preset: string; options: Readonly<Record<string, unknown>> }): LucidityOptions {
  return resolveOptions(view.preset, view.options);
}

/** A combatant as the view shows it: the full record only for those this viewer may see whole. */
export interface ShownCombatant {
  id: string;
  name: string;
  side: 'party' | 'foe';
  condition: string;
  initiative: number | null;
  hidden?: boolean;
  controller?: string | null;
  health?: number;
  maxHealth?: number;
  lucidity?: number;
  maxLucidity?: number;
  energy?: number;
  maxEnergy?: number;
  defense?: number;
  actions?: number;
  moveAction?: boolean;
  buffsOffered?: number;
  breaksOffered?: number;
  weapons?: string[];
  injuries?: string[];
  combatant?: Combatant;
}

export interface LucidityView {
  preset: string;
  options: Record<string, unknown>;
  started: boolean;
  round: number;
  current: string | null;
  order: string[];
  combatants: ShownCombatant[];
  canUndo: boolean;
  canRedo: boolean;
  log: { seq: number; type: string; text: string }[];
  logOmitted: number;
}

/** Exact odds of an attack from this viewer's own view; null when it does not show the target whole. */
export type AttackQuery = { actor: string; target: string; weapon?: string; buffs: number; breaks: number; inspire?: boolean; useLucidity?: boolean };

export function attackOddsFor(view: LucidityView, cmd: AttackQuery): DeclaredAttackOdds | { error: string } | null {
  const whole = Object.fromEntries(view.combatants.flatMap((c) => (c.combatant ? [[c.id, c.combatant]] : [])));
  if (!whole[cmd.actor] || !whole[cmd.target]) return null;
  try {
    return declaredAttackOdds({ combatants: whole, round: view.round }, { actor: cmd.actor, target: cmd.target, ...(cmd.weapon ? { weapon: cmd.weapon } : {}), buffs: cmd.buffs, breaks: cmd.breaks, ...(cmd.inspire ? { inspire: true } : {}), ...(cmd.useLucidity ? { useLucidity: true } : {}) }, viewOptions(view));
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

export interface AttackChoice {
  /** The choice, in words ("without the 2 buffs", "with Inspirator"). */
  readonly label: string;
  readonly odds: DeclaredAttackOdds | { error: string } | null;
}

/**
 * The attack's odds without each choice in it and with each one still open ("Buffs and Breaks": each buff
 * d6 adds to the d20, each break takes away; Inspirator adds CHA once per rest, lucidity-primary-character.txt
 * "Creating Traits"), and with or without a Lucidity roll in place of the attack roll ("Lucidity", where the
 * table allows it), each worked out exactly as the attack itself is.
 */
export function attackChoiceOddsFor(view: LucidityView, cmd: AttackQuery): AttackChoice[] {
  const out: AttackChoice[] = [];
  const count = (n: number, what: string) => (n === 1 ? `the ${what}` : `the ${n} ${what}s`);
  if (cmd.buffs) out.push({ label: `without ${count(cmd.buffs, 'buff')}`, odds: attackOddsFor(view, { ...cmd, buffs: 0 }) });
  out.push({ label: 'with one more buff', odds: attackOddsFor(view, { ...cmd, buffs: cmd.buffs + 1 }) });
  if (cmd.breaks) out.push({ label: `without ${count(cmd.breaks, 'break')}`, odds: attackOddsFor(view, { ...cmd, breaks: 0 }) });
  const actor = view.combatants.find((c) => c.id === cmd.actor);
  if (cmd.inspire) out.push({ label: 'without Inspirator', odds: attackOddsFor(view, { ...cmd, inspire: false }) });
  else if (canInspire(actor?.combatant)) out.push({ label: 'with Inspirator', odds: attackOddsFor(view, { ...cmd, inspire: true }) });
  if (cmd.useLucidity) out.push({ label: 'without the Lucidity roll (the d20 attack)', odds: attackOddsFor(view, { ...cmd, useLucidity: false }) });
  else if (mayAttackWithLucidity(view, actor?.combatant)) out.push({ label: 'with a Lucidity roll in place of the d20', odds: attackOddsFor(view, { ...cmd, useLucidity: true }) });
  const weapons = actor?.weapons ?? [];
  const chosen = cmd.weapon ?? weapons[0];
  for (const w of weapons) if (w !== chosen) out.push({ label: `with ${w} instead`, odds: attackOddsFor(view, { ...cmd, weapon: w }) });
  return out;
}

/** The views of the rule-set comparison: hit and any damage, or the chance of at least / at most k damage taken. */
export const LUCIDITY_CHART_VIEWS = countChartViews('damage', 'Chance to hit, and to do any damage', (bound) => `Chance the target takes ${bound} this much damage`);
export type LucidityChartView = CountChartView<'damage'>;

/** The attack under the table's own rules and under each Lucidity preset (docs/lucidity/options.md); null when this viewer has no odds. */
export function presetAttackOddsFor(view: LucidityView, cmd: AttackQuery): { label: string; odds: DeclaredAttackOdds }[] | null {
  return underEachPreset(view.preset, PRESETS, (preset) => attackOddsFor(preset === null ? view : { ...view, preset, options: {} }, cmd));
}

type ChartOdds = Pick<DeclaredAttackOdds, 'hit' | 'damageTaken'>;
const damageTaken = (e: { odds: ChartOdds }): Record<number, number> => Object.fromEntries(e.odds.damageTaken.map((r) => [r.damage, r.chance]));

/** One group of bars per figure of the view, one bar per rule set. */
export const lucidityChartGroups = countChartGroups(
  'damage',
  (entries: readonly { odds: ChartOdds }[]) => [
    { label: 'Hit', values: entries.map((e) => e.odds.hit) },
    { label: 'Any damage', values: entries.map((e) => 1 - (damageTaken(e)[0] ?? 0)) },
  ],
  damageTaken,
);

/**
 * The chance of an ordinary roll as the table decides it: attribute, skill rank, the traits that change a
 * roll (Educated, Mental Clarity, Fellowship, ...) and the buffs and breaks, from this viewer's view.
 */
export function rollOddsFor(view: LucidityView, cmd: { actor: string; attribute: Attribute; skill: string; target: number; buffs: number; breaks: number; purpose?: RollPurpose; inspire?: boolean }): number | null {
  const whole = Object.fromEntries(view.combatants.flatMap((c) => (c.combatant ? [[c.id, c.combatant]] : [])));
  if (!whole[cmd.actor]) return null;
  try {
    const { skill, ...rest } = cmd;
    return declaredRollOdds({ combatants: whole }, { ...rest, ...(skill ? { skill } : {}) }, viewOptions(view))?.chance ?? null;
  } catch {
    return null;
  }
}

/** Whether the character has Lucidity to roll and the table lets a Lucidity roll replace an attack roll (option lucidityOnAttack). */
export function mayAttackWithLucidity(view: LucidityView, c: Combatant | undefined): boolean {
  return c !== undefined && c.maxLucidity > 0 && viewOptions(view).lucidityOnAttack !== 'not-allowed';
}

/** Whether the character may use Inspirator now (it has the trait and has not used it since its last rest). */
export function canInspire(c: Combatant | undefined): boolean {
  return c !== undefined && c.traits.includes('Inspirator') && !c.inspiratorUsed;
}

export function lucidityOddsFor(c: Combatant, attribute: Attribute | '', opts: LucidityOptions): number {
  return lucidityChance({ current: c.lucidity, ...(attribute ? { attribute: c.attributes[attribute] } : {}) }, opts);
}

/** What a player typed from physical dice for one roll; an empty box leaves that die to the server. */
export interface TypedDice {
  d20: string;
  /** The buff or break d6s, those of the side left after cancelling. */
  d6: string;
  damage: string;
}

function diceList(text: string, field: string, sides: number): number[] | string {
  const words = text.split(/[\s,]+/).filter((w) => w !== '');
  const bad = words.find((w) => !/^\d+$/.test(w) || Number(w) < 1 || Number(w) > sides);
  if (bad !== undefined) return `${field}: "${bad}" is not a d${sides} result (1 to ${sides})`;
  return words.map(Number);
}

/**
 * The named pools of dice typed in from physical dice, sent beside the command ("Buffs and Breaks":
 * the d6s belong to whichever side is left after cancelling, `net` buffs less breaks: pool `buffs` or
 * `breaks`), or the first problem, naming the box. The server checks again whose dice they are and
 * whether the table takes physical dice.
 */
export function typedDicePools(typed: TypedDice, net: number, withDamage: boolean): { pools: Record<string, number[]> } | { error: string } {
  const pools: Record<string, number[]> = {};
  if (typed.d20.trim() !== '') {
    const d20 = diceList(typed.d20, 'd20', 20);
    if (typeof d20 === 'string') return { error: d20 };
    if (d20.length !== 1) return { error: `d20: one d20 result, not ${d20.length}` };
    pools.d20 = d20;
  }
  if (typed.d6.trim() !== '') {
    const d6 = diceList(typed.d6, net < 0 ? 'break d6s' : 'buff d6s', 6);
    if (typeof d6 === 'string') return { error: d6 };
    if (net === 0) return { error: 'buff d6s: the buffs and breaks cancel out, so no d6 is rolled' };
    pools[net > 0 ? 'buffs' : 'breaks'] = d6;
  }
  if (withDamage && typed.damage.trim() !== '') {
    const dmg = diceList(typed.damage, 'damage dice', 100);
    if (typeof dmg === 'string') return { error: dmg };
    pools.damage = dmg;
  }
  return { pools };
}

/**
 * Seven scores rolled as "Generating Attributes" says (4d6, the lowest dropped), put on the attributes in
 * the seed's order; the player may then move them about (the seed lets the player assign them).
 */
export function rollDraftScores(dice: DiceSource): { scores: Record<Attribute, number>; shown: string } {
  const rolled = rollScores(dice);
  const scores = Object.fromEntries(ATTRIBUTES.map((a, i) => [a, rolled[i]!.score])) as Record<Attribute, number>;
  const shown = ATTRIBUTES.map((a, i) => `${a} ${rolled[i]!.dice.join('+')} - ${rolled[i]!.dropped} = ${rolled[i]!.score}`).join('; ');
  return { scores, shown };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

const verdictText = (v: LucidityAttackVerdict): string => (v.hit ? `hit (total ${v.total}), ${v.damageTaken} damage taken${v.dies ? ', dies' : ''}` : `miss (total ${v.total})`);
const oddsText = (v: LucidityAttackVerdict | null): string => (v?.odds ? `hit ${pct(v.odds.hit)}, expected damage ${v.odds.expectedDamage.toFixed(2)}` : '—');

/**
 * The GM's re-judge of the table's log (docs/lab.md, "The same dice, other rules"): every attack of the
 * recorded decisions decided again with its own dice under `now` (`rejudgeLucidityLog`), in words. An
 * attack that the log cannot rebuild as it was made (flanking, one on one, a defender's help, dual
 * wielding are not recorded) says so.
 */
export function judgeLucidityLog(decisions: Decisions, now: { preset: string; overrides: Record<string, unknown> }): JudgedRow[] {
  return judgedRows(rejudgeLucidityLog(decisions.events, decisions.setup, now), {
    what: (r) => `${r.attacker} attacks ${r.target}`,
    dice: (r) => r.drawn,
    verdict: verdictText,
    odds: oddsText,
    note: (r) => (r.reproduced ? undefined : "not as recorded under the table's own rules: the log does not keep flanking, one on one, a defender's help or dual wielding"),
  });
}
