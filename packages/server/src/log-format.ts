/**
 * How the server's log reads. `json` (LOG_FORMAT=json) writes pino's JSON lines as they are, for log
 * collectors and for tests that read them. `text`, the default, writes one short line per entry for a
 * person at a terminal: the message, then the entry's own fields as name=value; warnings and errors
 * say so first, and an error adds its message.
 */
export type LogFormat = 'json' | 'text';

export const LOG_FORMATS: readonly LogFormat[] = ['json', 'text'];

/** Fields every pino entry carries: the text format leaves them out. */
const STANDARD = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'err', 'v']);

const LEVELS: Record<number, string> = { 10: 'trace: ', 20: 'debug: ', 30: '', 40: 'warning: ', 50: 'error: ', 60: 'fatal: ' };

function value(v: unknown): string {
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  return JSON.stringify(v) ?? String(v);
}

/** One pino JSON line as a line of text (a line that is not JSON passes through unchanged). */
export function textLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const level = typeof entry.level === 'number' ? (LEVELS[entry.level] ?? '') : '';
  const parts = [`${level}${typeof entry.msg === 'string' ? entry.msg : ''}`];
  const err = entry.err as { message?: unknown } | undefined;
  if (err && typeof err.message === 'string') parts[0] += `: ${err.message}`;
  for (const [k, v] of Object.entries(entry)) if (!STANDARD.has(k) && v !== undefined) parts.push(`${k}=${value(v)}`);
  return `${parts.join(' ')}\n`;
}

/** A pino destination writing text lines to `out` (the process's stdout by default). */
export function textLogStream(out: { write(s: string): unknown } = process.stdout): { write(line: string): void } {
  return { write: (line) => void out.write(textLine(line.endsWith('\n') ? line.slice(0, -1) : line)) };
}
