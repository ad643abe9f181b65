/**
 * The comparison at the heart of every challenge (personae-core-2011.txt "The Challenge", steps 2-4;
 * personae-v4-srd-playing.txt "The Challenge"): both sides sort their dice high to low and add their
 * modifier to each die in turn; the first pair that differs decides. When every pair ties, the side
 * that still has dice left wins; when neither has, it is a full tie.
 */
export type Side = 'actor' | 'reactor';
export type DecidedBy = number | 'extra-dice' | null;

export interface CompareStep {
  /** 1-based position of the pair. */
  readonly position: number;
  readonly actor: { readonly die: number; readonly total: number };
  readonly reactor: { readonly die: number; readonly total: number };
  readonly result: Side | 'tie';
}

export interface RawComparison {
  readonly winner: Side | null;
  /** 1-based position of the pair that decided, "extra-dice" when leftover dice decided, null on a full tie. */
  readonly decidedBy: DecidedBy;
  /** Whether the highest dice (with modifiers) tied: the srd-v4 natural-10 rules turn on this. */
  readonly topTie: boolean;
  /** Natural (unmodified) 10s among the dice each side compared. */
  readonly actorTens: number;
  readonly reactorTens: number;
  readonly steps: readonly CompareStep[];
}

export function countTens(dice: readonly number[]): number {
  let n = 0;
  for (let i = 0; i < dice.length; i++) if (dice[i] === 10) n++;
  return n;
}

/**
 * Where two pools already sorted high to low part, without building the step log (the simulator's hot
 * path): the 1-based position of the deciding pair, positive when the actor's total was higher and
 * negative when the reactor's was; +/-(pairs + 1) when every pair tied and that side has dice left;
 * 0 on a full tie.
 */
export function decidingPair(actor: readonly number[], actorModifier: number, reactor: readonly number[], reactorModifier: number): number {
  const pairs = Math.min(actor.length, reactor.length);
  for (let i = 0; i < pairs; i++) {
    const a = actor[i]! + actorModifier;
    const r = reactor[i]! + reactorModifier;
    if (a !== r) return a > r ? i + 1 : -(i + 1);
  }
  return actor.length === reactor.length ? 0 : actor.length > reactor.length ? pairs + 1 : -(pairs + 1);
}

/** Compare two pools already sorted high to low. */
export function compareDice(actor: readonly number[], actorModifier: number, reactor: readonly number[], reactorModifier: number): RawComparison {
  const at = decidingPair(actor, actorModifier, reactor, reactorModifier);
  const pairs = Math.min(actor.length, reactor.length);
  const compared = at === 0 ? pairs : Math.min(Math.abs(at), pairs);
  const steps: CompareStep[] = [];
  for (let i = 0; i < compared; i++) {
    const a = actor[i]! + actorModifier;
    const r = reactor[i]! + reactorModifier;
    steps.push({ position: i + 1, actor: { die: actor[i]!, total: a }, reactor: { die: reactor[i]!, total: r }, result: a > r ? 'actor' : a < r ? 'reactor' : 'tie' });
  }
  const actorTens = countTens(actor);
  const reactorTens = countTens(reactor);
  if (at === 0) return { winner: null, decidedBy: null, topTie: true, actorTens, reactorTens, steps };
  const winner: Side = at > 0 ? 'actor' : 'reactor';
  if (Math.abs(at) > pairs) return { winner, decidedBy: 'extra-dice', topTie: true, actorTens, reactorTens, steps };
  return { winner, decidedBy: Math.abs(at), topTie: Math.abs(at) > 1, actorTens, reactorTens, steps };
}

/**
 * The literal 2011 unopposed comparison (personae-core-2011.txt "Unopposed Challenges", "Roll the
 * Challenge"): only the highest dice count, and meeting the target succeeds.
 */
export function compareHighestMeets(player: readonly number[], playerModifier: number, gm: readonly number[], target: number): RawComparison {
  const p = (player[0] ?? 0) + playerModifier;
  const g = (gm[0] ?? 0) + target;
  const step: CompareStep = {
    position: 1,
    actor: { die: player[0] ?? 0, total: p },
    reactor: { die: gm[0] ?? 0, total: g },
    result: p > g ? 'actor' : p < g ? 'reactor' : 'tie',
  };
  return {
    winner: p >= g ? 'actor' : 'reactor',
    decidedBy: 1,
    topTie: p === g,
    actorTens: countTens(player),
    reactorTens: countTens(gm),
    steps: [step],
  };
}

/** In the tie-break reading a full tie still meets the target. */
export function meetsOnFullTie(raw: RawComparison): RawComparison {
  return raw.winner === null ? { ...raw, winner: 'actor', decidedBy: 'extra-dice' } : raw;
}
