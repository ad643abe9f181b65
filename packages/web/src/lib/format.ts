/** "62.5%", "<0.1%", "100%": probabilities for people, never a misleading 0% or 100%. */
export function percent(p: number): string {
  if (!Number.isFinite(p)) return '–';
  if (p <= 0) return '0%';
  if (p >= 1) return '100%';
  const v = p * 100;
  if (v < 0.1) return '<0.1%';
  if (v > 99.9) return '>99.9%';
  return `${v < 10 ? v.toFixed(1) : v.toFixed(1).replace(/\.0$/, '')}%`;
}

export function signed(n: number): string {
  return n >= 0 ? `+${n}` : `${n}`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function timeOf(iso: string | undefined | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/** A command id the server accepts: unique per browser tab. */
let counter = 0;
const prefix = Math.random().toString(36).slice(2, 10);
export function newCommandId(): string {
  counter += 1;
  return `web-${prefix}-${Date.now().toString(36)}-${counter}`;
}
