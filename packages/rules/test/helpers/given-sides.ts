import { poolDice } from '@personae/core';
import type { DiceSource } from '@personae/dice';
import { resolveChallenge, resolveUnopposed, type ChallengeOptions, type ChallengeSideSpec, type OpposedChallengeSpec, type UnopposedChallengeSpec } from '../../src/index';

/** A side written with the faces of its initial roll, as a test knows them. */
export type GivenSide = ChallengeSideSpec & { readonly given?: readonly number[] };

function strip(side: GivenSide): ChallengeSideSpec {
  const { given: _given, ...rest } = side;
  return rest;
}

/** resolveChallenge with each side's known faces entered in its named pool ("actor", "reactor"). */
export function opposed(spec: Omit<OpposedChallengeSpec, 'actor' | 'reactor'> & { actor: GivenSide; reactor: GivenSide }, dice: DiceSource, options: ChallengeOptions) {
  const pools = { ...(spec.actor.given ? { actor: spec.actor.given } : {}), ...(spec.reactor.given ? { reactor: spec.reactor.given } : {}) };
  return resolveChallenge({ ...spec, actor: strip(spec.actor), reactor: strip(spec.reactor) }, poolDice(pools, dice), options);
}

/** resolveUnopposed with the player's known faces in pool "actor" and the GM's in pool "difficulty". */
export function unopposed(spec: Omit<UnopposedChallengeSpec, 'player'> & { player: GivenSide; gmGiven?: readonly number[] }, dice: DiceSource, options: ChallengeOptions) {
  const { gmGiven, ...rest } = spec;
  const pools = { ...(spec.player.given ? { actor: spec.player.given } : {}), ...(gmGiven ? { difficulty: gmGiven } : {}) };
  return resolveUnopposed({ ...rest, player: strip(spec.player) }, poolDice(pools, dice), options);
}
