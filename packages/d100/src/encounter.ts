import { requireSheetSize, RuleError, type Actor, type DecideContext, type Decider, type ParseResult } from '@personae/core';
import type { DiceSource } from '@personae/dice';
import { z } from 'zod';
import { AILMENT_NAMES, AILMENTS, ailmentsAtTurnEnd, ailmentsAtTurnStart, inflictAilment, type AilmentName } from './ailments';
import { allEnemiesStaggered, resolveAllOutAttack } from './allOutAttack';
import { controllerOf, controls, requireAuthority } from './authority';
import { resolveAttack, type AttackResult, type AttackSpec } from './attack';
import { batonAdvantages, checkBatonPass } from './batonPass';
import { bloodLossTest } from './conditions';
import { ELEMENTS, isImmune } from './elements';
import { spendPoint, spendRemoveAilment, spendRestoreLight, spendRevivePersona, FATE_SPENDS } from './fate';
import { bonus, canOppose, livingPersona, type Fighter } from './fighter';
import { initiativeOrder, type InitiativeEntry } from './initiative';
import { LOCATIONS } from './location';
import { attackOdds, type AttackOdds } from './odds';
import { resolveOptions, type D100Options } from './options';
import { ruleCitation } from './rules';
import { checkSheet, fighterFromSheet, type D100Sheet } from './sheet';
import { resolveTest } from './test';
import { applyWounds, isOut } from './wounds';

/**
 * A d100 encounter as events (d100-combat-rules.txt, "Structured Time", "Combat Structure"): the GM
 * adds characters, initiative orders them, each takes a turn; One More, Baton Pass and the All Out
 * Attack let characters act out of order; ailments expire on the sufferer's turns. Every event
 * carries the dice it used, so folding the events again never rolls; undo takes back the last
 * command's events.
 */
const id = z.string().min(1).max(60);
const counted = z.array(z.strictObject({ label: z.string().min(1).max(60), count: z.number().int().min(0).max(20) })).max(20);

export const commandSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('set-options'), preset: z.string().default('seed'), options: z.record(z.string(), z.unknown()).default({}) }),
  z.strictObject({ type: z.literal('add-character'), id, sheet: z.unknown(), controller: z.string().min(1).max(64).nullable().optional() }),
  z.strictObject({ type: z.literal('set-controller'), id, controller: z.string().min(1).max(64).nullable() }),
  z.strictObject({ type: z.literal('start'), startingAdvantages: z.record(z.string(), z.number().int().min(0).max(10)).default({}) }),
  z.strictObject({
    type: z.literal('attack'),
    attacker: id,
    defender: id,
    weapon: z.string().min(1).optional(),
    kind: z.enum(['melee', 'ballistic', 'magic']).optional(),
    element: z.enum(ELEMENTS).optional(),
    damage: z.number().int().min(0).max(100).optional(),
    tier: z.number().int().min(1).max(10).optional(),
    attackTarget: z.number().int().min(-200).max(300).optional(),
    evasionTarget: z.number().int().min(-200).max(300).nullable().optional(),
    advantages: counted.default([]),
    disadvantages: counted.default([]),
    called: z.enum(LOCATIONS).optional(),
    fateBlocks: z.number().int().min(0).max(10).default(0),
    chance: z.boolean().default(false),
  }),
  z.strictObject({ type: z.literal('baton-pass'), to: id }),
  z.strictObject({ type: z.literal('all-out-attack'), participants: z.array(z.strictObject({ id, score: z.enum(['melee', 'ballistic', 'magic']) })).min(1).max(12) }),
  z.strictObject({ type: z.literal('defend') }),
  z.strictObject({ type: z.literal('inflict-ailment'), target: id, ailment: z.enum(AILMENT_NAMES), turns: z.number().int().min(1).max(20).nullable().optional() }),
  z.strictObject({ type: z.literal('set-condition'), target: id, condition: z.enum(['helpless', 'prone', 'bloodLoss']), value: z.boolean() }),
  z.strictObject({ type: z.literal('spend-fate'), who: id, spend: z.enum(FATE_SPENDS), ailment: z.enum(AILMENT_NAMES).optional() }),
  z.strictObject({ type: z.literal('end-turn') }),
  z.strictObject({ type: z.literal('undo') }),
]);
export type EncounterCommand = z.infer<typeof commandSchema>;

export type EncounterEvent =
  | { type: 'options-set'; data: { group: number; preset: string; options: Record<string, unknown> } }
  | { type: 'character-added'; data: { group: number; id: string; sheet: D100Sheet; controller?: string | null } }
  | { type: 'controller-set'; data: { group: number; id: string; controller: string | null } }
  | { type: 'encounter-started'; data: { group: number; order: InitiativeEntry[]; dice: number[] } }
  | { type: 'turn-started'; data: { group: number; id: string; round: number; dice: number[] } }
  | { type: 'attack-resolved'; data: { group: number; attacker: string; defender: string; spec: AttackSpec; dice: number[]; summary: AttackSummary } }
  | { type: 'baton-passed'; data: { group: number; from: string; to: string; advantages: number } }
  | { type: 'all-out-attack'; data: { group: number; participants: { id: string; target: number; roll: number }[]; woundsEach: number; killed: string[] } }
  | { type: 'defending'; data: { group: number; id: string } }
  | { type: 'ailment-inflicted'; data: { group: number; target: string; ailment: AilmentName; turns: number | null | undefined } }
  | { type: 'condition-set'; data: { group: number; target: string; condition: 'helpless' | 'prone' | 'bloodLoss'; value: boolean } }
  | { type: 'fate-spent'; data: { group: number; who: string; spend: (typeof FATE_SPENDS)[number]; ailment?: AilmentName } }
  | { type: 'turn-ended'; data: { group: number; id: string; expired: AilmentName[]; forfeited: boolean } }
  | { type: 'round-ended'; data: { group: number; round: number } }
  | { type: 'undone'; data: { group: number } };

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
  /** Events of the commands in effect, by command. */
  readonly groups: readonly (readonly EncounterEvent[])[];
  /** The participant controlling each character (absent or null: the GM). */
  readonly controllers?: Readonly<Record<string, string | null>>;
  /** The preset and options the table was set up with, when not the seed's; undo folds again from them. */
  readonly setup?: { readonly preset: string; readonly options: Readonly<Record<string, unknown>> };
}

/** The empty encounter of a table set up with `preset` and `overrides` (checked: a bad option throws). */
export function initialEncounter(preset = 'seed', overrides: Readonly<Record<string, unknown>> = {}): EncounterState {
  const setup = preset === 'seed' && Object.keys(overrides).length === 0 ? {} : { setup: { preset, options: { ...overrides } } };
  return { options: resolveOptions(preset, overrides), preset, fighters: {}, sheets: {}, order: [], initiative: [], round: 0, current: null, oneMore: null, groups: [], ...setup };
}

/** Dice handed on from the host, with every value drawn written down for the event. */
function recording(dice: DiceSource): { dice: DiceSource; drawn: number[] } {
  const drawn: number[] = [];
  return { dice: { kind: dice.kind, die: (sides) => { const v = dice.die(sides); drawn.push(v); return v; } }, drawn };
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

export type AttackCommand = Extract<EncounterCommand, { type: 'attack' }>;

/** The attack a command declares, filled from the attacker's weapon and sheet. */
export function attackSpec(state: Pick<EncounterState, 'sheets' | 'oneMore'>, c: AttackCommand): AttackSpec {
  const sheet = state.sheets[c.attacker]!;
  const defSheet = state.sheets[c.defender]!;
  const weapon = c.weapon !== undefined ? sheet.weapons.find((w) => w.name === c.weapon) : sheet.weapons[0];
  if (c.weapon !== undefined && !weapon) refuse('unknown-weapon', `weapon: ${sheet.name} has no weapon "${c.weapon}"`, 'weapon', ruleCitation('damage'));
  const kind = c.kind ?? (weapon ? (weapon.class === 'melee' || weapon.class === 'thrown' ? 'melee' : weapon.class === 'magic' ? 'magic' : 'ballistic') : 'melee');
  const element = c.element ?? weapon?.element ?? (kind === 'ballistic' ? 'missile' : 'melee');
  const damage = c.damage ?? weapon?.damage;
  if (damage === undefined) refuse('no-damage', `damage: ${sheet.name} has no weapon; give the attack's damage`, 'damage', ruleCitation('damage'));
  const score = kind === 'melee' ? 'melee' : kind === 'ballistic' ? 'ballistic' : 'magic';
  // the defender's best evasion skill, else its Agility
  const evasion = defSheet.skills.filter((s) => /acrobatics|parry|dodge|awareness|evasion/i.test(`${s.name} ${s.focus ?? ''}`)).map((s) => defSheet.scores[s.score] + ({ untrained: -20, known: 0, trained: 10, experienced: 20, master: 30 } as const)[s.training]);
  const baton = state.oneMore && state.oneMore.holder === c.attacker && state.oneMore.advantages ? [{ label: 'Baton Pass', count: state.oneMore.advantages }] : [];
  return {
    kind,
    element,
    tier: c.tier ?? weapon?.tier ?? 1,
    damage,
    attackTarget: c.attackTarget ?? sheet.scores[score],
    evasionTarget: c.evasionTarget !== undefined ? c.evasionTarget : evasion.length ? Math.max(...evasion) : defSheet.scores.agility,
    advantages: [...c.advantages, ...baton],
    disadvantages: c.disadvantages,
    ...(c.called ? { called: c.called } : {}),
    fateBlocks: c.fateBlocks,
    chanceAttack: c.chance,
  };
}

/**
 * Exact odds of a declared attack before it is rolled, from the same spec the table would resolve
 * (weapon, evasion skill, Baton Pass Advantages). It needs only what a viewer is shown of the two
 * characters, so a client computes it from its own view.
 */
export function declaredAttackOdds(state: Pick<EncounterState, 'fighters' | 'sheets' | 'oneMore' | 'options'>, c: AttackCommand): AttackOdds {
  const attacker = Object.prototype.hasOwnProperty.call(state.fighters, c.attacker) ? state.fighters[c.attacker] : undefined;
  const defender = Object.prototype.hasOwnProperty.call(state.fighters, c.defender) ? state.fighters[c.defender] : undefined;
  if (!attacker || !state.sheets[c.attacker]) refuse('unknown-character', `attacker: no character "${c.attacker}" in this encounter`, 'attacker');
  if (!defender || !state.sheets[c.defender]) refuse('unknown-character', `defender: no character "${c.defender}" in this encounter`, 'defender');
  return attackOdds(attacker, defender, attackSpec(state, c), state.options);
}

function summarize(r: AttackResult): AttackSummary {
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
  };
}

function enemiesOf(state: EncounterState, who: string): Fighter[] {
  const side = state.fighters[who]!.side;
  return Object.values(state.fighters).filter((f) => f.side !== side);
}

/** The next character in initiative order still in the fight, after `who`; null at the end of the round. */
function nextInOrder(state: EncounterState, who: string | null): string | null {
  const start = who === null ? 0 : state.order.indexOf(who) + 1;
  for (let i = start; i < state.order.length; i++) if (!state.fighters[state.order[i]!]!.out) return state.order[i]!;
  return null;
}

function turnStartEvent(state: EncounterState, who: string, round: number, dice: DiceSource, group: number): EncounterEvent {
  const rec = recording(dice);
  const f = state.fighters[who]!;
  // Blood Loss: a free Toughness test at the start of the bleeder's turn
  if (f.conditions.bloodLoss) rec.dice.die(100);
  return { type: 'turn-started', data: { group, id: who, round, dice: rec.drawn } };
}

export function decideEncounter(state: EncounterState, command: EncounterCommand, ctx: DecideContext): EncounterEvent[] {
  requireAuthority(state, command, ctx);
  const group = state.groups.length;
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
      if (Object.prototype.hasOwnProperty.call(state.fighters, command.id)) refuse('duplicate-character', `id: "${command.id}" is already in the encounter`, 'id');
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
      return [{ type: 'character-added', data: { group, id: command.id, sheet: r.sheet, ...(controller !== null ? { controller } : {}) } }];
    }
    case 'set-controller': {
      gmOnly('hand characters to players');
      fighter(state, command.id, 'id');
      if (command.controller !== null && ctx.participants && !ctx.participants.has(command.controller)) refuse('unknown-participant', `controller: there is no participant "${command.controller}" at this table`, 'controller');
      return [{ type: 'controller-set', data: { group, id: command.id, controller: command.controller } }];
    }
    case 'start': {
      gmOnly('start the encounter');
      if (state.current !== null) refuse('started', 'the encounter has already started', 'type');
      if (state.order.length === 0 && Object.keys(state.fighters).length < 2) refuse('too-few', 'an encounter needs at least two characters', 'type');
      const rec = recording(ctx.dice);
      const order = initiativeOrder(Object.values(state.fighters), rec.dice, command.startingAdvantages);
      const started: EncounterEvent = { type: 'encounter-started', data: { group, order, dice: rec.drawn } };
      const after = evolveEncounter(state, started);
      return [started, turnStartEvent(after, order[0]!.id, 1, ctx.dice, group)];
    }
    case 'attack': {
      acting(command.attacker, 'attacker');
      const attacker = fighter(state, command.attacker, 'attacker');
      const defender = fighter(state, command.defender, 'defender');
      if (attacker.side === defender.side) refuse('same-side', `defender: ${defender.name} is an ally of ${attacker.name}`, 'defender', ruleCitation('damage'));
      if (defender.out) refuse('defender-out', `defender: ${defender.name} is already out of the fight`, 'defender', ruleCitation('woundTracks'));
      if (attacker.ailments.some((a) => AILMENTS[a.name].noActions)) refuse('no-actions', `attacker: ${attacker.name} may make no actions (${attacker.ailments.map((a) => AILMENTS[a.name].title).join(', ')})`, 'attacker', ruleCitation('ailments'));
      const spec = attackSpec(state, command);
      const rec = recording(ctx.dice);
      const r = resolveAttack(attacker, defender, spec, rec.dice, state.options);
      return [{ type: 'attack-resolved', data: { group, attacker: command.attacker, defender: command.defender, spec, dice: rec.drawn, summary: summarize(r) } }];
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
      const rolled = participants.map((p) => ({ id: p.fighter.id, target: p.target, roll: ctx.dice.die(100) }));
      const r = resolveAllOutAttack(rolled.map((p, i) => ({ ...p, fighter: participants[i]!.fighter })), enemies, state.options);
      return [{ type: 'all-out-attack', data: { group, participants: rolled, woundsEach: r.woundsEach, killed: [...r.killed] } }];
    }
    case 'defend': {
      if (state.current === null) refuse('not-started', 'the encounter has not started', 'type');
      acting(state.current, 'type');
      return [{ type: 'defending', data: { group, id: state.current } }];
    }
    case 'inflict-ailment': {
      gmOnly('inflict ailments directly');
      fighter(state, command.target, 'target');
      return [{ type: 'ailment-inflicted', data: { group, target: command.target, ailment: command.ailment, turns: command.turns } }];
    }
    case 'set-condition': {
      gmOnly('set conditions');
      fighter(state, command.target, 'target');
      return [{ type: 'condition-set', data: { group, target: command.target, condition: command.condition, value: command.value } }];
    }
    case 'spend-fate': {
      const f = fighter(state, command.who, 'who');
      if (!controls(state, ctx.actor, command.who)) refuse('not-your-character', `who: you do not play ${f.name}`, 'who');
      const event: EncounterEvent = { type: 'fate-spent', data: { group, who: command.who, spend: command.spend, ...(command.ailment ? { ailment: command.ailment } : {}) } };
      evolveEncounter(state, event); // refuses a spend the rules forbid
      return [event];
    }
    case 'end-turn': {
      if (state.current === null) refuse('not-started', 'the encounter has not started', 'type');
      if (!controls(state, ctx.actor, state.current) && !(state.oneMore && controls(state, ctx.actor, state.oneMore.holder))) refuse('not-your-turn', `it is ${state.fighters[state.current]!.name}'s turn`, 'type');
      const who = state.current;
      const f = state.fighters[who]!;
      const expired = ailmentsAtTurnEnd(f.ailments, f.turnsStarted).expired;
      const events: EncounterEvent[] = [{ type: 'turn-ended', data: { group, id: who, expired, forfeited: state.oneMore !== null } }];
      let s = evolveEncounter(state, events[0]!);
      let next = nextInOrder(s, who);
      let round = s.round;
      if (next === null) {
        const ended: EncounterEvent = { type: 'round-ended', data: { group, round } };
        events.push(ended);
        s = evolveEncounter(s, ended);
        round++;
        next = nextInOrder(s, null);
      }
      if (next !== null) events.push(turnStartEvent(s, next, round, ctx.dice, group));
      return events;
    }
    case 'undo': {
      gmOnly('undo');
      if (state.groups.length === 0) refuse('nothing-to-undo', 'there is nothing to undo', 'type');
      return [{ type: 'undone', data: { group } }];
    }
  }
}

function inflict(state: EncounterState, target: string, ailment: AilmentName, turns?: number | null): EncounterState {
  const f = state.fighters[target]!;
  const r = inflictAilment(f.ailments, ailment, { turnsStarted: f.turnsStarted, ...(turns !== undefined ? { turns } : {}) }, (e) => isImmune(livingPersona(f)?.affinities ?? f.affinities, e), state.options);
  return r.ok ? put(state, { ...f, ailments: r.ailments }) : state;
}

/** Applies one event; the state it is given is never changed. */
export function evolveEncounter(state: EncounterState, event: EncounterEvent): EncounterState {
  if (event.type === 'undone') {
    const kept = state.groups.slice(0, -1);
    let s = initialEncounter(state.setup?.preset, state.setup?.options);
    for (const g of kept) for (const e of g) s = evolveEncounter(s, e);
    return s;
  }
  const s = apply(state, event);
  const groups = [...state.groups];
  const last = groups[groups.length - 1];
  if (last && last[0]!.data.group === event.data.group) groups[groups.length - 1] = [...last, event];
  else groups.push([event]);
  return { ...s, groups };
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
    case 'encounter-started':
      return { ...state, order: event.data.order.map((e) => e.id), initiative: event.data.order, round: 1 };
    case 'turn-started': {
      let f = state.fighters[event.data.id]!;
      const turn = f.turnsStarted + 1;
      const { active } = ailmentsAtTurnStart(f.ailments, turn);
      // Defend lasts until the start of the defender's next turn
      f = { ...f, turnsStarted: turn, ailments: active, conditions: { ...f.conditions, defending: false } };
      if (f.conditions.bloodLoss && event.data.dice.length) {
        const test = resolveTest(Math.max(0, f.scores.toughness - f.conditions.toughnessDecay), event.data.dice[0]!, [], state.options);
        f = bloodLossTest(f, test, state.options).fighter;
      }
      return { ...put(state, f), current: event.data.id, round: event.data.round, oneMore: null };
    }
    case 'attack-resolved': {
      const r = resolveAttack(state.fighters[event.data.attacker]!, state.fighters[event.data.defender]!, event.data.spec, given(event.data.dice), state.options);
      let s = put(put(state, r.attacker), r.defender);
      const held = state.oneMore?.holder === event.data.attacker ? state.oneMore : null;
      // "One More": staggering earns one; a One More action may earn another; otherwise it is spent
      if (r.oneMore) s = { ...s, oneMore: { holder: event.data.attacker, chain: held?.chain ?? [event.data.attacker], advantages: 0 } };
      else if (held) s = { ...s, oneMore: null };
      return s;
    }
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
    case 'ailment-inflicted':
      return inflict(state, event.data.target, event.data.ailment, event.data.turns);
    case 'condition-set': {
      const f = state.fighters[event.data.target]!;
      return put(state, { ...f, conditions: { ...f.conditions, [event.data.condition]: event.data.value } });
    }
    case 'fate-spent': {
      const f = state.fighters[event.data.who]!;
      const d = event.data;
      const g =
        d.spend === 'restore-light' ? spendRestoreLight(f)
        : d.spend === 'remove-ailment' ? (d.ailment ? spendRemoveAilment(f, d.ailment) : refuse('no-ailment', 'ailment: name the ailment to remove', 'ailment', ruleCitation('fatePoints')))
        : d.spend === 'revive-persona' ? spendRevivePersona(f)
        : spendPoint(f, d.spend);
      return put(state, g);
    }
    case 'turn-ended': {
      const f = state.fighters[event.data.id]!;
      return { ...put(state, { ...f, ailments: ailmentsAtTurnEnd(f.ailments, f.turnsStarted).active }), oneMore: null };
    }
    case 'round-ended': {
      // Burning: at the end of each round a Damage 4 attack ignoring Armour, +1 per round burning, at most 1 wound
      let s = state;
      for (const f of Object.values(state.fighters)) {
        const burning = f.ailments.find((a) => a.name === 'burning');
        if (!burning || f.out) continue;
        const damage = 4 + burning.elapsed;
        const wound = state.options.burning === 'automatic-wound' || damage > bonus(f.scores.toughness - f.conditions.toughnessDecay);
        const applied = wound ? applyWounds(f.tracks, 1, 0, state.options) : null;
        const ailments = f.ailments.map((a) => (a === burning ? { ...a, elapsed: a.elapsed + 1 } : a));
        const g = applied ? { ...f, tracks: applied.tracks, stress: f.stress + applied.stress, ailments } : { ...f, ailments };
        s = put(s, isOut(g.tracks) ? { ...g, out: true, dead: state.options.deadlyWound === 'dead' } : g);
      }
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

function mentions(event: EncounterEvent): string[] {
  const d = event.data as Record<string, unknown>;
  const out: string[] = [];
  for (const k of ['id', 'attacker', 'defender', 'target', 'who', 'from', 'to']) if (typeof d[k] === 'string') out.push(d[k] as string);
  if (event.type === 'all-out-attack') out.push(...event.data.killed);
  if (event.type === 'encounter-started') out.push(...event.data.order.map((o) => o.id));
  return out;
}

/** One character as a viewer is shown it. */
export interface CharacterView {
  readonly id: string;
  readonly name: string;
  readonly side: string;
  readonly wounds: { readonly light: number; readonly heavy: number; readonly deadly: number };
  readonly woundMax: { readonly light: number; readonly heavy: number; readonly deadly: number };
  readonly stress: number;
  readonly persona: { readonly name: string; readonly wounds: number; readonly max: number } | null;
  readonly ailments: readonly { readonly name: AilmentName; readonly turnsLeft: number | null }[];
  readonly injuries: Fighter['injuries'];
  readonly conditions: Fighter['conditions'];
  readonly fatePoints: number;
  readonly canOppose: boolean;
  readonly out: boolean;
  readonly dead: boolean;
  readonly sheet: D100Sheet | undefined;
  readonly fighter: Fighter;
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
  readonly allOutAttackReady: boolean;
  readonly characters: readonly CharacterView[];
  /** The latest events in effect that the viewer may see (at most LOG_SHOWN), oldest first. */
  readonly log: readonly EncounterEvent[];
  /** Events in effect not in `log` (older, or not shown to this viewer). */
  readonly logOmitted: number;
}

/** How many of the latest events a view carries. */
export const LOG_SHOWN = 60;

/** An event as a viewer may see it: one that mentions a hidden GM character is not shown to players. */
export function redactD100Event(event: EncounterEvent, viewer: Actor, state: EncounterState): EncounterEvent | null {
  if (viewer.role === 'gm') return event;
  if (event.type === 'character-added' && event.data.sheet.hidden) return null;
  return mentions(event).every((m) => visible(state, m, viewer)) ? event : null;
}

export function viewEncounter(state: EncounterState, viewer: Actor): EncounterView {
  const show = (id: string) => visible(state, id, viewer);
  const all = state.groups.flat();
  const shown = all.flatMap((e) => redactD100Event(e, viewer, state) ?? []);
  const log = shown.slice(-LOG_SHOWN);
  return {
    log,
    logOmitted: all.length - log.length,
    preset: state.preset,
    // The options and each shown character's sheet and fighter let a viewer work out the exact odds
    // of an attack before rolling (declaredAttackOdds) without anything it may not see.
    options: state.options,
    round: state.round,
    current: state.current && show(state.current) ? state.current : state.current ? 'hidden' : null,
    order: state.order.filter(show),
    oneMore: state.oneMore && show(state.oneMore.holder) ? state.oneMore : null,
    allOutAttackReady: state.oneMore ? allEnemiesStaggered(enemiesOf(state, state.oneMore.holder)) : false,
    characters: Object.values(state.fighters)
      .filter((f) => show(f.id))
      .map((f) => ({
        id: f.id,
        name: f.name,
        side: f.side,
        controller: controllerOf(state, f.id),
        wounds: f.tracks.left,
        woundMax: f.tracks.max,
        stress: f.stress,
        persona: f.persona ? { name: f.persona.name, wounds: f.persona.wounds, max: f.persona.max } : null,
        ailments: f.ailments.map((a) => ({ name: a.name, turnsLeft: a.turns === null ? null : a.turns - a.elapsed })),
        injuries: f.injuries,
        conditions: f.conditions,
        fatePoints: f.fate.current,
        canOppose: canOppose(f),
        out: f.out,
        dead: f.dead,
        sheet: state.sheets[f.id],
        fighter: f,
      })),
  };
}

export const encounterDecider: Decider<EncounterState, EncounterCommand, EncounterEvent> = {
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
};

