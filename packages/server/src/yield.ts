/** Lets the event loop serve other work (I/O, timers) before the caller goes on. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * For a long loop: `await slice.check()` after each step yields to the event loop once the current
 * slice has run for `budgetMs`, so no single slice blocks other requests for longer than that.
 */
export class TimeSlice {
  private started = performance.now();

  constructor(private readonly budgetMs = 10) {}

  async check(): Promise<void> {
    if (performance.now() - this.started < this.budgetMs) return;
    await yieldToEventLoop();
    this.started = performance.now();
  }
}
