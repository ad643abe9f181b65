/**
 * The least time between the starts of two group commits, for both stores (docs/benchmarks.md,
 * "Group commits spaced 4 ms apart"): writes made in the meantime wait and go in the next commit, one
 * transaction, one sync and one round trip for all of them, at the price of up to this long added
 * to a write's wait when the store is not busy.
 */
export const DEFAULT_COMMIT_SPACING_MS = 4;

export class CommitSpacing {
  private lastStart = -Infinity;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly ms: number) {}

  /** Whether a timer is holding the next commit back. */
  get waiting(): boolean {
    return this.timer !== null;
  }

  /**
   * Whether a commit must wait: if so, `retry` runs once the spacing has passed (one timer at a time);
   * if not, the commit counts as started now.
   */
  holds(retry: () => void): boolean {
    if (this.timer) return true;
    const wait = this.lastStart + this.ms - performance.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = null;
        retry();
      }, wait);
      return true;
    }
    this.lastStart = performance.now();
    return false;
  }
}
