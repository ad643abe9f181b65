/** A labelled number: every modifier and every die added or removed says where it came from. */
export interface Labeled {
  readonly value: number;
  readonly source: string;
}

export function sumLabeled(items: readonly Labeled[]): number {
  return items.reduce((total, item) => total + item.value, 0);
}

/** "+3 Stature", "-1 die Injured" */
export function formatLabeled(item: Labeled, unit = ''): string {
  const sign = item.value >= 0 ? '+' : '-';
  const n = Math.abs(item.value);
  const u = unit === 'die' ? (n === 1 ? ' die' : ' dice') : unit;
  return `${sign}${n}${u} ${item.source}`;
}
