import type { CliIo } from '../io.js';

/**
 * A progress bar on stderr for long jobs. It is drawn only when stderr is a terminal (redrawn in
 * place with a carriage return, at most every `interval` ms); `finish` clears it and writes one
 * closing line either way, so logs and pipes get the summary without the bar.
 */
export interface Progress {
  update(done: number, total: number): void;
  /** Clear the bar and write the closing line. */
  finish(line: string): void;
  /** Clear the bar, leaving the line for an error message. */
  clear(): void;
  /** The last count reported. */
  readonly done: number;
}

export interface ProgressSettings {
  /** What is being done, before the bar: "Simulating". */
  readonly label: string;
  /** What is counted, after the numbers: "challenges". */
  readonly unit: string;
  /** The least time between two redraws, in milliseconds. */
  readonly interval?: number;
  readonly now?: () => number;
}

/** "1,234,567" */
export function grouped(n: number): string {
  return n.toLocaleString('en-US');
}

const CLEAR_LINE = '\r\x1b[K';

export function progressBar(io: Pick<CliIo, 'stderr' | 'stderrIsTTY' | 'stderrColumns'>, settings: ProgressSettings): Progress {
  const interval = settings.interval ?? 100;
  const now = settings.now ?? (() => performance.now());
  const tty = io.stderrIsTTY === true;
  const columns = Math.max(40, io.stderrColumns ?? 80);
  const started = now();
  let last = -Infinity;
  let drawn = false;
  let done = 0;

  const draw = (total: number, t: number): void => {
    const share = total > 0 ? Math.min(1, done / total) : 1;
    // Time left at the pace so far.
    const left = done > 0 && done < total ? ((t - started) * (total - done)) / done / 1000 : undefined;
    const eta = left === undefined ? '' : `, about ${left < 60 ? `${Math.ceil(left)} s` : `${Math.ceil(left / 60)} min`} left`;
    const counts = `${String(Math.floor(share * 100)).padStart(3)}%  ${grouped(done)} of ${grouped(total)} ${settings.unit}${eta}`;
    const width = Math.max(10, Math.min(30, columns - settings.label.length - counts.length - 6));
    const full = Math.round(share * width);
    io.stderr(`${CLEAR_LINE}${settings.label} [${'█'.repeat(full)}${'░'.repeat(width - full)}] ${counts}`);
    drawn = true;
  };
  const clear = (): void => {
    if (drawn) io.stderr(CLEAR_LINE);
    drawn = false;
  };
  return {
    get done() {
      return done;
    },
    update(count, total) {
      done = count;
      if (!tty) return;
      const t = now();
      if (count < total && t - last < interval) return;
      last = t;
      draw(total, t);
    },
    finish(line) {
      clear();
      io.stderr(`${line}\n`);
    },
    clear,
  };
}
