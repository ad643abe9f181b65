/**
 * Binomial tables for the exact engine. When the m dice a side has left are all known to show at most
 * f, each shows exactly f with chance 1/f, so the number showing f is Binomial(m, 1/f): for f = 1 all of
 * them, for f = 10 the unconditioned count of natural 10s. Faces above 10 (and, for an emptied side,
 * below 1) hold no dice.
 */
export interface BinomialTables {
  /** The largest pool the tables cover. */
  readonly maxDice: number;
  /** Stride between rows: maxDice + 2 entries (counts 0..maxDice, and one more so tails can end at 0). */
  readonly rowLength: number;
  /** pmf[row(face, m) + c] = P(exactly c of m dice show `face`). */
  readonly pmf: Float64Array;
  /** tail[row(face, m) + c] = P(at least c of m dice show `face`). */
  readonly tail: Float64Array;
}

let current: BinomialTables = build(32);

/** Row offset of (face, remaining dice) in the tables. */
export function row(t: BinomialTables, face: number, remaining: number): number {
  const f = face < 1 ? 0 : face > 10 ? 11 : face;
  return (f * (t.maxDice + 1) + remaining) * t.rowLength;
}

/** Tables covering pools of at least `dice` dice. */
export function binomialTables(dice: number): BinomialTables {
  if (dice > current.maxDice) current = build(Math.max(dice, current.maxDice * 2));
  return current;
}

function build(maxDice: number): BinomialTables {
  const rowLength = maxDice + 2;
  const pmf = new Float64Array(12 * (maxDice + 1) * rowLength);
  const tail = new Float64Array(pmf.length);
  const t = { maxDice, rowLength, pmf, tail };
  for (let f = 0; f < 12; f++) {
    for (let m = 0; m <= maxDice; m++) {
      const base = row(t, f, m);
      if (f === 0 || f === 11) pmf[base] = 1;
      else if (f === 1) pmf[base + m] = 1;
      else {
        const p = 1 / f;
        const q = 1 - p;
        // C(m, c) p^c q^(m-c), built term by term from c = 0.
        let term = q ** m;
        for (let c = 0; c <= m; c++) {
          pmf[base + c] = term;
          term = (term * (m - c) * p) / ((c + 1) * q);
        }
      }
      let acc = 0;
      for (let c = m; c >= 0; c--) {
        acc += pmf[base + c]!;
        tail[base + c] = acc;
      }
    }
  }
  return t;
}
