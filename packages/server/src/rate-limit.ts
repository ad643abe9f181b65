export interface RateLimit {
  /** Messages that may arrive at once. */
  burst: number;
  /** Messages per second that refill the bucket. */
  perSecond: number;
}

/** A token bucket: holds up to `burst` tokens, refills `perSecond`, each message takes one. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly limit: RateLimit,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.tokens = limit.burst;
    this.last = clock();
  }

  take(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Milliseconds until the next message would be accepted (0 when one would be now). */
  retryAfterMs(): number {
    this.refill();
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) / this.limit.perSecond) * 1000);
  }

  private refill(): void {
    const now = this.clock();
    this.tokens = Math.min(this.limit.burst, this.tokens + ((now - this.last) / 1000) * this.limit.perSecond);
    this.last = now;
  }
}

/**
 * Token buckets by key (e.g. a token's digest), shared by every connection and request that uses
 * the key. Buckets that have refilled completely are forgotten, so the map stays small.
 */
export class KeyedBuckets {
  private readonly buckets = new Map<string, { bucket: TokenBucket; lastUsed: number }>();

  constructor(
    readonly limit: RateLimit,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** Takes one message for `key`; returns 0 when accepted, else the milliseconds to wait. */
  take(key: string): number {
    const now = this.clock();
    let entry = this.buckets.get(key);
    if (!entry) {
      if (this.buckets.size >= 10_000) this.prune(now);
      entry = { bucket: new TokenBucket(this.limit, this.clock), lastUsed: now };
      this.buckets.set(key, entry);
    }
    entry.lastUsed = now;
    return entry.bucket.take() ? 0 : Math.max(1, entry.bucket.retryAfterMs());
  }

  private prune(now: number): void {
    const fullAfterMs = (this.limit.burst / this.limit.perSecond) * 1000;
    for (const [key, entry] of this.buckets) if (now - entry.lastUsed >= fullAfterMs) this.buckets.delete(key);
    if (this.buckets.size >= 10_000) this.buckets.clear();
  }
}
