import type { DiceSource } from '@personae/dice';
import { compareDice, concertedEffort, judge, resolveChallenge, resolveSubsequent, type ChallengeResult, type OpposedChallengeSpec } from '../challenge';
import type { Labeled } from '../effects';
import { inEncounter, periodKey } from '../time';
import { cannotAct, getCharacter, type Batch } from './batch';
import {
  allows,
  findAbility,
  findPower,
  findSkill,
  findWeapon,
  isGmCharacter,
  potentialThresholdOf,
  same,
  skillUse,
  UNARMED,
  weaponWeight,
  type AttributeKey,
  type CombatantAbility,
  type CombatantPower,
  type SkillUse,
  type Weapon,
} from './combatant';
import type { CommandOf, DefenseChoice, GivenDice, Spend } from './commands';
import { bankCriticals, requireCriticals, spend, spendingBank } from './criticals';
import { DomainError, rule } from './errors';
import type { ChallengeKind } from './events';
import { applyStatusNow, heal, inflict, talliedStatus } from './health';
import { ladder, STATUS_LABEL, threshold } from './injury';
import { buildSide, checkOneSpecialAbility, inScope, type BuiltSide, type SideRequest } from './sides';
import type { CharacterState, Snapshot } from './state';
import { requireTurn, takeAction } from './turns';

const SA_SCOPE = rule('core', 'Scope of Special Abilities');
const DEFENSE = rule('core', 'Passive vs. Active Defense');

type ChallengeCommand = CommandOf<'attack'> | CommandOf<'power'> | CommandOf<'interact'> | CommandOf<'inquire'>;

/** A side of a challenge before its dice: who, with what skill and attribute, and notes for the log. */
interface Answer {
  readonly skill: SkillUse;
  readonly attribute: AttributeKey;
  readonly notes: string[];
}

// ---------------------------------------------------------------------------------------------
// Checks shared by every challenge an action issues.

function targetsOf(cmd: { target?: string | undefined; targets?: string[] | undefined }, fallback?: string): string[] {
  const list = cmd.targets ?? (cmd.target ? [cmd.target] : fallback ? [fallback] : []);
  if (list.length === 0) throw new DomainError('no-target', 'name the target ("target") or targets ("targets")', 'target');
  if (new Set(list).size !== list.length) throw new DomainError('duplicate-target', 'a target is named twice', 'targets');
  return list;
}

function opponent(now: Snapshot, id: string, who: CharacterState, field: string): CharacterState {
  const t = getCharacter(now, id, field);
  if (!t.present) throw new DomainError('not-present', `${t.def.name} is not in this scene`, field);
  if (t.def.id === who.def.id) throw new DomainError('self-target', `${who.def.name} cannot challenge itself`, field, rule('core', 'The Challenge'));
  if (t.status === 'dead') throw new DomainError('target-dead', `${t.def.name} is dead`, field, rule('core', 'Injury and Death'));
  return t;
}

/** The key the one-special-ability-a-turn limit is counted by: the violent encounter's turn. */
function turnKey(now: Snapshot): string | null {
  return now.combat ? `round ${now.combat.round}, turn ${now.combat.index + 1}` : null;
}

/**
 * personae-core-2011.txt "Scope of Special Abilities": in a non-violent or violent encounter a
 * character benefits from one special ability in the course of its turn, besides Qualities (which are
 * always in effect). Answering a challenge on someone else's turn counts against that turn.
 */
function checkAbilityLimit(b: Batch, who: CharacterState, chosen: readonly CombatantAbility[], field: string): void {
  const now = b.now;
  if (!inEncounter(now.clock)) return;
  checkOneSpecialAbility(who, chosen, field);
  const names = [...new Set(chosen.filter((a) => !a.quality).map((a) => a.name))];
  const key = turnKey(now);
  if (names.length === 0 || key === null) return;
  const used = now.combat!.abilityUse[who.def.id];
  if (used && used.startsWith(`${key}|`) && !same(used.slice(key.length + 1), names[0]!)) {
    throw new DomainError(
      'second-special-ability',
      `${who.def.name} already benefited from ${used.slice(key.length + 1)} this turn; ${names[0]} would be a second special ability (only Qualities are always in effect)`,
      field,
      SA_SCOPE,
    );
  }
}

function limitKey(now: Snapshot, who: CharacterState, a: CombatantAbility): string | null {
  return a.limit ? `ability|${who.def.id}|${a.name.toLowerCase()}|${periodKey(now.clock, a.limit.per)}` : null;
}

/** personae-core-2011.txt "Special Ability Identifiers": a Conditional ability may be limited to so many uses a period. */
function checkAbilityUses(now: Snapshot, who: CharacterState, chosen: readonly CombatantAbility[], field: string): void {
  for (const a of chosen) {
    const key = limitKey(now, who, a);
    if (key && (now.usage[key] ?? 0) >= a.limit!.times) {
      throw new DomainError('ability-limit', `${who.def.name} has used ${a.name} ${a.limit!.times === 1 ? 'once' : `${a.limit!.times} times`} this ${a.limit!.per} already`, field, rule('core', 'Special Ability Identifiers'));
    }
  }
}

function recordAbility(b: Batch, who: CharacterState, chosen: readonly CombatantAbility[]): void {
  for (const a of new Set(chosen)) {
    const key = limitKey(b.now, who, a);
    if (key) b.emit({ type: 'usage-counted', key, what: `${who.def.name} uses ${a.name} (${a.limit!.times} a ${a.limit!.per})` });
  }
  const key = turnKey(b.now);
  const first = chosen.find((a) => !a.quality);
  if (key === null || !first) return;
  if (b.now.combat!.abilityUse[who.def.id] === `${key}|${first.name}`) return;
  b.emit({ type: 'ability-used', actor: who.def.id, ability: first.name, turnKey: `${key}|${first.name}` });
}

/** personae-core-2011.txt "Expertise": one more die, once per session per talent (more with upgrades). */
function expertise(b: Batch, who: CharacterState, talent: string | undefined, field: string): { name: string; dice: number } | undefined {
  if (!talent) return undefined;
  const e = who.def.expertise.find((x) => same(x.name, talent));
  if (!e) throw new DomainError('unknown-talent', `${who.def.name} has no Expertise talent "${talent}"`, field);
  const key = `expertise|${who.def.id}|${e.name.toLowerCase()}|${periodKey(b.now.clock, 'session')}`;
  if ((b.now.usage[key] ?? 0) >= e.uses) {
    throw new DomainError('expertise-used', `${who.def.name} has already called on ${e.name} ${e.uses === 1 ? 'once' : `${e.uses} times`} this session`, field, rule('core', 'Expertise'));
  }
  return { name: e.name, dice: e.dice };
}

function countExpertise(b: Batch, who: CharacterState, used: { name: string } | undefined): void {
  if (!used) return;
  b.emit({ type: 'usage-counted', key: `expertise|${who.def.id}|${used.name.toLowerCase()}|${periodKey(b.now.clock, 'session')}`, what: `${who.def.name} calls on Expertise: ${used.name}` });
}

/** An assistant and the skill it assists with. */
interface Helper {
  readonly who: CharacterState;
  readonly skill: string;
}

/**
 * Assistants (personae-core-2011.txt "Assisting in a Challenge"): each acts with the skill being
 * assisted (its own rating of it, or one the table deems similar); for a Power Challenge the same
 * supernatural skill is required. Only assistants of a Power Challenge in a violent encounter must
 * have declared it on their own turn.
 */
function assistants(b: Batch, who: CharacterState, ids: readonly string[] | undefined, targets: readonly string[], kind: ChallengeKind, skill: string): Helper[] {
  const now = b.now;
  const section = rule('core', 'Assisting in a Challenge');
  const out: Helper[] = [];
  for (const [i, id] of (ids ?? []).entries()) {
    const field = `assistants[${i}]`;
    const a = getCharacter(now, id, field);
    if (a.def.id === who.def.id || targets.includes(id)) throw new DomainError('assist-self', `${a.def.name} cannot assist this challenge`, field);
    const why = cannotAct(now, a);
    if (why) throw new DomainError(why.code, why.message, field, why.rule);
    const own = findSkill(a.def, skill);
    if (kind === 'power' && !own) {
      throw new DomainError('assist-skill', `${a.def.name} has no ${skill}: assisting a Power Challenge takes the same supernatural skill`, field, section);
    }
    if (kind === 'power' && now.combat && now.combat.assists[id] !== who.def.id) {
      throw new DomainError('assist-not-declared', `${a.def.name} has not declared on its turn that it assists ${who.def.name}'s Power Challenge`, field, section);
    }
    out.push({ who: a, skill: own?.name ?? skill });
  }
  return out;
}

/** The log's line for the assistants and the skills they act with. */
function assistNote(helpers: readonly Helper[]): string[] {
  return helpers.length ? [`Assisting (${rule('core', 'Assisting in a Challenge')}): ${helpers.map((h) => `${h.who.def.name} with ${h.skill}`).join(', ')}.`] : [];
}

interface Concerted {
  readonly participants: CharacterState[];
}

/** personae-v4-srd-playing.txt "Concerted Effort": player characters only, once per scene (option concertedEffortPerScene). */
function concerted(b: Batch, who: CharacterState, ids: readonly string[] | undefined, targets: readonly string[]): Concerted | undefined {
  if (!ids || ids.length === 0) return undefined;
  const now = b.now;
  const section = rule('v4', 'Concerted Effort');
  const key = `concerted|${periodKey(now.clock, 'scene')}`;
  if ((now.usage[key] ?? 0) >= now.options.concertedEffortPerScene) {
    throw new DomainError(
      'concerted-effort-limit',
      now.options.concertedEffortPerScene === 0
        ? 'this table does not use concerted efforts (option concertedEffortPerScene = 0)'
        : `the player characters have made ${now.options.concertedEffortPerScene} concerted effort(s) this scene already (option concertedEffortPerScene)`,
      'concerted',
      section,
    );
  }
  const participants = [who];
  for (const [i, id] of ids.entries()) {
    const field = `concerted[${i}]`;
    const c = getCharacter(now, id, field);
    if (c.def.id === who.def.id || targets.includes(id) || participants.includes(c)) throw new DomainError('concerted-participant', `${c.def.name} cannot contribute to this concerted effort`, field, section);
    const why = cannotAct(now, c);
    if (why) throw new DomainError(why.code, why.message, field, why.rule);
    participants.push(c);
  }
  for (const [i, c] of participants.entries()) {
    if (isGmCharacter(c.def)) throw new DomainError('concerted-players-only', `${c.def.name} is not a player-controlled character`, i === 0 ? 'actor' : `concerted[${i - 1}]`, section);
  }
  return { participants };
}

interface Spending {
  readonly bank: string;
  /** Criticals spent before rolling, `special` among them. */
  readonly before: number;
  readonly steer: number;
  readonly bonus: number;
  readonly automatic: boolean;
  readonly extraHits: number;
  readonly ability?: CombatantAbility & { effect: { type: 'critical-spend' } };
  /** Criticals turned in for a purpose of their own, no mechanics attached (`toGm`: to the GM for something special). */
  readonly special?: { readonly count: number; readonly purpose: string; readonly toGm: boolean };
  /** The automatic success comes from the table's default use of criticals, not from `automaticSuccess`. */
  readonly byDefault?: boolean;
}

/**
 * `spend.criticals`: criticals spent without naming what they buy, read by option criticalDefaultUse
 * (personae-core-2011.txt, personae-playing-web.txt and personae-v4-srd-playing.txt "Critical
 * Success"). With `spend.purpose` they go to that purpose instead (turned in to the GM under
 * gm-special), with no effect on the dice.
 */
function defaultSpend(now: Snapshot, s: Spend): Pick<Spending, 'special' | 'byDefault'> & { steer: number; automatic: boolean } {
  const none = { steer: 0, automatic: false };
  const use = now.options.criticalDefaultUse;
  if (s.criticals === undefined) {
    if (s.purpose) throw new DomainError('spend-purpose', 'spend.purpose says what the criticals in spend.criticals are for: give spend.criticals too', 'spend.purpose');
    return none;
  }
  if (s.automaticSuccess || s.steer) {
    throw new DomainError('spend-twice', `spend.criticals follows option criticalDefaultUse (${use}); name automaticSuccess or steer instead, not both`, 'spend.criticals');
  }
  if (s.purpose) return { ...none, special: { count: s.criticals, purpose: s.purpose, toGm: use === 'gm-special' } };
  switch (use) {
    case 'gm-special':
      throw new DomainError(
        'spend-purpose',
        'say what the criticals are turned in for (spend.purpose): this table hands criticals to the GM for something special (option criticalDefaultUse = gm-special)',
        'spend.purpose',
        rule('core', 'Critical Success'),
      );
    case 'automatic-success':
      if (s.criticals !== 1) {
        throw new DomainError('spend-count', `one critical makes the challenge an automatic success (option criticalDefaultUse = automatic-success); ${s.criticals} were named`, 'spend.criticals', rule('web', 'Critical Success'));
      }
      return { steer: 0, automatic: true, byDefault: true };
    case 'steer':
      // personae-v4-srd-playing.txt "Critical Success": after the result, a critical steers a failure to a glancing success, no further.
      if (s.criticals > 1) {
        throw new DomainError('spend-count', `after the dice one critical steers a failure to a glancing success, no further (option criticalDefaultUse = steer); ${s.criticals} were named`, 'spend.criticals', rule('v4', 'Critical Success'));
      }
      return { steer: s.criticals, automatic: false };
  }
}

/** Criticals spent on the challenge (personae-core-2011.txt "Critical Success"; "What Special Abilities Can Do"). */
function spending(now: Snapshot, who: CharacterState, s: Spend | undefined, skill: string, kind: ChallengeKind, targets: number): Spending | undefined {
  if (!s) return undefined;
  const crit = rule('core', 'Critical Success');
  const byDefault = defaultSpend(now, s);
  let ability: Spending['ability'];
  if (s.ability) {
    const a = findAbility(who.def, s.ability);
    if (!a) throw new DomainError('unknown-ability', `${who.def.name} has no special ability "${s.ability}"`, 'spend.ability');
    if (a.effect.type !== 'critical-spend') throw new DomainError('ability-spends-nothing', `${a.name} is not used by spending criticals`, 'spend.ability');
    if (!inScope(a.effect, skill, kind, 'issue')) throw new DomainError('ability-not-applicable', `${a.name} does not apply to this challenge`, 'spend.ability', rule('core', 'What Special Abilities Can Do'));
    ability = a as Spending['ability'];
  }
  const abilityBefore = ability && (ability.effect.feat === 'automatic-success' || ability.effect.feat === 'bonus-result') ? ability.effect.cost : 0;
  const abilityAfter = ability && !abilityBefore ? ability.effect.cost : 0;
  const steer = (s.steer ?? 0) + byDefault.steer;
  const before = (s.automaticSuccess || byDefault.automatic ? 1 : 0) + (s.bonus ?? 0) + abilityBefore + (byDefault.special?.count ?? 0);
  const after = (s.extraHits ?? 0) + abilityAfter + steer;
  if (who.readiedSuccess && before > 0) {
    throw new DomainError('success-readied', `${who.def.name}'s next challenge already succeeds (a critical was spent for it): spend nothing more before rolling`, 'spend', crit);
  }
  if (after > 0 && targets > 1) throw new DomainError('spend-one-target', 'criticals spent on a success go to one target: challenge one target at a time', 'spend', crit);
  if ((s.extraHits ?? 0) > 0 && kind !== 'attack' && kind !== 'power') throw new DomainError('spend-not-applicable', 'extra hits come only with attacks and harmful powers', 'spend.extraHits', crit);
  const bank = spendingBank(who);
  requireCriticals(now, bank, before + after, 'spend');
  return {
    bank,
    before,
    steer,
    bonus: (s.bonus ?? 0) + (ability?.effect.feat === 'bonus-result' ? (ability.effect.amount ?? 1) : 0),
    automatic: !!s.automaticSuccess || byDefault.automatic || ability?.effect.feat === 'automatic-success',
    extraHits: s.extraHits ?? 0,
    ...(ability ? { ability } : {}),
    ...(byDefault.special ? { special: byDefault.special } : {}),
    ...(byDefault.byDefault ? { byDefault: true } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Running one challenge through the challenge engine.

interface Plan {
  readonly kind: ChallengeKind;
  readonly who: CharacterState;
  readonly target: CharacterState;
  readonly actor: Answer;
  readonly reactor: Answer;
  readonly purpose: string;
}

interface Ran {
  readonly result: ChallengeResult;
  readonly actorSide: BuiltSide;
}

function givenFor(cmd: { dice?: GivenDice | undefined; targetDice?: Record<string, GivenDice> | undefined }, target: string, first: boolean): GivenDice | undefined {
  return cmd.targetDice?.[target] ?? (first ? cmd.dice : undefined);
}

function sideRequests(cmd: ChallengeCommand, plan: Plan, given: GivenDice | undefined, extra: { actorMods: Labeled[]; expertise?: { name: string; dice: number }; reactorExpertise?: { name: string; dice: number } }) {
  const actorReq: SideRequest = {
    who: plan.who,
    skill: plan.actor.skill,
    attribute: plan.actor.attribute,
    role: 'issue',
    kind: plan.kind,
    abilities: cmd.abilities ?? [],
    ...(extra.expertise ? { expertise: extra.expertise } : {}),
    modifiers: [...(cmd.modifiers ?? []), ...extra.actorMods],
    ...(given?.actor ? { given: given.actor } : {}),
  };
  const reactorReq: SideRequest = {
    who: plan.target,
    skill: plan.reactor.skill,
    attribute: plan.reactor.attribute,
    role: 'answer',
    kind: plan.kind,
    abilities: cmd.reactorAbilities ?? [],
    ...(extra.reactorExpertise ? { expertise: extra.reactorExpertise } : {}),
    modifiers: cmd.reactorModifiers ?? [],
    ...(given?.reactor ? { given: given.reactor } : {}),
    answeringAttack: plan.kind === 'attack',
  };
  return { actorReq, reactorReq };
}

/**
 * Issue the challenges of one action: one per target (one actor against several reactors is a
 * challenge to each of them, each rolled), with assistants or a concerted effort on the actor's
 * side. Every check runs before the first event, so a refused action leaves no trace.
 */
function runChallenges(
  b: Batch,
  cmd: ChallengeCommand,
  plans: readonly Plan[],
  dice: DiceSource,
  opts: { concerted?: Concerted | undefined; spend?: Spending | undefined; what: string; usesAction: boolean },
  onResult: (plan: Plan, ran: Ran) => void,
): void {
  const now = b.now;
  const who = plans[0]!.who;
  const helpers = assistants(b, who, cmd.assistants, plans.map((p) => p.target.def.id), plans[0]!.kind, plans[0]!.actor.skill.name);
  const actorExpertise = expertise(b, who, cmd.expertise, 'expertise');
  const critBonus: Labeled[] = opts.spend && opts.spend.bonus > 0 ? [{ value: opts.spend.bonus, source: 'criticals spent' }] : [];
  // Build every side first: unknown abilities and limits are refused before anything is recorded.
  const built = plans.map((plan, k) => {
    const reactorExpertise = k === 0 ? expertise(b, plan.target, cmd.reactorExpertise, 'reactorExpertise') : undefined;
    const { actorReq, reactorReq } = sideRequests(cmd, plan, givenFor(cmd, plan.target.def.id, k === 0), {
      actorMods: critBonus,
      ...(actorExpertise ? { expertise: actorExpertise } : {}),
      ...(reactorExpertise ? { reactorExpertise } : {}),
    });
    const actorSide = buildSide(now, actorReq, 'abilities');
    const reactorSide = buildSide(now, reactorReq, 'reactorAbilities');
    const withSpend = opts.spend?.ability ? [...actorSide.chosen, opts.spend.ability] : actorSide.chosen;
    checkAbilityLimit(b, who, withSpend, 'abilities');
    checkAbilityLimit(b, plan.target, reactorSide.chosen, 'reactorAbilities');
    checkAbilityUses(now, who, withSpend, 'abilities');
    checkAbilityUses(now, plan.target, reactorSide.chosen, 'reactorAbilities');
    return { plan, actorSide, reactorSide, reactorExpertise, withSpend };
  });

  takeAction(b, who, opts.what, opts.usesAction);
  if (built[0]) recordAbility(b, who, built[0].withSpend);
  countExpertise(b, who, actorExpertise);
  for (const a of helpers) if (now.combat?.assists[a.who.def.id] !== undefined) b.emit({ type: 'assist-spent', actor: a.who.def.id });
  if (opts.concerted) {
    b.emit({ type: 'usage-counted', key: `concerted|${periodKey(now.clock, 'scene')}`, what: `concerted effort led by ${who.def.name}` });
    if (b.now.combat) {
      for (const c of opts.concerted.participants.slice(1)) b.emit({ type: 'action-spent-ahead', actor: c.def.id, reason: `contributed to ${who.def.name}'s concerted effort` });
    }
  }
  const special = opts.spend?.special;
  if (opts.spend && special) spend(b, opts.spend.bank, who.def.id, special.count, special.purpose, special.toGm ? { toGm: true } : {});
  const mechanical = (opts.spend?.before ?? 0) - (special?.count ?? 0);
  if (opts.spend && mechanical > 0) {
    const why = opts.spend.automatic
      ? `automatic success${opts.spend.byDefault ? ' (option criticalDefaultUse = automatic-success)' : ''}`
      : `+${opts.spend.bonus} to the result`;
    spend(b, opts.spend.bank, who.def.id, mechanical, why);
  }
  // A critical spent ahead with spend-criticals (option criticalDefaultUse): this challenge succeeds.
  const readied = who.readiedSuccess;
  if (readied) b.emit({ type: 'readied-success-used', actor: who.def.id });
  const automatic = opts.spend?.automatic ? 'a critical spent before rolling' : readied ? 'a critical spent ahead for this challenge' : null;

  for (const { plan, actorSide, reactorSide, reactorExpertise } of built) {
    recordAbility(b, plan.target, reactorSide.chosen);
    countExpertise(b, plan.target, reactorExpertise);
    let actorSpec = actorSide.spec;
    const notes = [...plan.actor.notes, ...plan.reactor.notes, ...actorSide.notes, ...reactorSide.notes, ...assistNote(helpers)];
    if (opts.concerted) {
      const [lead, ...rest] = opts.concerted.participants.map((c) => {
        const s = findSkill(c.def, plan.actor.skill.name);
        return { name: c.def.name, rating: s ? s.dice : 0, potentialThreshold: potentialThresholdOf(c.def, now.options) };
      });
      const ce = concertedEffort(lead!, rest, plan.actor.skill.name);
      actorSpec = { ...actorSpec, pool: { ...ce.pool, penaltyDice: actorSpec.pool.penaltyDice ?? [] } };
      notes.push(`${ce.explanation} (${rule('v4', 'Concerted Effort')}).`);
    }
    const spec: OpposedChallengeSpec = {
      actor: actorSpec,
      reactor: reactorSide.spec,
      ...(helpers.length ? { assistants: helpers.map((h) => ({ name: h.who.def.name })) } : {}),
      ...(actorSide.steer.length ? { steer: actorSide.steer } : {}),
      ...(automatic ? { automaticSuccess: { source: automatic } } : {}),
    };
    let result = resolveChallenge(spec, dice, now.options);
    if (opts.spend && opts.spend.steer > 0) result = steerWithCriticals(b, who, opts.spend, result, actorSide.steer);
    b.emit({
      type: 'challenge-resolved',
      kind: plan.kind,
      actor: who.def.id,
      reactor: plan.target.def.id,
      skill: plan.actor.skill.name,
      reactorSkill: plan.reactor.skill.name,
      purpose: plan.purpose,
      result,
      notes,
    });
    bankCriticals(b, who, result.criticals.actor, `natural 10s issuing ${plan.kind === 'attack' ? 'an attack' : `a ${plan.kind}`} challenge`);
    bankCriticals(b, b.now.characters[plan.target.def.id]!, result.criticals.reactor, `natural 10s answering a ${plan.kind} challenge`);
    onResult(plan, { result, actorSide });
  }
}

/**
 * personae-v4-srd-playing.txt "Critical Success": after the result is known, after ties are broken,
 * a critical steers a failure towards a glancing success. Only a failure is steered: turning a
 * glancing success into a clear one is left to abilities, powers and assistants
 * ("Clear Success, Glancing Success, and Steering"). Spent only if needed. The dice are not rolled
 * again: the same comparison is judged again with the steering.
 */
function steerWithCriticals(b: Batch, who: CharacterState, spent: Spending, result: ChallengeResult, already: readonly Labeled[]): ChallengeResult {
  const needed = result.outcome === 'success' ? 0 : 1;
  const steps = Math.min(needed, spent.steer);
  if (steps === 0 || result.kind === 'automatic') return result;
  spend(b, spent.bank, who.def.id, steps, `steer the result ${steps} grade${steps === 1 ? '' : 's'}`);
  const raw = compareDice(result.actor.dice, result.actor.modifier, result.reactor.dice, result.reactor.modifier);
  const source = `${steps} critical(s) spent`;
  const verdict = judge(raw, { options: b.now.options, steer: [...already, { value: steps, source }] });
  const steering = verdict.rulings.filter((r) => r.rule === 'steering' && r.text.startsWith(source));
  const grade = (o: string, g: string | null) => (o === 'success' ? `${g} success` : o);
  return {
    ...result,
    outcome: verdict.outcome,
    grade: verdict.grade,
    rulings: [...result.rulings, ...steering],
    explanation: [...result.explanation, ...steering.map((r) => `${r.text} (${r.source}).`), `Outcome after steering: ${grade(verdict.outcome, verdict.grade)}.`],
  };
}

// ---------------------------------------------------------------------------------------------
// Attack Challenges (personae-core-2011.txt "Physical Combat", "Weapons", "Defense").

function attackWeapon(who: CharacterState, cmd: CommandOf<'attack'>): { weapon: Weapon; skill: SkillUse } {
  const c = who.def;
  let skillName = cmd.skill;
  let weapon: Weapon | undefined;
  if (cmd.weapon) {
    weapon = findWeapon(c, cmd.weapon);
    if (!weapon) throw new DomainError('unknown-weapon', `${c.name} has no weapon "${cmd.weapon}"`, 'weapon');
    skillName ??= c.skills.find((s) => s.weapon && same(s.weapon, weapon!.name))?.name ?? (weapon === UNARMED ? c.skills.find((s) => same(s.name, 'Unarmed'))?.name : undefined);
  } else if (skillName) {
    const s = findSkill(c, skillName);
    weapon = s?.weapon ? findWeapon(c, s.weapon) : UNARMED;
    if (!weapon) throw new DomainError('unknown-weapon', `${c.name}'s skill ${skillName} names a weapon it does not carry`, 'skill');
  } else {
    const s = c.skills.find((x) => x.weapon && findWeapon(c, x.weapon));
    skillName = s?.name;
    weapon = s ? findWeapon(c, s.weapon!)! : UNARMED;
  }
  const attribute: AttributeKey = weapon.range === 'ranged' ? 'cunning' : 'stature';
  const skill = skillUse(c, skillName ?? (weapon === UNARMED ? 'Unarmed' : weapon.name), attribute);
  return { weapon, skill };
}

/** personae-core-2011.txt "Weapons": Cunning for ranged attacks, Stature for unarmed and hand-to-hand (option attackAttribute). */
export function weaponAttribute(now: Snapshot, weapon: Weapon, skill: SkillUse): AttributeKey {
  if (now.options.attackAttribute === 'skill' && !skill.unskilled) return skill.attribute;
  return weapon.range === 'ranged' ? 'cunning' : 'stature';
}

function passive(c: CharacterState, which: 'dodge' | 'block'): Answer {
  // personae-core-2011.txt "Defense": Dodge with Cunning, Block with Stature.
  const attribute: AttributeKey = which === 'dodge' ? 'cunning' : 'stature';
  return { skill: skillUse(c.def, which === 'dodge' ? 'Dodge' : 'Block', attribute), attribute, notes: [`${c.def.name} answers with a passive defense: ${which === 'dodge' ? 'Dodge + Cunning' : 'Block + Stature'}.`] };
}

function betterPassive(c: CharacterState): 'dodge' | 'block' {
  const d = skillUse(c.def, 'Dodge', 'cunning').dice + c.def.attributes.cunning;
  const k = skillUse(c.def, 'Block', 'stature').dice + c.def.attributes.stature;
  return k > d ? 'block' : 'dodge';
}

function declaredOrAutonomic(now: Snapshot, c: CharacterState, kind: 'parry' | 'block' | 'power', field: string): { skill: string; power?: string; autonomic?: string } {
  const declared = now.combat?.defenses[c.def.id];
  if (declared && declared.kind === kind) return declared;
  const auto = allows(c.def, 'autonomic-defense');
  if (auto) return { skill: '', autonomic: auto.name };
  throw new DomainError(
    'active-defense-not-declared',
    `${c.def.name} has not declared an action to ${kind === 'power' ? 'resist with a power' : kind}: an active defense is declared ahead with an action`,
    field,
    DEFENSE,
  );
}

function activePower(now: Snapshot, c: CharacterState, named: string | undefined, declared: { power?: string | undefined }, field: string): Answer {
  const p = findPower(c.def, named ?? declared.power ?? '') ?? c.def.powers.find((x) => x.activeDefense);
  if (!p) throw new DomainError('unknown-power', `${c.def.name} has no power to defend with`, field);
  if (!p.activeDefense) throw new DomainError('not-a-defense', `${p.name} is not a power that defends`, field, DEFENSE);
  return { skill: skillUse(c.def, p.skill, 'power'), attribute: 'power', notes: [`${c.def.name} defends actively with the power ${p.name}: ${p.skill} + Power.`] };
}

function attackDefense(now: Snapshot, c: CharacterState, weapon: Weapon, cmd: CommandOf<'attack'>): Answer {
  const declared = now.combat?.defenses[c.def.id];
  const choice: DefenseChoice = cmd.defense ?? (declared ? (declared.kind === 'block' ? 'shield' : declared.kind) : betterPassive(c));
  switch (choice) {
    case 'dodge':
    case 'block':
      return passive(c, choice);
    case 'resist':
      throw new DomainError('defense-not-allowed', 'Resist answers Power and Interaction Challenges, not attacks: dodge, block, or an active defense', 'defense', rule('core', 'Defense'));
    case 'power': {
      const d = declaredOrAutonomic(now, c, 'power', 'defense');
      return activePower(now, c, cmd.defensePower, d, 'defensePower');
    }
    case 'parry': {
      const d = declaredOrAutonomic(now, c, 'parry', 'defense');
      const name = cmd.defenseSkill ?? (d.skill || c.def.skills.find((s) => s.weapon && findWeapon(c.def, s.weapon)?.range === 'melee')?.name);
      const s = name ? findSkill(c.def, name) : undefined;
      if (!s || !s.weapon) throw new DomainError('parry-needs-weapon', `${c.def.name} has no weapon skill${name ? ` "${name}"` : ''} to parry with`, 'defenseSkill', DEFENSE);
      const w = findWeapon(c.def, s.weapon);
      if (!w) throw new DomainError('unknown-weapon', `${c.def.name} does not carry ${s.weapon}`, 'defenseSkill');
      const any = allows(c.def, 'parry-any-weight');
      // Like against like: light parries light, heavy parries heavy (small and one-handed are light).
      if (weaponWeight(w) !== weaponWeight(weapon) && !any) {
        throw new DomainError(
          'illegal-parry',
          `like against like: ${c.def.name}'s ${w.name} (${w.size}, ${weaponWeight(w)}) cannot parry ${weapon.name === 'unarmed' ? 'an unarmed attack' : `a ${weapon.name}`} (${weapon.size}, ${weaponWeight(weapon)})`,
          'defense',
          DEFENSE,
        );
      }
      const use = { ...s, unskilled: false };
      const attribute = weaponAttribute(now, w, use);
      return { skill: use, attribute, notes: [`${c.def.name} parries with ${w.name} (${weaponWeight(w)} against ${weaponWeight(weapon)}${any ? `; ${any.name} allows any weight` : ''}): ${s.name} + ${cap(attribute)}.`] };
    }
    case 'shield': {
      const d = declaredOrAutonomic(now, c, 'block', 'defense');
      const name = cmd.defenseSkill ?? (d.skill || c.def.skills.find((s) => s.shield)?.name);
      const s = name ? findSkill(c.def, name) : undefined;
      if (!s || !s.shield) throw new DomainError('block-needs-shield', `${c.def.name} has no shield skill${name ? ` "${name}"` : ''}: blocking with a shield takes its own skill`, 'defenseSkill', DEFENSE);
      const sh = c.def.shields.find((x) => same(x.name, s.shield!));
      if (!sh) throw new DomainError('unknown-shield', `${c.def.name} does not carry ${s.shield}`, 'defenseSkill');
      // Heavy shields block any weapon; light shields only light weapons.
      if (sh.weight === 'light' && weaponWeight(weapon) === 'heavy') {
        throw new DomainError('illegal-block', `${c.def.name}'s light shield ${sh.name} cannot block a heavy ${weapon.name}`, 'defense', DEFENSE);
      }
      return { skill: { ...s, unskilled: false }, attribute: s.attribute, notes: [`${c.def.name} blocks with the ${sh.weight} shield ${sh.name}: ${s.name} + ${cap(s.attribute)}.`] };
    }
  }
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function attack(b: Batch, cmd: CommandOf<'attack'>, dice: DiceSource): void {
  const now = b.now;
  if (now.clock.stage !== 'violent') {
    throw new DomainError('not-violent', `an Attack Challenge is made in a violent encounter; this is a ${now.clock.stage === 'scene' ? 'scene' : `${now.clock.stage} encounter`}: escalate first`, 'type', rule('core', 'Escalation'));
  }
  const who = requireTurn(b, cmd.actor, 'actor');
  const ids = targetsOf(cmd);
  const targets = ids.map((id, i) => opponent(now, id, who, cmd.targets ? `targets[${i}]` : 'target'));
  const { weapon, skill } = attackWeapon(who, cmd);
  const attribute = weaponAttribute(now, weapon, skill);
  const together = concerted(b, who, cmd.concerted, ids);
  const spent = spending(now, who, cmd.spend, skill.name, 'attack', targets.length);
  if (spent?.ability?.effect.feat === 'injure-outright') {
    for (const t of targets) {
      if (talliedStatus(now, t) !== 'unharmed') {
        throw new DomainError('no-effect', `${spent.ability.name} brings a target to ${STATUS_LABEL[ladder(t.def)[0]!]}; ${t.def.name} is already ${STATUS_LABEL[talliedStatus(now, t)]}`, 'spend.ability', rule('core', 'What Special Abilities Can Do'));
      }
    }
  }
  const plans: Plan[] = targets.map((t) => ({
    kind: 'attack',
    who,
    target: t,
    actor: { skill, attribute, notes: [`${who.def.name} attacks with ${weapon.name === 'unarmed' ? 'an unarmed strike (a small bludgeon)' : weapon.name}: ${skill.name} + ${cap(attribute)}${weapon.range === 'ranged' ? ' (ranged)' : ''}.`] },
    reactor: attackDefense(now, t, weapon, cmd),
    purpose: cmd.purpose ?? `strike ${t.def.name}`,
  }));
  runChallenges(b, cmd, plans, dice, { concerted: together, spend: spent, what: `attacks ${targets.map((t) => t.def.name).join(', ')}`, usesAction: true }, (plan, ran) => {
    if (ran.result.outcome !== 'success') return;
    const base: Labeled = together
      ? { value: together.participants.length, source: `concerted effort of ${together.participants.length}` }
      : { value: weapon.hits, source: weapon.name === 'unarmed' ? 'unarmed strike' : weapon.name };
    const hits: Labeled[] = [base, ...ran.actorSide.extraHits];
    let outright: string | undefined;
    if (spent && spent.extraHits > 0) {
      spend(b, spent.bank, who.def.id, spent.extraHits, `${spent.extraHits} extra hit(s) on ${plan.target.def.name}`);
      hits.push({ value: spent.extraHits, source: 'criticals spent' });
    }
    if (spent?.ability && (spent.ability.effect.feat === 'injure-outright' || spent.ability.effect.feat === 'extra-hits')) {
      spend(b, spent.bank, who.def.id, spent.ability.effect.cost, `${spent.ability.name} on ${plan.target.def.name}`);
      if (spent.ability.effect.feat === 'injure-outright') outright = spent.ability.name;
      else hits.push({ value: spent.ability.effect.amount ?? 1, source: spent.ability.name });
    }
    inflict(b, who.def.id, plan.target.def.id, hits, outright);
  });
}

// ---------------------------------------------------------------------------------------------
// Power Challenges and powers (personae-core-2011.txt "Power Combat", "Duration / Duration Identifiers").

function powerDefense(now: Snapshot, c: CharacterState, cmd: CommandOf<'power'>): Answer {
  const declared = now.combat?.defenses[c.def.id];
  const choice: DefenseChoice = cmd.defense ?? (declared?.kind === 'power' ? 'power' : 'resist');
  const section = rule('core', 'Power Combat');
  switch (choice) {
    case 'resist':
      return { skill: skillUse(c.def, 'Resist', 'power'), attribute: 'power', notes: [`${c.def.name} resists: Resist + Power.`] };
    case 'dodge':
    case 'block': {
      const ability = allows(c.def, choice === 'dodge' ? 'dodge-powers' : 'block-powers');
      if (!ability) {
        throw new DomainError(`no-${choice === 'dodge' ? 'dodging' : 'blocking'}-powers`, `${c.def.name} cannot ${choice} a supernatural attack without a power or special ability that allows it`, 'defense', section);
      }
      const p = passive(c, choice);
      return { ...p, notes: [...p.notes, `${ability.name} allows it.`] };
    }
    case 'power': {
      const d = declaredOrAutonomic(now, c, 'power', 'defense');
      return activePower(now, c, cmd.defensePower, d, 'defensePower');
    }
    case 'parry':
    case 'shield':
      throw new DomainError('defense-not-allowed', `${c.def.name} cannot ${choice === 'parry' ? 'parry' : 'block'} a power: it is resisted`, 'defense', section);
  }
}

function startEffect(b: Batch, who: CharacterState, p: CombatantPower, targets: readonly string[]): void {
  const now = b.now;
  // Outside a violent encounter an Instant power is over as soon as it is used.
  if (p.duration === 'instant' && !now.combat) return;
  b.emit({
    type: 'effect-started',
    effect: {
      id: now.nextEffectId,
      power: p.name,
      owner: who.def.id,
      targets,
      duration: p.duration,
      ...(p.grants ? { grants: p.grants } : {}),
      maintainedRound: now.combat?.round ?? 0,
      encounter: inEncounter(now.clock) ? now.clock.encounter : null,
    },
  });
}

export function power(b: Batch, cmd: CommandOf<'power'>, dice: DiceSource): void {
  const now = b.now;
  const who = requireTurn(b, cmd.actor, 'actor');
  const p = findPower(who.def, cmd.power);
  if (!p) throw new DomainError('unknown-power', `${who.def.name} has no power "${cmd.power}"`, 'power');
  const ids = targetsOf(cmd, p.kind === 'harm' ? undefined : who.def.id);
  if (ids.length > p.targets) {
    throw new DomainError('too-many-targets', `${p.name} affects ${p.targets} target${p.targets === 1 ? '' : 's'}, ${ids.length} named`, 'targets', rule('core', 'The Framework of Advancement'));
  }
  const challenged = p.challenge ?? p.kind === 'harm';
  const what = `uses ${p.name}`;
  if (!challenged) {
    const targets = ids.map((id, i) => {
      const t = getCharacter(now, id, cmd.targets ? `targets[${i}]` : 'target');
      if (!t.present) throw new DomainError('not-present', `${t.def.name} is not in this scene`, 'target');
      return t;
    });
    if (cmd.spend) throw new DomainError('spend-not-applicable', `${p.name} is used without a challenge: no criticals to spend on it`, 'spend');
    const actorSide = buildSide(now, { who, skill: skillUse(who.def, p.skill, 'power'), attribute: 'power', role: 'issue', kind: 'power', abilities: cmd.abilities ?? [] }, 'abilities');
    checkAbilityLimit(b, who, actorSide.chosen, 'abilities');
    checkAbilityUses(now, who, actorSide.chosen, 'abilities');
    takeAction(b, who, `${what} on ${targets.map((t) => t.def.name).join(', ')}`);
    recordAbility(b, who, actorSide.chosen);
    if (p.kind === 'heal') for (const t of targets) heal(b, who.def.id, t.def.id, p.heals ?? { hits: 1, statuses: 0 }, p.name);
    else if (p.kind === 'harm') for (const t of targets) inflict(b, who.def.id, t.def.id, [{ value: p.hits, source: p.name }]);
    startEffect(b, who, p, targets.map((t) => t.def.id));
    return;
  }
  const targets = ids.map((id, i) => opponent(now, id, who, cmd.targets ? `targets[${i}]` : 'target'));
  const skill = skillUse(who.def, p.skill, 'power');
  const spent = spending(now, who, cmd.spend, skill.name, 'power', targets.length);
  const plans: Plan[] = targets.map((t) => ({
    kind: 'power',
    who,
    target: t,
    // personae-core-2011.txt "Power Combat": the practitioner's supernatural skill + Power against Resist + Power.
    actor: { skill, attribute: 'power', notes: [`${who.def.name} issues a Power Challenge with ${p.name}: ${skill.name} + Power.`] },
    reactor: powerDefense(now, t, cmd),
    purpose: cmd.purpose ?? (p.kind === 'harm' ? `strike ${t.def.name} with ${p.name}` : `bring ${p.name} upon ${t.def.name}`),
  }));
  const affected: string[] = [];
  runChallenges(b, cmd, plans, dice, { spend: spent, what, usesAction: true }, (plan, ran) => {
    if (ran.result.outcome !== 'success') return;
    affected.push(plan.target.def.id);
    if (p.kind === 'harm') {
      const hits: Labeled[] = [{ value: p.hits, source: p.name }, ...ran.actorSide.extraHits];
      if (spent && spent.extraHits > 0) {
        spend(b, spent.bank, who.def.id, spent.extraHits, `${spent.extraHits} extra hit(s) on ${plan.target.def.name}`);
        hits.push({ value: spent.extraHits, source: 'criticals spent' });
      }
      inflict(b, who.def.id, plan.target.def.id, hits);
    } else if (p.kind === 'heal') {
      heal(b, who.def.id, plan.target.def.id, p.heals ?? { hits: 1, statuses: 0 }, p.name);
    }
  });
  if (p.kind !== 'harm' && affected.length) startEffect(b, who, p, affected);
}

// ---------------------------------------------------------------------------------------------
// Interaction Challenges and what a character knows.

const NON_VIOLENT = rule('core', 'Non-Violent Encounters');

/** Fields a subsequent challenge cannot take: it compares the roll already made, nothing is added. */
const NOT_IN_SUBSEQUENT = ['dice', 'targetDice', 'abilities', 'reactorAbilities', 'expertise', 'reactorExpertise', 'assistants', 'concerted', 'spend', 'modifiers', 'reactorModifiers', 'reactorSkill', 'reactorAttribute', 'attribute'] as const;

/**
 * personae-core-2011.txt "Non-Violent Encounters": an extended non-violent challenge may be "one
 * initial Challenge followed by a series of subsequent Challenges" (option nonViolentExtended =
 * subsequent-challenges). "Subsequent vs. Additional Challenges": issued immediately after the
 * initial one, with the next-highest dice rolled, and answered the same way: no die is rolled.
 */
function interactSubsequent(b: Batch, cmd: CommandOf<'interact'>, who: CharacterState, target: CharacterState): void {
  const now = b.now;
  const option = now.options.nonViolentExtended;
  if (option !== 'subsequent-challenges') {
    throw new DomainError(
      'subsequent-not-used',
      `this table resolves extended non-violent challenges ${option === 'health-track' ? 'with a resolve track' : 'as separate challenges'} (option nonViolentExtended = ${option}): each interaction is rolled afresh`,
      'subsequent',
      NON_VIOLENT,
    );
  }
  if (now.clock.stage !== 'non-violent') {
    throw new DomainError('not-non-violent', `subsequent challenges carry on an extended challenge in a non-violent encounter; this is a ${now.clock.stage === 'scene' ? 'scene' : `${now.clock.stage} encounter`}`, 'subsequent', NON_VIOLENT);
  }
  const section = rule('core', 'Subsequent vs. Additional Challenges');
  const last = now.lastChallenge;
  if (!last || last.kind !== 'interaction' || last.actor !== who.def.id || last.reactor !== target.def.id || last.encounter !== now.clock.encounter) {
    throw new DomainError(
      'no-initial-challenge',
      `a subsequent challenge follows at once an Interaction Challenge ${who.def.name} issued to ${target.def.name} in this encounter, and the last challenge at the table was not one`,
      'subsequent',
      section,
    );
  }
  if (!same(last.skill, cmd.skill)) throw new DomainError('subsequent-skill', `the initial challenge was issued with ${last.skill}; a subsequent one carries on with the same roll`, 'skill', section);
  const extra = NOT_IN_SUBSEQUENT.find((f) => cmd[f] !== undefined);
  if (extra) throw new DomainError('subsequent-fixed', `a subsequent challenge compares the next-highest dice of the roll already made: "${extra}" cannot be given`, extra, section);
  if (last.result.actor.dice.length < 2) {
    throw new DomainError('no-dice-left', `${who.def.name} has no next-highest die left in that roll to issue a subsequent challenge with`, 'subsequent', section);
  }
  takeAction(b, who, `presses on against ${target.def.name} with a subsequent challenge`);
  const result = resolveSubsequent(last.result, now.options);
  b.emit({
    type: 'challenge-resolved',
    kind: 'interaction',
    actor: who.def.id,
    reactor: target.def.id,
    skill: last.skill,
    reactorSkill: last.reactorSkill,
    purpose: cmd.purpose ?? `press on against ${target.def.name}`,
    result,
    notes: [
      `Subsequent challenge (${section}; option nonViolentExtended = subsequent-challenges): the next-highest dice of the previous roll, with the same modifiers.`,
      'The natural 10s of that roll were counted when it was made: no critical is banked again.',
    ],
  });
}

/**
 * personae-core-2011.txt "Non-Violent Encounters": "a system similar to a character's Health" for
 * extended non-violent challenges (option nonViolentExtended = health-track). Each interaction
 * challenge won against a character wears its resolve by one; the track holds 1 + the attribute it
 * answered with (as hits before Injured hold 1 + Stature), set when it is first worn in the encounter.
 */
function wearResolve(b: Batch, by: CharacterState, target: CharacterState, attribute: AttributeKey): void {
  const now = b.now;
  const encounter = now.clock.encounter;
  const track = target.resolve?.encounter === encounter ? target.resolve : null;
  const size = track?.size ?? 1 + Math.max(0, target.def.attributes[attribute]);
  const before = track?.worn ?? 0;
  const after = Math.min(size, before + 1);
  b.emit({ type: 'resolve-worn', target: target.def.id, by: by.def.id, encounter, before, after, size, attribute: track?.attribute ?? attribute, yielded: after >= size });
}

export function interact(b: Batch, cmd: CommandOf<'interact'>, dice: DiceSource): void {
  const now = b.now;
  const who = requireTurn(b, cmd.actor, 'actor');
  const target = opponent(now, cmd.target, who, 'target');
  if (cmd.subsequent) {
    interactSubsequent(b, cmd, who, target);
    return;
  }
  const track = now.options.nonViolentExtended === 'health-track' && now.clock.stage === 'non-violent';
  if (track && target.resolve?.encounter === now.clock.encounter && target.resolve.yielded) {
    throw new DomainError('yielded', `${target.def.name} has already yielded in this encounter (option nonViolentExtended = health-track)`, 'target', NON_VIOLENT);
  }
  const skill = skillUse(who.def, cmd.skill, cmd.attribute ?? 'competence');
  const attribute = cmd.attribute ?? skill.attribute;
  // personae-core-2011.txt "Defense": Interaction Challenges are answered with Resist + Power by default.
  const reactorSkill = skillUse(target.def, cmd.reactorSkill ?? 'Resist', cmd.reactorAttribute ?? 'power');
  const reactorAttribute = cmd.reactorAttribute ?? reactorSkill.attribute;
  const together = concerted(b, who, cmd.concerted, [target.def.id]);
  const spent = spending(now, who, cmd.spend, skill.name, 'interaction', 1);
  const plan: Plan = {
    kind: 'interaction',
    who,
    target,
    actor: { skill, attribute, notes: [`${who.def.name} issues an Interaction Challenge: ${skill.name} + ${cap(attribute)}.`] },
    reactor: { skill: reactorSkill, attribute: reactorAttribute, notes: [`${target.def.name} answers with ${reactorSkill.name} + ${cap(reactorAttribute)}.`] },
    purpose: cmd.purpose ?? `sway ${target.def.name}`,
  };
  runChallenges(b, cmd, [plan], dice, { concerted: together, spend: spent, what: `challenges ${target.def.name} with ${skill.name}`, usesAction: true }, (_plan, ran) => {
    if (track && ran.result.outcome === 'success') wearResolve(b, who, b.now.characters[target.def.id]!, reactorAttribute);
  });
}

/**
 * personae-core-2011.txt "What Your Character Knows": a "virtual" Interaction Challenge. If the
 * character never hid the answer, it is given at once; otherwise one die (or a skill for learning
 * such things) + Knowledge against the skill that hid it, one die + Cunning by default.
 */
export function inquire(b: Batch, cmd: CommandOf<'inquire'>, dice: DiceSource): void {
  const now = b.now;
  const who = requireTurn(b, cmd.actor, 'actor');
  const target = getCharacter(now, cmd.target, 'target');
  if (target.def.id === who.def.id) throw new DomainError('self-target', 'a character knows what it knows', 'target');
  const section = rule('core', 'What Your Character Knows');
  if (!cmd.hidden) {
    takeAction(b, who, `asks about ${target.def.name}`, false);
    b.emit({ type: 'virtual-answered', actor: who.def.id, target: target.def.id, question: cmd.question, explanation: `${target.def.name} did nothing to hide it: the answer is given, no roll (${section}).` });
    return;
  }
  const skill: SkillUse = cmd.skill ? { ...skillUse(who.def, cmd.skill, 'knowledge'), attribute: 'knowledge' } : { name: 'one die', dice: 1, attribute: 'knowledge', unskilled: false };
  const reactorSkill: SkillUse = cmd.reactorSkill ? skillUse(target.def, cmd.reactorSkill, 'cunning') : { name: 'one die', dice: 1, attribute: 'cunning', unskilled: false };
  const spent = spending(now, who, cmd.spend, skill.name, 'virtual', 1);
  const plan: Plan = {
    kind: 'virtual',
    who,
    target,
    actor: { skill, attribute: 'knowledge', notes: [`What ${who.def.name} knows (${section}): ${skill.name === 'one die' ? 'one die' : skill.name} + Knowledge.`] },
    reactor: { skill: reactorSkill, attribute: reactorSkill.attribute, notes: [`${target.def.name} hid it: ${reactorSkill.name === 'one die' ? 'one die' : reactorSkill.name} + ${cap(reactorSkill.attribute)}.`] },
    purpose: `learn "${cmd.question}"`,
  };
  runChallenges(b, cmd, [plan], dice, { spend: spent, what: `asks what ${target.def.name} hid: "${cmd.question}"`, usesAction: true }, () => {});
}

// ---------------------------------------------------------------------------------------------
// Recovery (personae-core-2011.txt "Healing and Recovery").

/** The GM's dice against a recovery: 1 up to Injured, 2 Wounded, 3 Incapacitated, 4 Dying. */
export const RECOVERY_DICE = { unharmed: 1, injured: 1, wounded: 2, incapacitated: 3, dying: 4, dead: 4 } as const;

export function recover(b: Batch, cmd: CommandOf<'recover'>, dice: DiceSource): void {
  const now = b.now;
  const section = rule('core', 'Healing and Recovery');
  const id = cmd.target ?? cmd.actor;
  if (cmd.actor !== 'gm' && id !== cmd.actor) throw new DomainError('recover-self', 'a character attempts its own recovery; others may assist', 'target', section);
  const who = getCharacter(now, id, 'target');
  const scene = now.clock.scene;
  const status = talliedStatus(now, who);
  if (status === 'dead') throw new DomainError('cannot-recover', `${who.def.name} is dead`, 'target', section);
  if (who.hits === 0) throw new DomainError('nothing-to-recover', `${who.def.name} has no hits to recover from`, 'target', section);
  if (who.lastRecoveryScene === scene) throw new DomainError('recovery-once-per-scene', `${who.def.name} has already attempted recovery this scene`, 'type', section);
  if (now.clock.stage === 'violent') {
    if (status !== 'unharmed' && status !== 'injured') {
      throw new DomainError('recovery-during-violence', `${who.def.name} is ${STATUS_LABEL[status]}: during a violent encounter only a character no worse than Injured may attempt recovery`, 'type', section);
    }
    if (cmd.actor !== 'gm') requireTurn(b, id, 'actor');
  }
  if (who.recoverFromScene > scene) {
    throw new DomainError('recovery-too-soon', `${who.def.name} may next attempt recovery in scene ${who.recoverFromScene} (this is scene ${scene})`, 'type', section);
  }
  if (status === 'dying' && !who.stabilized) throw new DomainError('not-stabilized', `${who.def.name} is Dying and must be stabilized first`, 'target', section);
  const skill = skillUse(who.def, 'Recovery', 'stature');
  const helpers = assistants(b, who, cmd.assistants, [], 'recovery', skill.name);
  const actorSide = buildSide(now, { who, skill, attribute: 'stature', role: 'issue', kind: 'recovery', abilities: cmd.abilities ?? [], ...(cmd.dice?.actor ? { given: cmd.dice.actor } : {}) }, 'abilities');
  checkAbilityLimit(b, who, actorSide.chosen, 'abilities');
  checkAbilityUses(now, who, actorSide.chosen, 'abilities');
  const gmDice = RECOVERY_DICE[status];
  const spec: OpposedChallengeSpec = {
    actor: actorSide.spec,
    reactor: {
      name: 'GM',
      pool: { base: gmDice, baseSource: `GM's recovery dice against ${STATUS_LABEL[status]}` },
      modifiers: [{ value: who.hits, source: 'hits sustained' }],
      ...(cmd.dice?.reactor ? { given: cmd.dice.reactor } : {}),
    },
    ...(helpers.length ? { assistants: helpers.map((h) => ({ name: h.who.def.name })) } : {}),
    ...(actorSide.steer.length ? { steer: actorSide.steer } : {}),
  };
  takeAction(b, who, 'attempts recovery', false);
  recordAbility(b, who, actorSide.chosen);
  for (const a of helpers) if (now.combat?.assists[a.who.def.id] !== undefined) b.emit({ type: 'assist-spent', actor: a.who.def.id });
  const result = resolveChallenge(spec, dice, now.options);
  b.emit({
    type: 'challenge-resolved',
    kind: 'recovery',
    actor: who.def.id,
    reactor: 'gm',
    skill: skill.name,
    reactorSkill: `${gmDice} GM ${gmDice === 1 ? 'die' : 'dice'}`,
    purpose: `recover from ${who.hits} hit(s) (${STATUS_LABEL[status]})`,
    result,
    notes: [`Recovery Challenge (${section}): ${who.def.name} rolls ${skill.unskilled ? 'one die' : skill.name} + Stature against the GM's ${gmDice} dice + ${who.hits} hits sustained.`, ...actorSide.notes],
  });
  bankCriticals(b, who, result.criticals.actor, 'natural 10s in a recovery challenge');
  bankCriticals(b, 'gm', result.criticals.reactor, "the GM's natural 10s against a recovery");
  b.emit({ type: 'recovery-set', target: id, lastRecoveryScene: scene, reason: 'one recovery challenge a scene' });
  if (result.outcome !== 'success') return;
  recoverySuccess(b, who, status, scene);
}

function recoverySuccess(b: Batch, who: CharacterState, status: ReturnType<typeof talliedStatus>, scene: number): void {
  const now = b.now;
  const id = who.def.id;
  const t = threshold(who.def, now.options);
  const steps = ladder(who.def);
  const level = steps.indexOf(status as (typeof steps)[number]);
  const setHits = (after: number, reason: string) => {
    if (after !== who.hits) b.emit({ type: 'hits-removed', target: id, before: who.hits, after, reason });
  };
  const next = { type: 'recovery-set' as const, target: id, recoverFromScene: scene + 1 };
  if (status === 'unharmed') {
    setHits(0, 'recovered: every hit short of Injured is removed');
  } else if (level === 0 && status === 'injured') {
    const removed = Math.floor(who.hits / 2);
    setHits(who.hits - removed, `recovered from Injured: half the hits (${removed}, rounded down) are removed now`);
    b.emit({ ...next, healLater: { hits: who.hits - removed, atEndOfScene: scene + 1 }, reason: 'the other half are removed at the end of the following scene' });
  } else if ((status === 'incapacitated' || status === 'dying') && !who.conscious) {
    b.emit({ type: 'consciousness-changed', target: id, conscious: true, reason: `recovered, though still ${STATUS_LABEL[status]}` });
    b.emit({
      ...next,
      ...(status === 'incapacitated' ? { relapse: true } : {}),
      reason:
        status === 'incapacitated'
          ? 'may act normally; acting in a violent encounter before a non-violent encounter is completed knocks it out again; recovery from Incapacitated at the end of the following scene'
          : 'still unable to act normally; recovery from Dying at the end of the following scene',
    });
  } else {
    // One status rolled back: the hit that reached it is removed.
    const after = level > 0 ? t + level - 1 : t - 1;
    setHits(after, `recovered: ${STATUS_LABEL[status]} rolled back one status`);
    b.emit({ ...next, reason: 'the next recovery comes in the following scene' });
  }
  applyStatusNow(b, id, 'recovery');
}
