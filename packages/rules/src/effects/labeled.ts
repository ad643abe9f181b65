/** A labelled number: every modifier and every die added or removed says where it came from. */
export interface Labeled {
  readonly value: number;
  readonly source: string;
}

export function sumLabeled(items: readonly Labeled[]): number {
  let total = 0;
  for (let i = 0; i < items.length; i++) total += items[i]!.value;
  return total;
}

/** "+3 Stature", "-1 die Injured" */
export function formatLabeled(item: Labeled, unit = ''): string {
  return formatValue(item.value, item.source, unit);
}

/** formatLabeled for a value and its source not held in a Labeled. */
export function formatValue(value: number, source: string, unit = ''): string {
  const sign = value >= 0 ? '+' : '-';
  const n = Math.abs(value);
  const u = unit === 'die' ? (n === 1 ? ' die' : ' dice') : unit;
  return `${sign}${n}${u} ${source}`;
}
