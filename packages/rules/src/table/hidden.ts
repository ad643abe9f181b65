import { explainSide, outcomeLine, type ChallengeResult, type SideResult } from '../challenge';
import { describeEvent, type Combatant, type EncounterEvent, type OrderRoll, type Snapshot } from '../encounter';
import type { TableOptions } from '../options';

/**
 * What players and observers learn of characters hidden from them when those characters act in the
 * open: each public form below is built from the fields they may see, never by copying the event and
 * deleting the secret parts. Option hiddenSideShown says how much of a hidden side's roll is shown.
 */
export type HiddenSideShown = TableOptions['hiddenSideShown'];

/** Stored tables from before the option existed show the outcome only. */
export function hiddenSideShown(options: Partial<TableOptions>): HiddenSideShown {
  return options.hiddenSideShown ?? 'outcome';
}

/**
 * Whether a character that exists only in the encounter (it has no sheet) is hidden from players:
 * all are but the obstacles and hazards the GM left in the open (personae-core-2011.txt "Obstacles").
 */
export function encounterOnlyHidden(def: Combatant): boolean {
  return !(def.obstacle && !def.obstacle.hidden);
}

/** The word that stands for a skill or ability name the viewer may not see. */
export const WITHHELD = 'withheld';

/** Ids of the characters an encounter event speaks of. */
export function concernedIds(e: EncounterEvent): string[] {
  const ids = new Set<string>();
  const add = (v: unknown) => {
    if (typeof v === 'string' && v !== 'gm') ids.add(v);
  };
  const r = e as unknown as Record<string, unknown>;
  for (const key of ['actor', 'target', 'id', 'reactor', 'owner', 'primary', 'earnedBy']) add(r[key]);
  if (e.type === 'escalated' || e.type === 'de-escalated' || e.type === 'hits-sustained' || e.type === 'resolve-worn' || e.type === 'stabilized' || e.type === 'criticals-spent') add(e.by);
  if (e.type === 'criticals-given') {
    add(e.from);
    add(e.to);
  }
  if (e.type === 'effect-started') {
    add(e.effect.owner);
    e.effect.targets.forEach(add);
  }
  if (e.type === 'character-joined' || e.type === 'character-updated') add(e.character.id);
  if (e.type === 'set-up') e.characters.forEach((c) => add(c.id));
  if (e.type === 'order-set') e.rolls.forEach((roll) => add(roll.id));
  return [...ids];
}

function signed(n: number): string {
  return n >= 0 ? `+${n}` : `${n}`;
}

/** A hidden side as the viewer may see it: under `dice`, its dice and one summed modifier; under `outcome`, its name. */
function publicSide(side: SideResult, shown: HiddenSideShown): SideResult {
  if (shown === 'dice') {
    return {
      name: side.name,
      pool: { dice: side.pool.dice, base: side.pool.dice, bonus: [], penalty: [], explanation: `${side.pool.dice} ${side.pool.dice === 1 ? 'die' : 'dice'}` },
      roll: { sides: side.roll.sides, rolled: [...side.roll.rolled], sorted: [...side.roll.sorted], source: side.roll.source },
      rerolls: side.rerolls.map((r) => ({ source: WITHHELD, kind: r.kind, position: r.position, old: r.old, new: r.new, kept: r.kept })),
      ignored: [...side.ignored],
      dice: [...side.dice],
      modifiers: side.modifier === 0 ? [] : [{ value: side.modifier, source: 'in total' }],
      modifier: side.modifier,
      naturalTens: side.naturalTens,
      criticals: side.criticals,
    };
  }
  return {
    name: side.name,
    pool: { dice: 0, base: 0, bonus: [], penalty: [], explanation: 'not shown' },
    roll: { sides: side.roll.sides, rolled: [], sorted: [], source: side.roll.source },
    rerolls: [],
    ignored: [],
    dice: [],
    modifiers: [],
    modifier: 0,
    naturalTens: 0,
    criticals: 0,
  };
}

/** The visible side of a challenge against a hidden one: rerolls the hidden side forced on it do not name its ability. */
function visibleSide(side: SideResult): SideResult {
  if (!side.rerolls.some((r) => r.kind === 'forced')) return side;
  return { ...side, rerolls: side.rerolls.map((r) => (r.kind === 'forced' ? { ...r, source: WITHHELD } : r)) };
}

/**
 * A challenge as a viewer may see it when one side (or both) is hidden from them. Under `dice` the
 * hidden side keeps its dice, the pairs compared and the rulings, with its modifiers summed; under
 * `outcome` only the visible side's roll and the outcome remain.
 */
export function publicResult(result: ChallengeResult, secret: { actor: boolean; reactor: boolean }, shown: HiddenSideShown, options: Pick<TableOptions, 'armorIgnores'> & Partial<Pick<TableOptions, 'grades'>>): ChallengeResult {
  const actor = secret.actor ? publicSide(result.actor, shown) : visibleSide(result.actor);
  const reactor = secret.reactor ? publicSide(result.reactor, shown) : visibleSide(result.reactor);
  const lines: string[] = [];
  for (const [side, hidden] of [[actor, secret.actor], [reactor, secret.reactor]] as const) {
    if (hidden && shown === 'outcome') lines.push(`${side.name}'s side of the roll is not shown (option hiddenSideShown = outcome).`);
    else lines.push(...explainSide(side, result.kind, options));
  }
  if (shown === 'dice') {
    for (const s of result.steps) {
      const verdict = s.result === 'tie' ? 'tie' : `${s.result === 'actor' ? actor.name : reactor.name} wins`;
      lines.push(`Pair #${s.position}: ${s.actor.die}${signed(actor.modifier)} = ${s.actor.total} against ${s.reactor.die}${signed(reactor.modifier)} = ${s.reactor.total}: ${verdict}.`);
    }
  }
  lines.push(`${outcomeLine(result, options.grades !== 'core-2011')}.`);
  const criticals = { actor: secret.actor && shown === 'outcome' ? 0 : result.criticals.actor, reactor: secret.reactor && shown === 'outcome' ? 0 : result.criticals.reactor };
  const visible = [secret.actor && shown === 'outcome' ? null : `${actor.name} ${criticals.actor}`, secret.reactor && shown === 'outcome' ? null : `${reactor.name} ${criticals.reactor}`].filter((x) => x !== null);
  if (visible.length > 0) lines.push(`Criticals: ${visible.join(', ')}.`);
  return {
    kind: result.kind,
    actor,
    reactor,
    steps: shown === 'dice' ? result.steps : [],
    winner: result.winner,
    decidedBy: shown === 'dice' ? result.decidedBy : null,
    outcome: result.outcome,
    grade: result.grade,
    criticals,
    rulings: shown === 'dice' ? result.rulings : [],
    ...(result.difficulty ? { difficulty: result.difficulty } : {}),
    explanation: lines,
  };
}

/** The name a viewer reads for a character hidden from them that is not in the scene (they may not learn its name). */
export const UNSEEN = 'a hidden character';

/**
 * A roll of the roller as a viewer reads it when sides of it stand for characters hidden from them:
 * `names` gives each such side the name the viewer may read, and `shown` how much of its roll they
 * see (option hiddenSideShown for a roll made in the open; `dice` for a secret roll revealed, since a
 * reveal publishes the dice). Never the pool's breakdown, skill, ability or modifier names.
 */
export function rollerResult(result: ChallengeResult, names: { readonly actor?: string; readonly reactor?: string }, shown: HiddenSideShown, options: Pick<TableOptions, 'armorIgnores'> & Partial<Pick<TableOptions, 'grades'>>): ChallengeResult {
  const renamed: ChallengeResult = {
    ...result,
    actor: names.actor === undefined ? result.actor : { ...result.actor, name: names.actor },
    reactor: names.reactor === undefined ? result.reactor : { ...result.reactor, name: names.reactor },
  };
  return publicResult(renamed, { actor: names.actor !== undefined, reactor: names.reactor !== undefined }, shown, options);
}

function publicOrderRoll(roll: OrderRoll, name: string, shown: HiddenSideShown): OrderRoll {
  if (shown === 'dice') {
    const top = roll.dice.length ? Math.max(...roll.dice) : 0;
    return { id: roll.id, skill: WITHHELD, dice: [...roll.dice], modifier: roll.modifier, explanation: `${name}: rolled ${roll.dice.join(', ')}; ${signed(roll.modifier)} in total = ${top + roll.modifier}` };
  }
  return { id: roll.id, skill: WITHHELD, dice: [], modifier: 0, explanation: `${name}: its roll is not shown (option hiddenSideShown = outcome)` };
}

/**
 * An encounter event as a viewer who may not see the characters in `secret` receives it, or null
 * when nothing of it is theirs to see. `now` is the snapshot the event applied to or produced (for
 * names, which every viewer of a present character may see); `options` are the table's.
 */
export function publicEncounterEvent(e: EncounterEvent, secret: ReadonlySet<string>, options: TableOptions, now: Snapshot | null): EncounterEvent | null {
  const shown = hiddenSideShown(options);
  const concerned = concernedIds(e);
  if (!concerned.some((id) => secret.has(id))) return e;
  const name = (id: string) => now?.characters[id]?.def.name ?? id;
  const meta = { seq: e.seq, action: e.action };
  switch (e.type) {
    case 'set-up':
      return { ...meta, type: 'set-up', title: e.title, options: e.options, characters: e.characters.filter((c) => !secret.has(c.id)) };
    case 'order-set':
      return {
        ...meta,
        type: 'order-set',
        method: e.method,
        order: e.order,
        rolls: e.rolls.map((r) => (secret.has(r.id) ? publicOrderRoll(r, name(r.id), shown) : r)),
        explanation: e.explanation.map((line) => {
          const roll = e.rolls.find((r) => r.explanation === line && secret.has(r.id));
          return roll ? publicOrderRoll(roll, name(roll.id), shown).explanation : line;
        }),
      };
    case 'challenge-resolved': {
      const hidden = { actor: secret.has(e.actor), reactor: secret.has(e.reactor) };
      return {
        ...meta,
        type: 'challenge-resolved',
        kind: e.kind,
        actor: e.actor,
        reactor: e.reactor,
        skill: hidden.actor ? WITHHELD : e.skill,
        reactorSkill: hidden.reactor ? WITHHELD : e.reactorSkill,
        purpose: e.purpose,
        result: publicResult(e.result, hidden, shown, options),
        notes: [],
      };
    }
    case 'action-taken':
      return secret.has(e.actor) ? { ...meta, type: 'action-taken', actor: e.actor, what: 'acts', usesAction: e.usesAction } : e;
    // A hidden character's condition is public (its status and consciousness); its hits, abilities,
    // defenses, effects, criticals and resolve are not.
    case 'status-changed':
    case 'consciousness-changed':
    case 'died':
    case 'stabilized':
    case 'turn-began':
    case 'turn-skipped':
    case 'turn-ended':
    case 'moved':
    case 'character-left':
    case 'escalated':
    case 'de-escalated':
    case 'assist-declared':
    case 'assist-spent':
    case 'action-spent-ahead':
    case 'order-changed':
    case 'virtual-answered':
      return e;
    // What Taunt or Misdirection makes follow is its owner's to show: hidden with a hidden owner.
    case 'follow-up-pending':
      return secret.has(e.owner) ? null : e;
    default:
      return null;
  }
}

/**
 * The log lines a viewer reads for an encounter event that concerns characters hidden from them:
 * the words of the public event, and for the few events that have no public form, a line that says
 * what happened without how much.
 */
export function publicLines(e: EncounterEvent, secret: ReadonlySet<string>, options: TableOptions, before: Snapshot | null): string[] {
  const name = (id: string) => before?.characters[id]?.def.name ?? id;
  if (e.type === 'hits-sustained' && secret.has(e.target)) return [`${name(e.target)} is hit.`];
  if (e.type === 'resolve-worn' && secret.has(e.target)) return e.yielded ? [`${name(e.target)} yields to ${name(e.by)}.`] : [`${name(e.target)} gives ground.`];
  const visible = publicEncounterEvent(e, secret, options, before);
  return visible ? describeEvent(visible, before) : [];
}
