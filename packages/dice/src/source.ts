import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';

/** Where a die result came from: a seeded generator, the cryptographic generator, or typed in from physical dice. */
export type DiceSourceKind = 'seeded' | 'crypto' | 'given';

/**
 * A source of die results. Rules code never rolls on its own: it asks the source it was handed,
 * so tests and simulations are reproducible and physical dice can be entered by hand.
 */
export interface DiceSource {
  readonly kind: DiceSourceKind;
  /** One die with faces 1..sides. */
  die(sides: number): number;
}

/** Raised when a given-dice source runs out or holds a value the die cannot show. */
export class DiceInputError extends Error {
  override readonly name = 'DiceInputError';
}

function assertSides(sides: number): void {
  if (!Number.isInteger(sides) || sides < 2 || sides > 1000) {
    throw new RangeError(`a die needs a whole number of sides from 2 to 1000, got ${sides}`);
  }
}

/** A fast, reproducible generator (xoroshiro128+) for tests, simulation and `--seed`. */
export function seededDice(seed: number): DiceSource {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a whole number, got ${seed}`);
  const rng = xoroshiro128plus((seed % 0x1_0000_0000) ^ Math.floor(seed / 0x1_0000_0000));
  return {
    kind: 'seeded',
    die(sides) {
      assertSides(sides);
      return uniformInt(rng, 1, sides);
    },
  };
}

/**
 * Unbiased cryptographic dice for live play: 32-bit values from the platform's CSPRNG
 * (Web Crypto, present in Node and browsers), with rejection sampling so every face is equally likely.
 */
export function cryptoDice(): DiceSource {
  const buffer = new Uint32Array(64);
  let index = buffer.length;
  const next = (): number => {
    if (index === buffer.length) {
      globalThis.crypto.getRandomValues(buffer);
      index = 0;
    }
    return buffer[index++]!;
  };
  return {
    kind: 'crypto',
    die(sides) {
      assertSides(sides);
      const limit = Math.floor(0x1_0000_0000 / sides) * sides;
      let value = next();
      while (value >= limit) value = next();
      return (value % sides) + 1;
    },
  };
}

/**
 * Results typed in from physical dice, used in the order given. Asking for more dice than were
 * given, or a value the die cannot show, is an error that names the die.
 */
export interface GivenDice extends DiceSource {
  /** How many given results have not been used yet. */
  remaining(): number;
}

export function givenDice(values: readonly number[]): GivenDice {
  const queue = [...values];
  let used = 0;
  return {
    kind: 'given',
    die(sides) {
      assertSides(sides);
      const value = queue[used];
      if (value === undefined) {
        throw new DiceInputError(`needed die #${used + 1} but only ${queue.length} result(s) were given`);
      }
      if (!Number.isInteger(value) || value < 1 || value > sides) {
        throw new DiceInputError(`die #${used + 1} is ${value}, but a d${sides} shows 1 to ${sides}`);
      }
      used++;
      return value;
    },
    remaining: () => queue.length - used,
  };
}
