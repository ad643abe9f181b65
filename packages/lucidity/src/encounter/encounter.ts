import { appendLog, asPoolDice, chainPush, EMPTY_LOG, logAt, logEntries, modifier, newCharacterId, ownGet, requireCharacterRoom, requireSeen, RuleError, toCommandError, undoPosition, withEntry, type Actor, type DecideContext, type Decider, type Modifier, type Chain, type UndoMark } from '@personae/core';
import type { DiceSource } from '@personae/dice';
import type { Attribute, Attributes } from '../attributes';
import { levelForXp, raiseAttribute, xpForLevel } from '../advancement';
import { defense as defenseOf, derive } from '../derived';
import { seed } from '../citation';
import { resolveAttack } from '../combat';
import { applyDamage, castingDelay, currentAfterLevelUp, longRest, narrativeDamage, zeroHealthRoll, type ZeroHealthOutcome } from '../health';
import { rollLucidity } from '../lucidity';
import { attackOdds, criticalDamage, isCriticalHit, lucidityChance, lucidityInPlace, rollChance } from '../odds';
import { resolveOptions, type LucidityOptions } from '../options';
import { againstTarget, beats, opposedWinner, rollD20 } from '../roll';
import { attackCost, attackTraitEffects, defenseTraitProtection, rollTraitEffects, type RollPurpose } from '../traits';
import { combatantFromSheet, combatantFromStatBlock, type Combatant } from './combatant';
import { LucidityCommandSchema, type CommandOf, type LucidityCommand } from './commands';

import { requireAuthority } from './authority';
import { withEnteredDice } from './pools';
import { rollDamage } from './damage-roll';
import { describeLucidityEvent } from './describe';
import type { LucidityEvent, RollRecord, ZeroHealthRecord } from './events';
import type { Game, LucidityTableState } from './state';

export type { LucidityEvent, RollRecord, ZeroHealthRecord } from './events';
export type { Game, LucidityTableState } from './state';

/** How many of the latest log lines a view carries. */
export const LOG_SHOWN = 60;

// ---------------------------------------------------------------------------------------------
// State (its shape in ./state.ts, the events in ./events.ts).

const EMPTY_GAME: Game = { combatants: Object.create(null) as Record<string, Combatant>, roster: [], order: [], round: 0, turn: 0, started: false };

export function initialEncounter(preset = 'standard', overrides: Readonly<Record<string, unknown>> = {}): LucidityTableState {
  resolveOptions(preset, overrides);
  return { preset, overrides, game: EMPTY_GAME, log: EMPTY_LOG, marks: EMPTY_LOG, inEffect: null, redoable: null };
}

export function optionsOf(state: LucidityTableState): LucidityOptions {
  return resolveOptions(state.preset, state.overrides);
}

export function currentId(game: Game): string | null {
  return game.started ? (game.order[game.turn] ?? null) : null;
}

// ---------------------------------------------------------------------------------------------
// Checks.

const refuse = (code: string, message: string, field?: string, section?: string): RuleError => new RuleError(`lucidity.${code}`, message, field, section ? seed(section) : undefined);

function get(game: Game, id: string, field: string): Combatant {
  const c = ownGet(game.combatants, id);
  if (!c) throw refuse('unknown-combatant', `${field}: no combatant "${id}" in this encounter`, field);
  return c;
}

function mayCommand(actor: Actor, c: Combatant, field: string): void {
  if (actor.role === 'gm') return;
  if (actor.role === 'player' && c.controller === actor.participantId) return;
  throw refuse('forbidden', `${field}: you do not command ${c.hidden ? 'that combatant' : c.name}`, field);
}

function gmOnly(actor: Actor, what: string): void {
  if (actor.role !== 'gm') throw refuse('forbidden', `only the GM can ${what}`);
}

function onTurn(game: Game, c: Combatant, field: string): void {
  if (!game.started) throw refuse('not-started', 'the encounter has not started: roll initiative first (start)', field, 'Actions');
  if (currentId(game) !== c.id) throw refuse('not-your-turn', `${field}: it is not ${c.name}'s turn`, field, 'Actions');
}

function able(c: Combatant, field: string): void {
  if (c.condition === 'dead' || c.condition === 'unconscious') throw refuse('cannot-act', `${field}: ${c.name} is ${c.condition}`, field, 'Hitting 0 Health');
}

function spend(c: Combatant, cost: number, field: string, section: string): void {
  if (cost > c.actions) throw refuse('no-actions', `${field}: ${c.name} has ${c.actions} action(s) left and this costs ${cost}`, field, section);
}

/** Buffs and breaks of a roll: those named (or one per die given), plus those Help/Interfere offered. */
function pendingRoll(c: Combatant, cmd: { buffs?: number | undefined; breaks?: number | undefined; buffDice?: readonly number[] | undefined; breakDice?: readonly number[] | undefined }) {
  return { buffs: (cmd.buffs ?? cmd.buffDice?.length ?? 0) + c.pendingBuffs, breaks: (cmd.breaks ?? cmd.breakDice?.length ?? 0) + c.pendingBreaks };
}

// ---------------------------------------------------------------------------------------------
// Decide.

type Handler<T extends LucidityCommand['type']> = (state: LucidityTableState, cmd: CommandOf<T>, ctx: DecideContext, opts: LucidityOptions) => LucidityEvent;

function d20Roll(c: Combatant, mods: Modifier[], target: number, cmd: { d20?: number | undefined; buffs?: number | undefined; breaks?: number | undefined; buffDice?: number[] | undefined; breakDice?: number[] | undefined; useLucidity?: boolean }, attribute: number, opts: LucidityOptions, dice: DiceSource, mentalClarity = false): RollRecord {
  const counts = pendingRoll(c, cmd);
  const breaks = mentalClarity ? 0 : counts.breaks;
  if (c.condition === 'final-turn') {
    // "Hitting 0 Health": the final turn's rolls are guaranteed critical successes.
    return { d20: 20, modifiers: mods, buffDice: [], breakDice: [], total: 20 + mods.reduce((s, m) => s + m.value, 0), target, success: true, guaranteed: true };
  }
  if (cmd.useLucidity) {
    mayRollLucidity(c);
    const l = rollLucidity({ ...(cmd.d20 !== undefined ? { d20: cmd.d20 } : {}), current: c.lucidity, attribute, buffs: counts.buffs, breaks, ...(cmd.buffDice ? { buffDice: cmd.buffDice } : {}), ...(cmd.breakDice ? { breakDice: cmd.breakDice } : {}) }, opts, dice);
    return { d20: l.d20, modifiers: [], buffDice: l.buffsBreaks.buffDice, breakDice: l.buffsBreaks.breakDice, total: l.effectiveDie, target, success: l.success, lucidity: { target: l.target, lucidityAfter: l.lucidityAfter } };
  }
  const r = rollD20({ ...(cmd.d20 !== undefined ? { d20: cmd.d20 } : {}), modifiers: mods, buffs: counts.buffs, breaks, ...(cmd.buffDice ? { buffDice: cmd.buffDice } : {}), ...(cmd.breakDice ? { breakDice: cmd.breakDice } : {}), target }, opts, dice);
  return { d20: r.d20, modifiers: r.buffsBreaks.modifier ? [...mods, r.buffsBreaks.modifier] : mods, buffDice: r.buffsBreaks.buffDice, breakDice: r.buffsBreaks.breakDice, total: r.total, target, success: r.success };
}

/** A Lucidity roll needs Lucidity to roll ("Lucidity"). */
function mayRollLucidity(c: Combatant): void {
  if (c.maxLucidity === 0) throw refuse('no-lucidity', `${c.name} has no Lucidity to roll`, 'useLucidity', 'Lucidity');
}

/** Whether the table lets a Lucidity roll replace an attack roll (option lucidityOnAttack). */
function mayReplaceAttack(cmd: { useLucidity?: boolean | undefined }, opts: LucidityOptions): void {
  if (cmd.useLucidity && opts.lucidityOnAttack === 'not-allowed') throw refuse('option', 'useLucidity: a Lucidity roll cannot replace an attack roll at this table (option lucidityOnAttack)', 'useLucidity', 'Lucidity');
}

/** Inspirator is once per rest ("Creating Traits"): its use is refused when the trait is missing or spent. */
function checkInspiration(c: Combatant, inspire: boolean): void {
  if (!inspire) return;
  if (!c.traits.includes('Inspirator')) throw refuse('trait', `inspire: ${c.name} does not have Inspirator`, 'inspire', 'Creating Traits');
  if (c.inspiratorUsed) throw refuse('inspirator-used', `inspire: ${c.name} has used Inspirator since the last rest`, 'inspire', 'Creating Traits');
}

/**
 * What a character adds to one roll: attribute (KNO for CHA under Debator), skill rank, and the traits
 * that change a roll (`rollTraitEffects`). One place for the table's rolls and for their odds.
 */
function rollParts(
  g: Pick<Game, 'combatants'>,
  c: Combatant,
  roll: { attribute: Attribute; skill?: string | undefined; purpose?: RollPurpose; inspire?: boolean; attack?: boolean },
  opts: LucidityOptions,
): { mods: Modifier[]; shown: Attribute; traitBuffs: number; noBreaks: boolean } {
  checkInspiration(c, roll.inspire ?? false);
  // Debator: in discussions and arguments KNO may stand in for CHA (the better of the two is used).
  const shown = roll.purpose === 'argument' && roll.attribute === 'CHA' && c.traits.includes('Debator') && c.attributes.KNO > c.attributes.CHA ? 'KNO' : roll.attribute;
  const mods: Modifier[] = [modifier('attribute', shown === roll.attribute ? roll.attribute : `${shown} (Debator, for ${roll.attribute})`, c.attributes[shown])];
  const rank = roll.skill ? (ownGet(c.skills, roll.skill) ?? 0) : 0;
  if (roll.skill && rank > 0) mods.push(modifier('skill', roll.skill, rank));
  const groupFellowship = Object.values(g.combatants).some((o) => o.side === c.side && o.traits.includes('Fellowship'));
  const fx = rollTraitEffects(
    c.traits,
    { attribute: roll.attribute, skill: roll.skill || undefined, rank, purpose: roll.purpose ?? 'other', ...(roll.inspire ? { inspireCha: c.attributes.CHA } : {}), wingman: c.wingman?.attribute ?? null, groupFellowship, attack: roll.attack ?? false },
    opts,
  );
  return { mods: [...mods, ...fx.modifiers], shown, traitBuffs: fx.buffs.length, noBreaks: fx.noBreaks };
}

type AttackDeclaration = Pick<CommandOf<'attack'>, 'actor' | 'target' | 'weapon' | 'buffs' | 'breaks' | 'buffDice' | 'breakDice' | 'defendedBy'> & Partial<Pick<CommandOf<'attack'>, 'flanking' | 'oneOnOne' | 'useLucidity' | 'inspire'>>;

/** The modifiers of an attack's roll, Penetration and Protection: one place for the table and its odds. */
function attackParts(g: Pick<Game, 'combatants' | 'round'>, a: Combatant, t: Combatant, weapon: Combatant['weapons'][number], cmd: AttackDeclaration, opts: LucidityOptions) {
  const { mods } = rollParts(g, a, { attribute: weapon.attribute, skill: weapon.skill, inspire: cmd.inspire ?? false, attack: true }, opts);
  const fx = attackTraitEffects(a.traits, a.attributes, { attribute: weapon.attribute, flanking: cmd.flanking ?? false, oneOnOne: cmd.oneOnOne ?? false, improvised: weapon.improvised, unarmed: weapon.unarmed === true });
  const penetrationModifiers = weapon.penetration ? [modifier('penetration', weapon.name, weapon.penetration), ...fx.penetration] : fx.penetration;
  const protectionModifiers = [
    ...(fx.ignoreShieldProtection ? [] : t.shieldProtection ? [modifier('protection', 'shield', t.shieldProtection)] : []),
    ...defenseTraitProtection(t.traits, { oneOnOne: cmd.oneOnOne ?? false, adrenaline: t.adrenalineUntil >= g.round && t.adrenalineUntil > 0 }),
    ...defenderProtection(g as Game, t, cmd.defendedBy, fx.ignoreShieldProtection),
  ];
  return { mods, fx, penetrationModifiers, protectionModifiers };
}

const handlers: { [T in LucidityCommand['type']]: Handler<T> } = {
  add(state, cmd, ctx, opts) {
    if (ctx.actor.role === 'observer') throw refuse('forbidden', 'observers cannot add characters');
    const player = ctx.actor.role === 'player';
    // A player's combatant gets an id in their seat's space, which only combatants from their seat hold.
    const id = newCharacterId(ctx.actor, cmd.id);
    if (ownGet(state.game.combatants, id)) throw refuse('duplicate', `id: a combatant "${id}" is already in the encounter`, 'id');
    if (player && (cmd.hidden || cmd.statBlock !== undefined || cmd.side !== 'party')) throw refuse('forbidden', 'a player adds only their own character, from a sheet, to the party', 'sheet');
    const placement = { id, side: cmd.side, hidden: cmd.hidden, controller: player ? ctx.actor.participantId : cmd.controller };
    let combatant: Combatant;
    if (cmd.sheet !== undefined) combatant = combatantFromSheet(placement, cmd.sheet, opts);
    else if (cmd.statBlock !== undefined) combatant = combatantFromStatBlock(placement, cmd.statBlock, opts);
    else throw refuse('no-sheet', 'sheet: a combatant comes from a sheet or a stat block', 'sheet');
    if (state.game.started) combatant = { ...combatant };
    // Healthy Living: "your companions and yourself" have 5 more Max Health, once however many have it
    // ("Creating Traits"; companions: the same side, inventory U33). The newcomer's own is in its sheet.
    const companions = Object.values(state.game.combatants).filter((o) => o.side === combatant.side);
    const hasIt = (c: Combatant) => c.traits.includes('Healthy Living');
    const sideHas = companions.some(hasIt);
    if (!hasIt(combatant) && sideHas) combatant = { ...combatant, maxHealth: combatant.maxHealth + 5, health: combatant.health + 5 };
    const healthyLiving = hasIt(combatant) && !sideHas ? companions.map((o) => o.id) : [];
    return { type: 'combatant-added', data: { combatant, ...(healthyLiving.length ? { healthyLiving } : {}) } };
  },
  start(state, cmd, ctx) {
    gmOnly(ctx.actor, 'start the encounter');
    if (state.game.started) throw refuse('started', 'the encounter has already started');
    if (state.game.roster.length === 0) throw refuse('empty', 'add combatants before starting');
    // Initiative: d20 + AWA (inventory U12: AWA "impacts Initiative"); ties to the higher AWA, then the earlier added.
    const rolls = state.game.roster.map((id) => {
      const c = state.game.combatants[id]!;
      const given = cmd.dice ? ownGet(cmd.dice, id) : undefined;
      const d20 = given ?? ctx.dice.die(20);
      return { id, d20, awa: c.attributes.AWA, total: d20 + c.attributes.AWA };
    });
    const order = [...rolls].sort((a, b) => b.total - a.total || b.awa - a.awa || state.game.roster.indexOf(a.id) - state.game.roster.indexOf(b.id)).map((r) => r.id);
    return { type: 'encounter-started', data: { rolls, order } };
  },
  attack(state, cmd, ctx, opts) {
    const g = state.game;
    const a = get(g, cmd.actor, 'actor');
    const t = get(g, cmd.target, 'target');
    mayCommand(ctx.actor, a, 'actor');
    able(a, 'actor');
    if (a.id === t.id) throw refuse('self', 'target: a character does not attack itself', 'target');
    if (t.condition === 'dead') throw refuse('dead', `target: ${t.name} is dead`, 'target');
    const weapon = cmd.weapon ? a.weapons.find((w) => w.name.toLowerCase() === cmd.weapon!.toLowerCase()) : a.weapons[0];
    if (!weapon) throw refuse('no-weapon', `weapon: ${a.name} has no weapon "${cmd.weapon}" (has ${a.weapons.map((w) => w.name).join(', ')})`, 'weapon');
    // Guts: massive weapons, and dual-wielding weapons larger than one hand, need the trait (inventory U30).
    if (!a.traits.includes('Guts') && weapon.hands === 'massive') throw refuse('guts', `weapon: ${weapon.name} is massive; wielding it needs Guts`, 'weapon', 'Creating Traits');
    if (!a.traits.includes('Guts') && cmd.dualWielding && weapon.hands !== undefined && weapon.hands !== 1) throw refuse('guts', `dualWielding: ${weapon.name} needs two hands; dual-wielding it needs Guts`, 'dualWielding', 'Creating Traits');
    let cost = attackCost(weapon.unarmed ? 'unarmed' : weapon.kind, a.traits, { dualWielding: cmd.dualWielding });
    if (!g.started) throw refuse('not-started', 'the encounter has not started: roll initiative first (start)', 'actor', 'Actions');
    if (cmd.reaction === 'opportunity' || cmd.reaction === 'free') {
      // Opportunity and free attacks (inventory U14): out of turn, no action, once per round per attacker.
      if (a.opportunityRound === g.round) throw refuse('reaction-used', `actor: ${a.name} has already made an opportunity or free attack this round`, 'actor', 'Rescue Exploits');
      if (weapon.kind !== 'melee') throw refuse('reaction-melee', 'weapon: an opportunity or free attack is a melee attack', 'weapon', 'Rescue Exploits');
      cost = 0;
    } else if (cmd.reaction === 'readied') {
      if (!a.readied) throw refuse('not-readied', `actor: ${a.name} has no readied actions`, 'actor', 'Action Options');
      if (cost > a.readied.actions) throw refuse('no-actions', `actor: ${a.name} readied ${a.readied.actions} action(s); this attack costs ${cost}`, 'actor', 'Action Options');
    } else {
      onTurn(g, a, 'actor');
      spend(a, cost, 'actor', 'Action Options');
    }
    mayReplaceAttack(cmd, opts);
    const { mods, fx, penetrationModifiers, protectionModifiers } = attackParts(g, a, t, weapon, cmd, opts);
    const roll = d20Roll(a, mods, t.defense, cmd, a.attributes[weapon.attribute], opts, ctx.dice);
    // A Lucidity roll standing in for the attack (option lucidityOnAttack): bare-hit = Penetration 1,
    // natural-20 = the total of a natural 20. A success the total does not carry (a natural 20, the final
    // turn's guaranteed success) hits with Penetration 1; a failure misses.
    const sumMods = mods.reduce((n, m) => n + m.value, 0);
    let attackTotal = roll.lucidity ? (opts.lucidityOnAttack === 'natural-20' ? 20 + sumMods : t.defense + 1) : roll.total;
    if (roll.success && !beats(attackTotal, t.defense, opts)) attackTotal = t.defense + 1;
    if (!roll.success) attackTotal = Math.min(attackTotal, t.defense - (opts.successOn === 'meet' ? 1 : 0));
    let damageDice: number[] = [];
    let damage = 0;
    if (roll.success) {
      // A critical success (option critEffect): a natural 20, the final turn's guaranteed success, or a
      // Lucidity roll that counts as a natural 20 (lucidityOnAttack=natural-20).
      const critical = roll.lucidity ? opts.lucidityOnAttack === 'natural-20' && opts.criticalSuccess === 'natural-20' : isCriticalHit(roll.d20, roll.guaranteed === true, opts);
      const d = rollDamage(critical ? criticalDamage(weapon.damage, opts) : weapon.damage, ctx.dice, cmd.damageDice ?? []);
      damageDice = d.dice;
      damage = d.total;
    } else if (cmd.damageDice?.length) throw refuse('damage-on-miss', 'damageDice: the attack misses, so no damage is rolled', 'damageDice', 'How Combat Works');
    const res = resolveAttack(
      { attack: attackTotal, defense: t.defense, damage, protection: t.protection, penetrationModifiers, damageModifiers: fx.damage, protectionModifiers, ignoreProtection: fx.ignoreProtection },
      opts,
    );
    const hurt = applyDamage(vitalsOf(t), res.damageTaken, opts);
    const exploitAllowed = res.hit && (opts.exploitAttacks === 'any' || weapon.kind === 'melee') && (opts.exploitTrigger === 'hit' || res.damageTaken >= 1);
    return {
      type: 'attacked',
      data: {
        attacker: a.id,
        target: t.id,
        weapon: weapon.name,
        cost,
        reaction: cmd.reaction ?? null,
        roll,
        defense: t.defense,
        hit: res.hit,
        penetration: res.penetration,
        protection: res.protection,
        damageDice,
        damage: res.damage,
        damageTaken: res.damageTaken,
        toHealth: hurt.toHealth,
        toLucidity: hurt.toLucidity,
        zeroHealthDamage: hurt.triggersZeroHealthRoll,
        dies: hurt.dies,
        exploitAllowed,
        steps: [...res.steps],
        ...(cmd.inspire ? { inspired: true } : {}),
      },
    };
  },
  roll(state, cmd, ctx, opts) {
    const g = state.game;
    const a = get(g, cmd.actor, 'actor');
    mayCommand(ctx.actor, a, 'actor');
    able(a, 'actor');
    if (cmd.cost > 0) {
      onTurn(g, a, 'actor');
      spend(a, cmd.cost, 'actor', 'Action Options');
    }
    const { mods, shown, traitBuffs, noBreaks } = rollParts(g, a, cmd, opts);
    // A roll against another character's attribute (Charm/Deceive against AWA, Read a Person against CHA).
    if ((cmd.target === undefined) === (cmd.against === undefined)) throw refuse('target', 'target: give a target number or a character and attribute to roll against, not both', 'target', 'Action Options');
    let target = cmd.target ?? 0;
    let against: { id: string; attribute: Attribute; d20: number | null } | null = null;
    if (cmd.against) {
      const d = get(g, cmd.against.id, 'against.id');
      const t = againstTarget(d.attributes[cmd.against.attribute], opts, ctx.dice, cmd.against.d20);
      target = t.target;
      against = { id: d.id, attribute: cmd.against.attribute, d20: t.defenderD20 };
    }
    const roll = d20Roll(a, mods, target, { ...cmd, buffs: (cmd.buffs ?? cmd.buffDice?.length ?? 0) + traitBuffs }, a.attributes[shown], opts, ctx.dice, noBreaks);
    const extra = { purpose: cmd.purpose, ...(cmd.inspire ? { inspired: true } : {}) };
    if (against && against.d20 !== null && !roll.guaranteed && !roll.lucidity) {
      const winner = opposedWinner(roll.total, target, opts);
      if (winner === 'reroll' && roll.total === target) throw refuse('tie', 'the opposed rolls tie: roll both again (option opposedTie=reroll)', 'd20', 'Minor Exploits');
      return { type: 'rolled', data: { actor: a.id, attribute: cmd.attribute, skill: cmd.skill ?? null, label: cmd.label ?? '', cost: cmd.cost, against, roll: { ...roll, success: winner === 'attacker' }, ...extra } };
    }
    return { type: 'rolled', data: { actor: a.id, attribute: cmd.attribute, skill: cmd.skill ?? null, label: cmd.label ?? '', cost: cmd.cost, against, roll, ...extra } };
  },
  'lucidity-roll'(state, cmd, ctx, opts) {
    const a = get(state.game, cmd.actor, 'actor');
    mayCommand(ctx.actor, a, 'actor');
    if (cmd.purpose === 'major-exploit' && (opts.majorExploits === 'not-available' || (opts.majorExploits === 'pcs-only' && !a.pc))) {
      throw refuse('option', `purpose: major exploits are not open to ${a.name} at this table (option majorExploits=${opts.majorExploits})`, 'purpose', 'Major Exploits');
    }
    const attr = cmd.attribute ? a.attributes[cmd.attribute] : 0;
    if (cmd.purpose === 'fates-gamble') {
      // Fate's Gamble: at 0 Health, two Lucidity rolls; both succeed: 1 Health.
      if (!a.traits.includes("Fate's Gamble")) throw refuse('trait', `actor: ${a.name} does not have Fate's Gamble`, 'actor', 'Creating Traits');
      if (a.health !== 0) throw refuse('not-at-zero', `actor: Fate's Gamble is for 0 Health; ${a.name} has ${a.health}`, 'actor', 'Creating Traits');
      const first = rollLucidity({ ...(cmd.d20 !== undefined ? { d20: cmd.d20 } : {}), current: a.lucidity, attribute: attr, gmModifier: cmd.gmModifier }, opts, ctx.dice);
      const secondCurrent = opts.fatesGambleTargets === 'sequential' ? first.lucidityAfter : a.lucidity;
      const second = rollLucidity({ ...(cmd.d20Second !== undefined ? { d20: cmd.d20Second } : {}), current: secondCurrent, attribute: attr, gmModifier: cmd.gmModifier }, opts, ctx.dice);
      const after = Math.max(0, a.lucidity - first.spent - second.spent);
      const both = first.success && second.success;
      return { type: 'lucidity-rolled', data: { actor: a.id, purpose: cmd.purpose, rolls: [first, second].map((r) => ({ d20: r.d20, target: r.target, success: r.success })), success: both, lucidityAfter: after, healthGained: both ? 1 : 0 } };
    }
    const free = cmd.purpose === 'rescue' && a.traits.includes('Rescuer');
    const r = rollLucidity({ ...(cmd.d20 !== undefined ? { d20: cmd.d20 } : {}), current: a.lucidity, attribute: attr, gmModifier: cmd.gmModifier, free }, opts, ctx.dice);
    return { type: 'lucidity-rolled', data: { actor: a.id, purpose: cmd.purpose, rolls: [{ d20: r.d20, target: r.target, success: r.success }], success: r.success, lucidityAfter: r.lucidityAfter, healthGained: 0 } };
  },
  move(state, cmd, ctx, opts) {
    const a = get(state.game, cmd.actor, 'actor');
    mayCommand(ctx.actor, a, 'actor');
    able(a, 'actor');
    onTurn(state.game, a, 'actor');
    if (cmd.shuffle) {
      if (!a.traits.includes('Shuffle')) throw refuse('trait', `actor: ${a.name} does not have Shuffle`, 'actor', 'Creating Traits');
      const turnBegan = (e: LucidityEvent) => e.type === 'turn-ended' || e.type === 'encounter-started';
      if (lastActive(state, (e) => e.type === 'moved' && e.data.actor === a.id && e.data.shuffle === true, turnBegan)) throw refuse('shuffle-used', 'shuffle: Shuffle is once per turn', 'shuffle', 'Creating Traits');
      return { type: 'moved', data: { actor: a.id, feet: 5, usedMoveAction: false, shuffle: true } };
    }
    const usedMoveAction = a.moveAction;
    if (!usedMoveAction) spend(a, 1, 'actor', 'Action Options');
    // Move: 30 ft (10 ft prone); half when careful (avoiding opportunity attacks) or standing up from
    // Prone; the two halvings count once, or each under halfMoveStacking=stack (C14).
    const halvings = (cmd.careful ? 1 : 0) + (cmd.standing ? 1 : 0);
    const base = cmd.prone ? 10 : 30;
    const feet = halvings === 0 ? base : opts.halfMoveStacking === 'once' ? Math.floor(base / 2) : Math.floor(base / 2 ** halvings);
    return { type: 'moved', data: { actor: a.id, feet, usedMoveAction, shuffle: false } };
  },
  help(state, cmd, ctx) {
    const a = get(state.game, cmd.actor, 'actor');
    const t = get(state.game, cmd.target, 'target');
    mayCommand(ctx.actor, a, 'actor');
    able(a, 'actor');
    onTurn(state.game, a, 'actor');
    spend(a, 1, 'actor', 'Action Options');
    // Helpful/Harmful: Help/Interfere counts as 2 buffs or breaks.
    return { type: 'helped', data: { actor: a.id, target: t.id, kind: cmd.kind, count: a.traits.includes('Helpful/Harmful') ? 2 : 1 } };
  },
  ready(state, cmd, ctx) {
    const a = get(state.game, cmd.actor, 'actor');
    mayCommand(ctx.actor, a, 'actor');
    able(a, 'actor');
    onTurn(state.game, a, 'actor');
    spend(a, cmd.actions, 'actions', 'Action Options');
    return { type: 'readied', data: { actor: a.id, actions: cmd.actions, trigger: cmd.trigger } };
  },
  damage(state, cmd, ctx, opts) {
    gmOnly(ctx.actor, 'deal damage directly');
    const t = get(state.game, cmd.target, 'target');
    const hurt = applyDamage(vitalsOf(t), cmd.amount, opts);
    return { type: 'damaged', data: { target: t.id, amount: cmd.amount, reason: cmd.reason, toHealth: hurt.toHealth, toLucidity: hurt.toLucidity, zeroHealthDamage: hurt.triggersZeroHealthRoll, dies: hurt.dies } };
  },
  exploit(state, cmd, ctx, opts) {
    gmOnly(ctx.actor, 'rule on an exploit');
    const a = get(state.game, cmd.actor, 'actor');
    get(state.game, cmd.target, 'target');
    if (cmd.turnabout) {
      // Exploitative: an enemy's failed exploit against this character may be tried back against it.
      if (!a.traits.includes('Exploitative')) throw refuse('trait', `turnabout: ${a.name} does not have Exploitative`, 'turnabout', 'Creating Traits');
      const lastExploit = lastActive(state, (e) => e.type === 'exploit-ruled');
      const failedAgainst = lastExploit?.type === 'exploit-ruled' && !lastExploit.data.success && lastExploit.data.actor === cmd.target && lastExploit.data.target === cmd.actor && lastExploit.data.kind === cmd.kind;
      if (!failedAgainst) throw refuse('no-failed-exploit', `turnabout: the last exploit ruled was not a failed ${cmd.kind} exploit by ${cmd.target} against ${a.name}`, 'turnabout', 'Creating Traits');
    } else if (cmd.kind === 'major' && (opts.majorExploits === 'not-available' || (opts.majorExploits === 'pcs-only' && !a.pc))) throw refuse('option', `kind: major exploits are not open to ${a.name} (option majorExploits=${opts.majorExploits})`, 'kind', 'Major Exploits');
    return { type: 'exploit-ruled', data: { actor: cmd.actor, target: cmd.target, kind: cmd.kind, success: cmd.success, ruling: cmd.ruling, ...(cmd.turnabout ? { turnabout: true } : {}) } };
  },
  wingman(state, cmd, ctx) {
    const g = state.game;
    const a = get(g, cmd.actor, 'actor');
    const ally = get(g, cmd.ally, 'ally');
    mayCommand(ctx.actor, a, 'actor');
    able(a, 'actor');
    if (!a.traits.includes('Wingman')) throw refuse('trait', `actor: ${a.name} does not have Wingman`, 'actor', 'Creating Traits');
    if (ally.id === a.id || ally.side !== a.side) throw refuse('wingman-ally', `ally: Wingman hypes an ally, and ${ally.name} is not one of ${a.name}'s allies`, 'ally', 'Creating Traits');
    if (ally.wingmanSpent) throw refuse('wingman-spent', `ally: ${ally.name} has had Wingman since the last rest`, 'ally', 'Creating Traits');
    // Hyping costs an action, like Help (inventory U35).
    onTurn(g, a, 'actor');
    spend(a, 1, 'actor', 'Creating Traits');
    return { type: 'wingman-hyped', data: { actor: a.id, ally: ally.id, attribute: cmd.attribute } };
  },
  narrative(state, cmd, ctx, opts) {
    gmOnly(ctx.actor, 'rule a narrative defeat');
    const g = state.game;
    const a = get(g, cmd.actor, 'actor');
    const t = get(g, cmd.target, 'target');
    if (a.id === t.id) throw refuse('self', 'target: a character does not outwit itself', 'target', 'Narrative Combat');
    if (t.condition === 'dead') throw refuse('dead', `target: ${t.name} is dead`, 'target', 'Narrative Combat');
    const value = a.attributes[cmd.attribute];
    // "Narrative Combat": full damage when the opponent's resistance fails, half when it succeeds (C9).
    // The resistance, unless the GM rules it: d20 + the target's attribute against 10 + the attacker's (inventory U38).
    let resistance: { d20: number; total: number; target: number } | null = null;
    let resisted = false;
    if (opts.narrativeDamage === 'target-resist') {
      if (cmd.resisted !== undefined) {
        if (cmd.d20 !== undefined) throw refuse('resistance', 'resisted: give the GM ruling or the resistance d20, not both', 'resisted', 'Narrative Combat');
        resisted = cmd.resisted;
      } else {
        const d20 = cmd.d20 ?? ctx.dice.die(20);
        const total = d20 + t.attributes[cmd.resistAttribute ?? cmd.attribute];
        resistance = { d20, total, target: 10 + value };
        resisted = beats(total, resistance.target, opts);
      }
    }
    const damage = narrativeDamage(value, resisted, opts);
    const hurt = applyDamage(vitalsOf(t), damage, opts);
    return {
      type: 'narrative-defeat',
      data: { actor: a.id, target: t.id, ploy: cmd.ploy, attribute: cmd.attribute, value, resistance, resisted, damage, toHealth: hurt.toHealth, toLucidity: hurt.toLucidity, zeroHealthDamage: hurt.triggersZeroHealthRoll, dies: hurt.dies },
    };
  },
  'begin-casting'(state, cmd, ctx) {
    const g = state.game;
    const a = get(g, cmd.actor, 'actor');
    mayCommand(ctx.actor, a, 'actor');
    able(a, 'actor');
    onTurn(g, a, 'actor');
    const spell = a.spells.find((x) => x.name.toLowerCase() === cmd.spell.toLowerCase());
    if (!spell) throw refuse('unknown-spell', `spell: ${a.name} knows no spell "${cmd.spell}"${a.spells.length ? ` (knows ${a.spells.map((x) => x.name).join(', ')})` : ''}`, 'spell', 'Action Options');
    if (a.casting) throw refuse('casting', `spell: ${a.name} is already casting ${a.casting.spell}`, 'spell', 'Action Options');
    if (spell.energyCost > a.energy) throw refuse('no-energy', `spell: ${spell.name} needs ${spell.energyCost} Energy and ${a.name} has ${a.energy}`, 'spell', 'Maximum Energy');
    // Begin Casting a Spell is a free action; the spell is ready after its casting time in rounds.
    return { type: 'casting-begun', data: { actor: a.id, spell: spell.name, energyCost: spell.energyCost, readyRound: g.round + spell.castingTimeRounds } };
  },
  cast(state, cmd, ctx, opts) {
    const g = state.game;
    const a = get(g, cmd.actor, 'actor');
    mayCommand(ctx.actor, a, 'actor');
    able(a, 'actor');
    onTurn(g, a, 'actor');
    if (!a.casting) throw refuse('not-casting', `actor: ${a.name} has not begun casting a spell (begin-casting)`, 'actor', 'Action Options');
    const ready = a.casting.readyRound + a.casting.delays;
    if (g.round < ready) throw refuse('not-ready', `actor: ${a.casting.spell} is ready in round ${ready}; this is round ${g.round}`, 'actor', 'Action Options');
    if (a.casting.energyCost > a.energy) throw refuse('no-energy', `actor: ${a.casting.spell} needs ${a.casting.energyCost} Energy and ${a.name} has ${a.energy}`, 'actor', 'Maximum Energy');
    if (cmd.target !== undefined) get(g, cmd.target, 'target');
    const cost = attackCost('spell', a.traits, { rapidStrikesSpells: opts.rapidStrikesSpells });
    spend(a, cost, 'actor', 'Action Options');
    const spell = a.spells.find((x) => x.name === a.casting!.spell);
    return { type: 'spell-cast', data: { actor: a.id, spell: a.casting.spell, target: cmd.target ?? null, cost, energyCost: a.casting.energyCost, energyAfter: a.energy - a.casting.energyCost, effect: spell?.effect ?? '' } };
  },
  rest(state, cmd, ctx, opts) {
    gmOnly(ctx.actor, 'call a long rest');
    const c = get(state.game, cmd.id, 'id');
    if (c.condition === 'dead') throw refuse('dead', `id: ${c.name} is dead`, 'id', 'Long Rests');
    const r = longRest(vitalsOf(c), c.traits, opts, { lunarPause: cmd.lunarPause, ...(cmd.healthDice ? { healthDice: cmd.healthDice } : {}) }, ctx.dice);
    return { type: 'rested', data: { id: c.id, lunarPause: cmd.lunarPause, healthDice: [...r.healthDice], healed: r.healed, lucidityGained: r.lucidityGained, health: r.vitals.health, lucidity: r.vitals.lucidity, energy: r.vitals.energy } };
  },
  'award-xp'(state, cmd, ctx, opts) {
    gmOnly(ctx.actor, 'award XP');
    const c = get(state.game, cmd.id, 'id');
    const xp = c.xp + cmd.amount;
    return { type: 'xp-awarded', data: { id: c.id, amount: cmd.amount, reason: cmd.reason, xp, levelReached: levelForXp(xp, opts) } };
  },
  'level-up'(state, cmd, ctx, opts) {
    const c = get(state.game, cmd.id, 'id');
    mayCommand(ctx.actor, c, 'id');
    const reached = levelForXp(c.xp, opts);
    if (reached <= c.level) {
      const need = xpForLevel(c.level + 1, opts);
      throw refuse('no-level', `id: ${c.name} has ${c.xp} XP; ${need === null ? `level ${c.level} is the highest level (option levelsAbove6=${opts.levelsAbove6})` : `level ${c.level + 1} needs ${need}`}`, 'id', 'Advancement');
    }
    // "Advancement": +1 to one attribute (never above +3 this way), then Lucidity, Health and Energy are recalculated.
    const attributes = raiseAttribute(c.attributes, cmd.raise, 'raise');
    const level = c.level + 1;
    const before = derive({ level: c.level, attributes: c.attributes, traits: c.traits }, opts);
    const after = derive({ level, attributes, traits: c.traits }, opts);
    // healthRecalc=incremental (C15): the new level adds CON + 4 and WIL + 4 with the raised attributes.
    const healthAttr = c.traits.includes('Willful') ? 'WIL' : 'CON';
    const healthGrowth = opts.healthRecalc === 'incremental' ? attributes[healthAttr] + 4 : after.maxHealth - before.maxHealth;
    const energyGrowth = opts.healthRecalc === 'incremental' ? attributes.WIL + 4 : after.maxEnergy - before.maxEnergy;
    const maxima = { maxHealth: Math.max(1, c.maxHealth + healthGrowth), maxLucidity: c.maxLucidity + (after.maxLucidity - before.maxLucidity), maxEnergy: Math.max(0, c.maxEnergy + energyGrowth) };
    const v = currentAfterLevelUp(vitalsOf(c), maxima, opts);
    const defense = c.defense + defenseOf({ attributes, traits: c.traits }, opts) - defenseOf({ attributes: c.attributes, traits: c.traits }, opts);
    return { type: 'levelled', data: { id: c.id, from: c.level, to: level, raise: cmd.raise, attributes, defense, ...maxima, health: v.health, lucidity: v.lucidity, energy: v.energy } };
  },
  reveal(state, cmd, ctx) {
    gmOnly(ctx.actor, 'reveal a combatant');
    const c = get(state.game, cmd.id, 'id');
    if (!c.hidden) throw refuse('not-hidden', `id: ${c.name} is not hidden`, 'id');
    return { type: 'revealed', data: { id: c.id } };
  },
  'set-controller'(state, cmd, ctx) {
    // The same rule as a character's hand-over at every table: the GM alone, to a participant of the
    // table, within the host's characters-per-player bound.
    gmOnly(ctx.actor, 'hand a combatant to a player');
    const c = get(state.game, cmd.id, 'id');
    if (cmd.controller !== null && ctx.participants && !ctx.participants.has(cmd.controller)) throw refuse('unknown-participant', `controller: there is no participant "${cmd.controller}" at this table`, 'controller');
    if (cmd.controller !== c.controller) requireCharacterRoom(Object.values(state.game.combatants).map((o) => o.controller), cmd.controller, ctx.limits, false, 'controller');
    return { type: 'controller-set', data: { id: c.id, controller: cmd.controller } };
  },
  'end-turn'(state, cmd, ctx, opts) {
    const g = state.game;
    if (!g.started) throw refuse('not-started', 'the encounter has not started', undefined, 'Actions');
    const now = g.combatants[currentId(g)!]!;
    if (ctx.actor.role !== 'gm') mayCommand(ctx.actor, now, 'turn');
    const died: string[] = now.condition === 'final-turn' ? [now.id] : [];
    let index = g.turn;
    let newRound = false;
    const zeroHealth: ZeroHealthRecord[] = [];
    // The next combatant who can act; passing the end of the order ends the round.
    for (let step = 0; step < g.order.length; step++) {
      index++;
      if (index >= g.order.length) {
        index = 0;
        if (!newRound) {
          newRound = true;
          // End of round: a Lucidity (CON) roll for everyone who took damage while already at 0 Health ("Hitting 0 Health").
          for (const id of g.order) {
            const c = g.combatants[id]!;
            if (!c.zeroHealthDamage || c.condition === 'dead' || died.includes(id)) continue;
            const given = cmd.dice ? ownGet(cmd.dice, id) : undefined;
            const z = zeroHealthRoll(vitalsOf(c), c.attributes.CON, opts, ctx.dice, given);
            zeroHealth.push({ id, d20: z.roll.d20, target: z.roll.target, degree: z.degree, outcome: z.outcome, lucidityAfter: z.lucidityAfter });
          }
        }
      }
      const c = g.combatants[g.order[index]!]!;
      if (c.condition !== 'dead' && !died.includes(c.id)) break;
    }
    return { type: 'turn-ended', data: { ended: now.id, next: g.order[index]!, round: newRound ? g.round + 1 : g.round, newRound, zeroHealth, died } };
  },
  undo(state, cmd, ctx) {
    gmOnly(ctx.actor, 'undo');
    requireSeen(state.log.length, cmd.seen, 'undo');
    const target = nextUndo(state);
    if (target === null) throw refuse('nothing-to-undo', 'there is nothing to undo');
    return { type: 'undone', data: { target } };
  },
  redo(state, cmd, ctx) {
    gmOnly(ctx.actor, 'redo');
    requireSeen(state.log.length, cmd.seen, 'redo');
    const target = nextRedo(state);
    if (target === null) throw refuse('nothing-to-redo', 'there is nothing to redo');
    return { type: 'redone', data: { target } };
  },
};

/** The entry the next undo takes back: the latest in effect, or null (O(1)). */
function nextUndo(state: LucidityTableState): number | null {
  return state.inEffect?.top.seq ?? null;
}

/** The entry the next redo brings back: the latest undone since the last new entry, or null (O(1)). */
function nextRedo(state: LucidityTableState): number | null {
  return state.redoable?.top ?? null;
}

/** The latest entry still in effect that matches, looking no further back than `stop` allows. */
function lastActive(state: LucidityTableState, match: (e: LucidityEvent) => boolean, stop: (e: LucidityEvent) => boolean = () => false): LucidityEvent | null {
  for (let c = state.inEffect; c; c = c.below) {
    const e = logAt(state.log, c.top.seq - 1)!;
    if (match(e)) return e;
    if (stop(e)) return null;
  }
  return null;
}

/** Defender: an adjacent ally shares the Protection of its shields and weapons (not its armour). */
function defenderProtection(game: Game, target: Combatant, defenderId: string | undefined, ignoreShields: boolean): Modifier[] {
  if (defenderId === undefined) return [];
  const d = get(game, defenderId, 'defendedBy');
  if (!d.traits.includes('Defender')) throw refuse('trait', `defendedBy: ${d.name} does not have Defender`, 'defendedBy', 'Creating Traits');
  if (d.id === target.id || d.side !== target.side) throw refuse('defender-ally', `defendedBy: ${d.name} is not an ally of ${target.name}`, 'defendedBy', 'Creating Traits');
  if (d.condition === 'dead' || d.condition === 'unconscious') throw refuse('cannot-act', `defendedBy: ${d.name} is ${d.condition}`, 'defendedBy', 'Creating Traits');
  const out: Modifier[] = [];
  if (!ignoreShields && d.shieldProtection) out.push(modifier('protection', `Defender (${d.name}'s shield)`, d.shieldProtection, 'trait'));
  if (d.weaponProtection) out.push(modifier('protection', `Defender (${d.name}'s weapons)`, d.weaponProtection, 'trait'));
  return out;
}

/** True when the entry at `seq` came after the last turn change. */
function vitalsOf(c: Combatant) {
  return { health: c.health, maxHealth: c.maxHealth, lucidity: c.lucidity, maxLucidity: c.maxLucidity, energy: c.energy, maxEnergy: c.maxEnergy };
}

/**
 * A player is answered about a combatant hidden from them exactly as about one that does not exist,
 * before any other check, so that no refusal confirms a hidden name (the message `get` gives).
 */
function requireNoHiddenNames(state: LucidityTableState, command: LucidityCommand, viewer: DecideContext['actor']): void {
  if (viewer.role === 'gm') return;
  const named = command as unknown as Record<string, unknown>;
  const against = Object.hasOwn(named, 'against') ? (named.against as Record<string, unknown> | undefined) : undefined;
  const fields: Array<[string, unknown]> = [
    ...['actor', 'target', 'ally', 'defendedBy', ...(command.type === 'add' ? [] : ['id'])].map((f): [string, unknown] => [f, Object.hasOwn(named, f) ? named[f] : undefined]),
    ['against.id', against && typeof against === 'object' && Object.hasOwn(against, 'id') ? against.id : undefined],
  ];
  for (const [field, id] of fields) {
    if (typeof id !== 'string') continue;
    const c = ownGet(state.game.combatants, id);
    if (!c || (c.hidden && c.controller !== viewer.participantId)) throw refuse('unknown-combatant', `${field}: no combatant "${String(id)}" in this encounter`, field);
  }
}

export function decideEncounter(state: LucidityTableState, command: LucidityCommand, ctx: DecideContext): LucidityEvent[] {
  requireNoHiddenNames(state, command, ctx.actor);
  requireAuthority(state, command, ctx);
  // Physical dice come in named pools (./pools.ts); the rules read each entered pool where they would roll it.
  const pools = asPoolDice(ctx.dice);
  const rolled = withEnteredDice(command, pools);
  const opts = optionsOf(state);
  const handler = handlers[command.type] as Handler<LucidityCommand['type']>;
  const event = handler(state, rolled, ctx, opts);
  pools.finish();
  return [event];
}

// ---------------------------------------------------------------------------------------------
// Evolve.

function put(game: Game, c: Combatant): Game {
  return { ...game, combatants: withEntry(game.combatants, c.id, c) };
}

function hurt(game: Game, id: string, toHealth: number, toLucidity: number, zero: boolean, dies: boolean, opts: LucidityOptions): Game {
  const c = game.combatants[id]!;
  const damageThisTurn = c.damageThisTurn + toHealth + toLucidity;
  // Adrenaline Rush: 10 or more damage in one turn gives +6 Protection for a minute (60 s / roundSeconds rounds).
  const rush = c.traits.includes('Adrenaline Rush') && damageThisTurn >= 10 && c.damageThisTurn < 10 ? game.round + Math.ceil(60 / opts.roundSeconds) : c.adrenalineUntil;
  const health = c.health - toHealth;
  // "Begin Casting a Spell": 10 + CON damage while casting adds a round (option castDelayDamage).
  let casting = c.casting;
  const taken = toHealth + toLucidity;
  if (casting && taken > 0) {
    const counted = opts.castDelayDamage === 'cumulative' ? casting.damageSinceDelay + taken : taken;
    const delay = castingDelay([counted], c.attributes.CON, opts);
    casting = { ...casting, delays: casting.delays + delay, damageSinceDelay: opts.castDelayDamage === 'cumulative' && delay === 0 ? counted : 0 };
  }
  return put(game, {
    ...c,
    casting,
    health,
    lucidity: c.lucidity - toLucidity,
    zeroHealthDamage: c.zeroHealthDamage || zero,
    damageThisTurn,
    adrenalineUntil: rush,
    condition: dies ? 'dead' : c.condition,
  });
}

function startTurn(game: Game, id: string): Game {
  const c = game.combatants[id]!;
  // A new turn: the move action and 2 actions ("Actions"); readied actions not used are lost.
  return put(game, { ...c, actions: 2, moveAction: true, readied: null });
}

export function applyEvent(game: Game, e: LucidityEvent, opts: LucidityOptions): Game {
  switch (e.type) {
    case 'combatant-added': {
      let g = put(game, e.data.combatant);
      for (const id of e.data.healthyLiving ?? []) {
        const o = g.combatants[id]!;
        g = put(g, { ...o, maxHealth: o.maxHealth + 5, health: o.health + 5 });
      }
      return { ...g, roster: [...game.roster, e.data.combatant.id], order: game.started ? [...game.order, e.data.combatant.id] : game.order };
    }
    case 'encounter-started': {
      let g: Game = { ...game, order: e.data.order, round: 1, turn: 0, started: true };
      for (const r of e.data.rolls) g = put(g, { ...g.combatants[r.id]!, initiative: r.total });
      return startTurn(g, e.data.order[0]!);
    }
    case 'attacked': {
      const d = e.data;
      let g = game;
      const a = g.combatants[d.attacker]!;
      const readied = d.reaction === 'readied' && a.readied ? { ...a.readied, actions: a.readied.actions - d.cost } : a.readied;
      g = put(g, {
        ...a,
        actions: d.reaction ? a.actions : a.actions - d.cost,
        readied: readied && readied.actions > 0 ? readied : d.reaction === 'readied' ? null : readied,
        opportunityRound: d.reaction === 'opportunity' || d.reaction === 'free' ? g.round : a.opportunityRound,
        pendingBuffs: 0,
        pendingBreaks: 0,
        lucidity: d.roll.lucidity ? d.roll.lucidity.lucidityAfter : a.lucidity,
        wingman: d.roll.success ? a.wingman : null,
        inspiratorUsed: a.inspiratorUsed || d.inspired === true,
      });
      return hurt(g, d.target, d.toHealth, d.toLucidity, d.zeroHealthDamage, d.dies, opts);
    }
    case 'rolled': {
      const a = game.combatants[e.data.actor]!;
      const ok = e.data.roll.success;
      // Adrenaline Rush: a failed roll to resist fear gives +6 Protection for a minute.
      const rush = !ok && e.data.purpose === 'fear' && a.traits.includes('Adrenaline Rush') ? Math.max(a.adrenalineUntil, game.round + Math.ceil(60 / opts.roundSeconds)) : a.adrenalineUntil;
      return put(game, {
        ...a,
        actions: a.actions - e.data.cost,
        pendingBuffs: 0,
        pendingBreaks: 0,
        lucidity: e.data.roll.lucidity ? e.data.roll.lucidity.lucidityAfter : a.lucidity,
        wingman: ok ? a.wingman : null,
        inspiratorUsed: a.inspiratorUsed || e.data.inspired === true,
        adrenalineUntil: rush,
      });
    }
    case 'lucidity-rolled': {
      const a = game.combatants[e.data.actor]!;
      const health = Math.min(a.maxHealth, a.health + e.data.healthGained);
      return put(game, { ...a, lucidity: e.data.lucidityAfter, health, condition: health > 0 && a.condition === 'unconscious' ? 'active' : a.condition, wingman: e.data.success ? a.wingman : null });
    }
    case 'moved': {
      const a = game.combatants[e.data.actor]!;
      if (e.data.shuffle) return game;
      return put(game, e.data.usedMoveAction ? { ...a, moveAction: false } : { ...a, actions: a.actions - 1 });
    }
    case 'helped': {
      const a = game.combatants[e.data.actor]!;
      let g = put(game, { ...a, actions: a.actions - 1 });
      const t = g.combatants[e.data.target]!;
      g = put(g, e.data.kind === 'buff' ? { ...t, pendingBuffs: t.pendingBuffs + e.data.count } : { ...t, pendingBreaks: t.pendingBreaks + e.data.count });
      return g;
    }
    case 'readied': {
      const a = game.combatants[e.data.actor]!;
      return put(game, { ...a, actions: a.actions - e.data.actions, readied: { actions: e.data.actions, trigger: e.data.trigger } });
    }
    case 'damaged':
      return hurt(game, e.data.target, e.data.toHealth, e.data.toLucidity, e.data.zeroHealthDamage, e.data.dies, opts);
    case 'exploit-ruled':
      return game;
    case 'wingman-hyped': {
      const a = game.combatants[e.data.actor]!;
      const g = put(game, { ...a, actions: a.actions - 1 });
      const ally = g.combatants[e.data.ally]!;
      return put(g, { ...ally, wingman: { attribute: e.data.attribute, from: e.data.actor }, wingmanSpent: true });
    }
    case 'narrative-defeat':
      return hurt(game, e.data.target, e.data.toHealth, e.data.toLucidity, e.data.zeroHealthDamage, e.data.dies, opts);
    case 'casting-begun': {
      const a = game.combatants[e.data.actor]!;
      return put(game, { ...a, casting: { spell: e.data.spell, energyCost: e.data.energyCost, readyRound: e.data.readyRound, delays: 0, damageSinceDelay: 0 } });
    }
    case 'spell-cast': {
      const a = game.combatants[e.data.actor]!;
      return put(game, { ...a, actions: a.actions - e.data.cost, energy: e.data.energyAfter, casting: null });
    }
    case 'rested': {
      const c = game.combatants[e.data.id]!;
      // A rest renews the once-per-rest traits (Inspirator) and who may be hyped by Wingman again.
      return put(game, { ...c, health: e.data.health, lucidity: e.data.lucidity, energy: e.data.energy, inspiratorUsed: false, wingmanSpent: false, condition: e.data.health > 0 && c.condition === 'unconscious' ? 'active' : c.condition });
    }
    case 'xp-awarded':
      return put(game, { ...game.combatants[e.data.id]!, xp: e.data.xp });
    case 'levelled': {
      const c = game.combatants[e.data.id]!;
      const d = e.data;
      return put(game, { ...c, level: d.to, attributes: d.attributes, defense: d.defense, maxHealth: d.maxHealth, maxLucidity: d.maxLucidity, maxEnergy: d.maxEnergy, health: d.health, lucidity: d.lucidity, energy: d.energy });
    }
    case 'revealed':
      return put(game, { ...game.combatants[e.data.id]!, hidden: false });
    case 'controller-set':
      return put(game, { ...game.combatants[e.data.id]!, controller: e.data.controller });
    case 'turn-ended': {
      let g = game;
      for (const id of e.data.died) g = put(g, { ...g.combatants[id]!, condition: 'dead' });
      for (const z of e.data.zeroHealth) {
        const c = g.combatants[z.id]!;
        const injuries = z.outcome.kind === 'nothing' || z.outcome.kind === 'final-turn' ? c.injuries : [...c.injuries, z.outcome.kind];
        g = put(g, { ...c, lucidity: z.lucidityAfter, injuries, condition: z.outcome.kind === 'final-turn' ? 'final-turn' : c.condition });
      }
      // Every turn change resets the damage counted for Adrenaline Rush; a new round clears the 0-Health marks.
      for (const id of g.roster) {
        const c = g.combatants[id]!;
        g = put(g, { ...c, damageThisTurn: 0, zeroHealthDamage: e.data.newRound ? false : c.zeroHealthDamage });
      }
      g = { ...g, round: e.data.round, turn: g.order.indexOf(e.data.next) };
      return startTurn(g, e.data.next);
    }
    case 'undone':
    case 'redone':
      return game;
  }
}

function isMark(e: LucidityEvent): e is Extract<LucidityEvent, { type: 'undone' | 'redone' }> {
  return e.type === 'undone' || e.type === 'redone';
}

export function evolveEncounter(state: LucidityTableState, event: LucidityEvent): LucidityTableState {
  const seq = state.log.length + 1;
  // Appending shares the log and the marks with earlier states (O(1) per event).
  const log = appendLog(state.log, event);
  const opts = optionsOf(state);
  if (!isMark(event)) {
    const inEffect = chainPush(state.inEffect, { seq, before: state.game });
    return { ...state, log, marks: appendLog(state.marks, { seq, kind: 'action' }), game: applyEvent(state.game, event, opts), inEffect, redoable: null };
  }
  const marks = appendLog<UndoMark>(state.marks, { seq, kind: event.type === 'undone' ? 'undo' : 'redo', target: event.data.target });
  const target = event.data.target;
  const top = state.inEffect;
  // Taking back the latest entry in effect, or bringing back the latest undone one after it, needs no
  // fold: the game before each entry in effect is kept.
  if (event.type === 'undone' && top && top.top.seq === target) {
    return { ...state, log, marks, game: top.top.before, inEffect: top.below, redoable: chainPush(state.redoable, target) };
  }
  if (event.type === 'redone' && state.redoable?.top === target && target > (top?.top.seq ?? 0)) {
    const game = applyEvent(state.game, logAt(log, target - 1)!, opts);
    return { ...state, log, marks, game, inEffect: chainPush(top, { seq: target, before: state.game }), redoable: state.redoable.below };
  }
  // Otherwise the game is the fold of the entries still in effect.
  const position = undoPosition(logEntries(marks));
  let game = EMPTY_GAME;
  let inEffect: LucidityTableState['inEffect'] = null;
  for (const s of position.active.slice().sort((a, b) => a - b)) {
    inEffect = chainPush(inEffect, { seq: s, before: game });
    game = applyEvent(game, logAt(log, s - 1)!, opts);
  }
  const redoable = position.redoable.reduce<Chain<number> | null>(chainPush, null);
  return { ...state, log, marks, game, inEffect, redoable };
}

// ---------------------------------------------------------------------------------------------
// Exact odds of a declared attack, before rolling.

export interface DeclaredAttackOdds {
  readonly weapon: string;
  /** The d20's modifiers (attribute, skill rank, Educated) without the buff and break d6s. */
  readonly modifiers: readonly Modifier[];
  readonly buffs: number;
  readonly breaks: number;
  readonly defense: number;
  readonly hit: number;
  /** Chance of each amount of damage taken after Protection (a miss counts as 0); sums to 1. */
  readonly damageTaken: readonly { readonly damage: number; readonly chance: number }[];
  readonly expectedDamage: number;
  /** The target of the Lucidity roll made in place of the attack roll, when one is. */
  readonly lucidityTarget?: number;
}

/**
 * The exact odds of an attack as the table would resolve it ("How Combat Works", "Buffs and Breaks"):
 * every d20 face and every buff/break outcome against the target's Defense, then every damage total
 * through the same `resolveAttack` the encounter uses. It reads only the two combatants, so a client
 * works it out from what it is shown. A Lucidity roll in place of the attack ("Lucidity", option
 * lucidityOnAttack) is counted as the encounter makes it: the d20 less buffs, plus breaks, at or under
 * Current Lucidity (+ the weapon's attribute), a hit with Penetration 1 or as a natural 20.
 */
export function declaredAttackOdds(game: Pick<Game, 'combatants' | 'round'>, cmd: AttackDeclaration, opts: LucidityOptions): DeclaredAttackOdds | null {
  mayReplaceAttack(cmd, opts);
  const a = get(game as Game, cmd.actor, 'actor');
  const t = get(game as Game, cmd.target, 'target');
  const weapon = cmd.weapon ? a.weapons.find((w) => w.name.toLowerCase() === cmd.weapon!.toLowerCase()) : a.weapons[0];
  if (!weapon) throw refuse('no-weapon', `weapon: ${a.name} has no weapon "${cmd.weapon}" (has ${a.weapons.map((w) => w.name).join(', ')})`, 'weapon');
  const { mods, fx, penetrationModifiers, protectionModifiers } = attackParts(game, a, t, weapon, cmd, opts);
  const counts = pendingRoll(a, cmd);
  const finalTurn = a.condition === 'final-turn';
  if (cmd.useLucidity && !finalTurn) mayRollLucidity(a);
  const sumMods = mods.reduce((n, m) => n + m.value, 0);
  const lucidity = cmd.useLucidity && !finalTurn ? lucidityInPlace({ current: a.lucidity, attribute: a.attributes[weapon.attribute], modifier: sumMods }, opts) : undefined;
  const odds = attackOdds(
    {
      modifier: mods.reduce((n, m) => n + m.value, 0),
      defense: t.defense,
      damage: weapon.damage,
      protection: t.protection,
      buffs: counts.buffs,
      breaks: counts.breaks,
      penetrationModifiers,
      damageModifiers: fx.damage,
      protectionModifiers,
      ignoreProtection: fx.ignoreProtection,
      // The final turn's rolls are guaranteed successes ("Hitting 0 Health").
      guaranteed: finalTurn,
      ...(lucidity ? { lucidity } : {}),
    },
    opts,
  );
  const rows = odds.damageTaken;
  return { weapon: weapon.name, modifiers: mods, buffs: counts.buffs, breaks: counts.breaks, defense: t.defense, hit: odds.hit, damageTaken: rows, expectedDamage: odds.expectedDamage, ...(lucidity ? { lucidityTarget: lucidity.target } : {}) };
}

export interface DeclaredRollOdds {
  /** The d20's modifiers: attribute (Debator's KNO for CHA), skill rank, Educated, Inspirator. */
  readonly modifiers: readonly Modifier[];
  /** Buffs and breaks counted: those declared, those Help/Interfere left, one per trait buff. */
  readonly buffs: number;
  readonly breaks: number;
  /** Traits that gave a buff (Wingman, Rumor-monger, Natural Immunity, Fellowship). */
  readonly traitBuffs: number;
  /** Mental Clarity removed the breaks. */
  readonly noBreaks: boolean;
  readonly target: number;
  readonly chance: number;
}

type RollDeclaration = Pick<CommandOf<'roll'>, 'actor' | 'attribute' | 'skill' | 'target' | 'buffs' | 'breaks'> &
  Partial<Pick<CommandOf<'roll'>, 'purpose' | 'inspire' | 'useLucidity'>> & { readonly against?: { readonly id: string; readonly attribute: Attribute } | undefined };

/**
 * The exact chance of an ordinary roll as the table would decide it ("Buffs and Breaks", "Creating
 * Traits"): the same `rollParts` the roll command uses, so every trait that changes a roll counts.
 * A Lucidity roll in its place uses Current Lucidity + the attribute ("Lucidity"). Null when the
 * roll is opposed by the target's own d20 (option passiveValue=opposed-roll).
 */
export function declaredRollOdds(game: Pick<Game, 'combatants'>, cmd: RollDeclaration, opts: LucidityOptions): DeclaredRollOdds | null {
  const a = get(game as Game, cmd.actor, 'actor');
  const { mods, shown, traitBuffs, noBreaks } = rollParts(game, a, cmd, opts);
  let target = cmd.target;
  if (cmd.against) {
    if (opts.passiveValue === 'opposed-roll') return null;
    target = againstTarget(get(game as Game, cmd.against.id, 'against.id').attributes[cmd.against.attribute], opts).target;
  }
  if (target === undefined) throw refuse('target', 'target: give a target number or a character and attribute to roll against', 'target', 'Action Options');
  const counts = pendingRoll(a, { buffs: (cmd.buffs ?? 0) + traitBuffs, breaks: cmd.breaks ?? 0 });
  const breaks = noBreaks ? 0 : counts.breaks;
  const chance =
    a.condition === 'final-turn'
      ? 1
      : cmd.useLucidity
        ? lucidityChance({ current: a.lucidity, attribute: a.attributes[shown], buffs: counts.buffs, breaks }, opts)
        : rollChance({ modifier: mods.reduce((n, m) => n + m.value, 0), target, buffs: counts.buffs, breaks }, opts);
  return { modifiers: mods, buffs: counts.buffs, breaks, traitBuffs, noBreaks, target, chance };
}

// ---------------------------------------------------------------------------------------------
// Views and redaction: a player never receives what a hidden combatant is or does.

/** Anyone but the GM, for what depends on the role alone. */
const TABLE: Actor = { role: 'observer', participantId: '' };

function seesCombatant(viewer: Actor, c: Combatant | undefined): boolean {
  return viewer.role === 'gm' || (c !== undefined && !c.hidden);
}

/** Whether a viewer is shown all of a combatant: the GM is, and everyone is of the party's; else only the one who controls it. */
function shownWhole(c: Combatant, viewer: Actor): boolean {
  return viewer.role === 'gm' || c.side === 'party' || c.controller === viewer.participantId;
}

function combatantView(c: Combatant, viewer: Actor) {
  const own = shownWhole(c, viewer);
  const base = { id: c.id, name: c.name, side: c.side, condition: c.condition, initiative: c.initiative, ...(viewer.role === 'gm' ? { hidden: c.hidden } : {}) };
  if (!own) return base;
  return {
    ...base,
    controller: c.controller,
    level: c.level,
    health: c.health,
    maxHealth: c.maxHealth,
    lucidity: c.lucidity,
    maxLucidity: c.maxLucidity,
    energy: c.energy,
    maxEnergy: c.maxEnergy,
    defense: c.defense,
    protection: c.protection + c.shieldProtection,
    actions: c.actions,
    moveAction: c.moveAction,
    readied: c.readied,
    buffsOffered: c.pendingBuffs,
    breaksOffered: c.pendingBreaks,
    injuries: c.injuries,
    traits: c.traits,
    weapons: c.weapons.map((w) => w.name),
    xp: c.xp,
    spells: c.spells.map((x) => ({ name: x.name, energyCost: x.energyCost, castingTimeRounds: x.castingTimeRounds })),
    casting: c.casting ? { spell: c.casting.spell, readyRound: c.casting.readyRound + c.casting.delays } : null,
    wingman: c.wingman,
    inspiratorUsed: c.inspiratorUsed,
    adrenalineUntil: c.adrenalineUntil,
    // What this viewer may already see of the combatant, whole, so it can work out exact odds itself.
    combatant: c,
  };
}

/** One line of the log as a viewer reads it. */
export interface LogLine {
  readonly seq: number;
  readonly type: LucidityEvent['type'];
  readonly text: string;
}

/** What redacting and describing the log asked of one id: whether it is hidden and the name shown. */
interface IdAnswer {
  readonly hidden: boolean;
  readonly name: string;
}

function answerFor(g: Game, viewer: Actor, id: string): IdAnswer {
  const c = ownGet(g.combatants, id);
  const hidden = !seesCombatant(viewer, c);
  return { hidden, name: id === 'unseen' || hidden ? 'someone unseen' : (c?.name ?? id) };
}

/**
 * The log lines one kind of viewer reads (the GM, or everyone else: what a player or an observer may
 * see depends only on the role), folded as the log grows. A line depends on the event and on what the
 * ids it names answer (hidden or not, and the name shown), so the fold keeps those answers and carries
 * on from where it stopped while every one of them still holds; a reveal, or an undo that takes back
 * a combatant, folds again from the start. Kept per shared log array, beside the state.
 */
interface LinesSoFar {
  upTo: number;
  count: number;
  /** The latest LOG_SHOWN lines. */
  readonly tail: LogLine[];
  readonly answers: Map<string, IdAnswer>;
}

const linesSoFar = new WeakMap<readonly LucidityEvent[], { gm?: LinesSoFar; table?: LinesSoFar }>();

function logLines(state: LucidityTableState, viewer: Actor): LinesSoFar {
  const g = state.game;
  const kind = viewer.role === 'gm' ? 'gm' : 'table';
  const kept = linesSoFar.get(state.log.shared) ?? {};
  const cached = kept[kind];
  const usable = cached !== undefined && cached.upTo <= state.log.length && [...cached.answers].every(([id, a]) => {
    const now = answerFor(g, viewer, id);
    return now.hidden === a.hidden && now.name === a.name;
  });
  const fold: LinesSoFar = usable ? cached : { upTo: 0, count: 0, tail: [], answers: new Map() };
  const answer = (id: string): IdAnswer => {
    let a = fold.answers.get(id);
    if (!a) fold.answers.set(id, (a = answerFor(g, viewer, id)));
    return a;
  };
  const hidden = (id: string) => answer(id).hidden;
  const name = (id: string) => answer(id).name;
  for (; fold.upTo < state.log.length; fold.upTo++) {
    const r = viewer.role === 'gm' ? logAt(state.log, fold.upTo)! : redactFor(logAt(state.log, fold.upTo)!, hidden);
    if (!r) continue;
    fold.count++;
    fold.tail.push({ seq: fold.upTo + 1, type: r.type, text: describeLucidityEvent(r, name) });
    if (fold.tail.length > LOG_SHOWN) fold.tail.shift();
  }
  if (!cached || usable || fold.upTo >= cached.upTo) linesSoFar.set(state.log.shared, { ...kept, [kind]: fold });
  return fold;
}

export function viewEncounter(state: LucidityTableState, viewer: Actor) {
  const g = state.game;
  const visible = (id: string) => seesCombatant(viewer, g.combatants[id]);
  const cur = currentId(g);
  // The log as this viewer may read it: each event redacted for them, then put in words (GM rulings included).
  const lines = logLines(state, viewer);
  const log = lines.tail.slice();
  return {
    ruleset: 'lucidity',
    log,
    logOmitted: lines.count - log.length,
    preset: state.preset,
    options: state.overrides,
    started: g.started,
    round: g.round,
    current: cur && visible(cur) ? cur : null,
    order: g.order.filter(visible),
    combatants: g.roster.filter(visible).map((id) => combatantView(g.combatants[id]!, viewer)),
    canUndo: viewer.role === 'gm' && nextUndo(state) !== null,
    canRedo: viewer.role === 'gm' && nextRedo(state) !== null,
  };
}

/** Per game: the combatants shown whole to the one who controls them and to no one else but the GM, by controller, sorted. */
const controlledSoFar = new WeakMap<Game, ReadonlyMap<string, readonly string[]>>();

function controlledShownWhole(g: Game): ReadonlyMap<string, readonly string[]> {
  let byController = controlledSoFar.get(g);
  if (byController) return byController;
  const out = new Map<string, string[]>();
  for (const c of Object.values(g.combatants)) {
    // The party's combatants are shown whole to everyone (shownWhole).
    if (c.controller === null || c.side === 'party' || !seesCombatant(TABLE, c)) continue;
    const list = out.get(c.controller);
    if (list) list.push(c.id);
    else out.set(c.controller, [c.id]);
  }
  for (const list of out.values()) list.sort();
  controlledSoFar.set(g, (byController = out));
  return byController;
}

/**
 * Which viewers are shown the same view of a Lucidity table (the server builds it once for each). Who
 * a viewer is counts only through the role (the GM sees every combatant and may undo) and the
 * combatants they control outside the party, which they are shown whole; everyone else is shown what
 * an observer is. Read from the roster alone, never from the log.
 */
export function lucidityAudience(state: LucidityTableState, viewer: Actor): string {
  if (viewer.role === 'gm') return 'gm';
  const own = controlledShownWhole(state.game).get(viewer.participantId);
  return own ? `table ${JSON.stringify(own)}` : 'table';
}

export function redactEncounterEvent(event: LucidityEvent, viewer: Actor, state: LucidityTableState): LucidityEvent | null {
  if (viewer.role === 'gm') return event;
  return redactFor(event, (id) => !seesCombatant(viewer, ownGet(state.game.combatants, id)));
}

/** An event as someone who cannot see the combatants `hidden` names may read it, or null. */
function redactFor(event: LucidityEvent, hidden: (id: string) => boolean): LucidityEvent | null {
  switch (event.type) {
    case 'combatant-added':
      return hidden(event.data.combatant.id)
        ? null
        : { type: 'combatant-added', data: { combatant: { ...event.data.combatant, ...(event.data.combatant.side === 'foe' ? { skills: {}, weapons: [] } : {}) }, ...(event.data.healthyLiving ? { healthyLiving: event.data.healthyLiving.filter((id) => !hidden(id)) } : {}) } };
    case 'encounter-started':
      return { type: 'encounter-started', data: { rolls: event.data.rolls.filter((r) => !hidden(r.id)), order: event.data.order.filter((id) => !hidden(id)) } };
    case 'attacked': {
      const d = event.data;
      if (hidden(d.target)) return null;
      if (!hidden(d.attacker)) return event;
      // The target's side learns what it took, not who or what rolled.
      return { type: 'attacked', data: { ...d, attacker: 'unseen', weapon: 'unseen', roll: { d20: 0, modifiers: [], buffDice: [], breakDice: [], total: 0, target: d.roll.target, success: d.roll.success }, damageDice: [], steps: [] } };
    }
    case 'rolled':
      return hidden(event.data.actor) || (event.data.against !== null && hidden(event.data.against.id)) ? null : event;
    case 'lucidity-rolled':
    case 'moved':
    case 'readied':
      return hidden(event.data.actor) ? null : event;
    case 'helped':
      return hidden(event.data.actor) || hidden(event.data.target) ? null : event;
    case 'damaged':
      return hidden(event.data.target) ? null : event;
    case 'exploit-ruled':
      return hidden(event.data.actor) || hidden(event.data.target) ? null : event;
    case 'narrative-defeat':
      if (hidden(event.data.target)) return null;
      return hidden(event.data.actor) ? { type: 'narrative-defeat', data: { ...event.data, actor: 'unseen', ploy: 'unseen' } } : event;
    case 'wingman-hyped':
      return hidden(event.data.actor) || hidden(event.data.ally) ? null : event;
    case 'casting-begun':
      return hidden(event.data.actor) ? null : event;
    case 'spell-cast':
      if (hidden(event.data.actor)) return null;
      return event.data.target !== null && hidden(event.data.target) ? { type: 'spell-cast', data: { ...event.data, target: 'unseen' } } : event;
    case 'rested':
    case 'xp-awarded':
    case 'levelled':
      return hidden(event.data.id) ? null : event;
    case 'revealed':
      return event;
    case 'controller-set':
      return hidden(event.data.id) ? null : event;
    case 'turn-ended':
      return { type: 'turn-ended', data: { ...event.data, ended: hidden(event.data.ended) ? 'unseen' : event.data.ended, next: hidden(event.data.next) ? 'unseen' : event.data.next, zeroHealth: event.data.zeroHealth.filter((z) => !hidden(z.id)), died: event.data.died.filter((id) => !hidden(id)) } };
    case 'undone':
    case 'redone':
      return event;
  }
}

// ---------------------------------------------------------------------------------------------
// The decider the table server hosts.

export function parseEncounterCommand(raw: unknown): { ok: true; command: LucidityCommand } | { ok: false; error: ReturnType<typeof toCommandError> } {
  const r = LucidityCommandSchema.safeParse(raw);
  if (r.success) return { ok: true, command: r.data };
  const issue = r.error.issues[0]!;
  const field = issue.path.map(String).join('.');
  return { ok: false, error: toCommandError({ code: 'invalid_command', message: `${field || 'command'}: ${issue.message}`, field }) };
}

export function lucidityDecider(preset = 'standard', overrides: Readonly<Record<string, unknown>> = {}): Decider<LucidityTableState, LucidityCommand, LucidityEvent> {
  return {
    initialState: () => initialEncounter(preset, overrides),
    parseCommand: parseEncounterCommand,
    decide: decideEncounter,
    evolve: evolveEncounter,
    redactEvent: redactEncounterEvent,
    viewState: viewEncounter,
    audience: lucidityAudience,
  };
}
