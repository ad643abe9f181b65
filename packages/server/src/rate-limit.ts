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
    const now = this.clock();
    this.tokens = Math.min(this.limit.burst, this.tokens + ((now - this.last) / 1000) * this.limit.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
