import type { DiceSource } from '@personae/dice';

/**
 * A small, fast generator for simulation: xoshiro128** (Blackman and Vigna), seeded through
 * splitmix32 from a seed and a stream number, so parallel workers draw independent streams and the same
 * seed gives the same answer. Dice are unbiased (rejection sampling).
 */
export class SimulationDice implements DiceSource {
  readonly kind = 'seeded' as const;
  private s0!: number;
  private s1!: number;
  private s2!: number;
  private s3!: number;

  constructor(seed: number, stream = 0) {
    this.restart(seed, stream);
  }

  /** Start again at the beginning of stream `stream` of `seed`, as a new generator would. */
  restart(seed: number, stream: number): void {
    if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a whole number, got ${seed}`);
    let x = (seed | 0) ^ Math.imul(Math.floor(seed / 0x1_0000_0000) | 0, 0x2c1b3c6d) ^ Math.imul(stream + 1, 0x9e3779b9);
    const mix = (): number => {
      x = (x + 0x9e3779b9) | 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      // Kept as signed 32-bit integers, as next() leaves them: the fields then always hold small
      // integers, which V8 stores and updates in place (a value of 2^31 or more would be a boxed
      // number, and its field slower for good).
      return z ^ (z >>> 16);
    };
    this.s0 = mix();
    this.s1 = mix();
    this.s2 = mix();
    this.s3 = mix();
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /** 32 random bits as a number in [0, 2^32). */
  next(): number {
    const s1 = this.s1;
    const m = Math.imul(s1, 5);
    const result = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = (this.s3 << 11) | (this.s3 >>> 21);
    return result;
  }

  /** One d10. */
  d10(): number {
    for (;;) {
      const x = this.next();
      if (x < 4294967290) return (x % 10) + 1;
    }
  }

  die(sides: number): number {
    if (!Number.isInteger(sides) || sides < 2 || sides > 1000) throw new RangeError(`a die needs a whole number of sides from 2 to 1000, got ${sides}`);
    const limit = 4294967296 - (4294967296 % sides);
    for (;;) {
      const x = this.next();
      if (x < limit) return (x % sides) + 1;
    }
  }
}
