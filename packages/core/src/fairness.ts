/**
 * A fairness check for dice typed in from physical dice: Pearson's chi-square goodness-of-fit test of
 * the faces entered against a fair die, and a z-score of the successes seen against the successes the
 * exact odds expected. Both say how much data they rest on, and neither is trusted on too little.
 */

/** ln Γ(x) for x > 0 (Lanczos approximation, g = 7, n = 9). */
function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
    -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  x -= 1;
  let a = c[0]!;
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/** The regularized upper incomplete gamma function Q(s, x) = Γ(s, x) / Γ(s). */
export function upperRegularizedGamma(s: number, x: number): number {
  if (x <= 0) return 1;
  if (x < s + 1) {
    // series for P(s, x), then Q = 1 - P
    let sum = 1 / s;
    let term = sum;
    for (let n = 1; n < 500; n++) {
      term *= x / (s + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * 1e-15) break;
    }
    return Math.max(0, 1 - sum * Math.exp(-x + s * Math.log(x) - logGamma(s)));
  }
  // continued fraction for Q(s, x) (modified Lentz)
  const tiny = 1e-300;
  let b = x + 1 - s;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 500; i++) {
    const an = -i * (i - s);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return Math.min(1, Math.exp(-x + s * Math.log(x) - logGamma(s)) * h);
}

export interface FaceFit {
  readonly sides: number;
  /** How many dice the test rests on. */
  readonly dice: number;
  /** Count of each face, index 0 for face 1. */
  readonly counts: readonly number[];
  readonly expectedPerFace: number;
  readonly chiSquare: number;
  readonly degreesOfFreedom: number;
  /** The chance a fair die gives a chi-square at least this large. */
  readonly pValue: number;
  /** False when there are fewer than 5 expected per face: the test is then not reliable. */
  readonly enoughData: boolean;
  /** True when enough data and pValue below the significance level. */
  readonly suspicious: boolean;
  readonly significance: number;
}

/** Pearson's chi-square test of the faces entered against a fair die with `sides` faces. */
export function faceFit(faces: readonly number[], sides: number, significance = 0.01): FaceFit {
  if (!Number.isInteger(sides) || sides < 2) throw new RangeError(`a die needs at least 2 sides, got ${sides}`);
  if (!(significance > 0 && significance < 1)) throw new RangeError(`the significance level must be between 0 and 1, got ${significance}`);
  const counts = new Array<number>(sides).fill(0);
  for (const f of faces) {
    if (!Number.isInteger(f) || f < 1 || f > sides) throw new RangeError(`a d${sides} shows 1 to ${sides}, got ${f}`);
    counts[f - 1]!++;
  }
  const n = faces.length;
  const expected = n / sides;
  let chi = 0;
  if (n > 0) for (const c of counts) chi += ((c - expected) * (c - expected)) / expected;
  const df = sides - 1;
  const pValue = n === 0 ? 1 : upperRegularizedGamma(df / 2, chi / 2);
  const enoughData = expected >= 5;
  return { sides, dice: n, counts, expectedPerFace: expected, chiSquare: chi, degreesOfFreedom: df, pValue, enoughData, suspicious: enoughData && pValue < significance, significance };
}

export interface OutcomeFit {
  /** How many challenges the comparison rests on. */
  readonly challenges: number;
  readonly successes: number;
  /** The sum of the exact chances of success of those challenges. */
  readonly expected: number;
  /** (successes - expected) / standard deviation; 0 when there is no spread. */
  readonly z: number;
}

/** Successes seen against the exact chances of the challenges rolled (a sum of independent Bernoulli trials). */
export function outcomeFit(rolls: readonly { readonly chance: number; readonly succeeded: boolean }[]): OutcomeFit {
  let expected = 0;
  let variance = 0;
  let successes = 0;
  for (const r of rolls) {
    if (!(r.chance >= 0 && r.chance <= 1)) throw new RangeError(`a chance is between 0 and 1, got ${r.chance}`);
    expected += r.chance;
    variance += r.chance * (1 - r.chance);
    if (r.succeeded) successes++;
  }
  const z = variance > 0 ? (successes - expected) / Math.sqrt(variance) : 0;
  return { challenges: rolls.length, successes, expected, z };
}
