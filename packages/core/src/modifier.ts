/**
 * A number added to (or taken from) a roll, a pool or a score, with where it came from, so that
 * every result can explain itself: "+1 Longsword Training", "-1 die Injured", "+20 Advantage".
 */
export interface Modifier {
  /** A stable id for the kind of modifier (e.g. "attribute", "training", "advantage"). */
  readonly slug: string;
  /** The words shown to people, without the sign (e.g. "Cunning", "Longsword Training"). */
  readonly label: string;
  readonly value: number;
  /** What applies it (a trait, a condition, an option), when that is not the label itself. */
  readonly source?: string;
}

export function modifier(slug: string, label: string, value: number, source?: string): Modifier {
  return source === undefined ? { slug, label, value } : { slug, label, value, source };
}

export function sumModifiers(mods: readonly Modifier[]): number {
  let total = 0;
  for (const m of mods) total += m.value;
  return total;
}

function signed(n: number): string {
  return n >= 0 ? `+${n}` : `${n}`;
}

/** "+4 Cunning", "-1 Injured (status)". `unit` is appended after the number ("die", "%"). */
export function describeModifier(m: Modifier, unit = ''): string {
  const amount = unit ? `${signed(m.value)} ${unit}` : signed(m.value);
  return m.source && m.source !== m.label ? `${amount} ${m.label} (${m.source})` : `${amount} ${m.label}`;
}

/** "12 +4 Cunning +1 Training = 17" */
export function explainTotal(base: number, mods: readonly Modifier[], baseLabel?: string): string {
  const parts = [baseLabel ? `${base} ${baseLabel}` : String(base), ...mods.map((m) => describeModifier(m))];
  return `${parts.join(' ')} = ${base + sumModifiers(mods)}`;
}
