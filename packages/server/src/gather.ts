interface Waiter<V> {
  resolve: (value: V | null) => void;
  reject: (error: unknown) => void;
}

/**
 * Asks the store about many keys in one query for all that wait: keys asked for while a query runs
 * gather for the next one. The clients of a node that went away say hello to the node that takes
 * its tables at once; their tables are then loaded, and each table's tokens checked, in a query or
 * two, not one each. A query starts after every key asked for before it, so a token checked after it
 * was revoked sees the revocation.
 */
export class Gather<V> {
  private waiting = new Map<string, Array<Waiter<V>>>();
  private running = false;

  /**
   * `query` answers for the keys it finds and leaves out the others; at most `maxBatch` keys go in
   * one query (the rest wait for the next).
   */
  constructor(
    private readonly query: (keys: string[]) => Promise<Map<string, V>>,
    private readonly maxBatch = Infinity,
  ) {}

  /** The query's answer for `key`, or null if it found nothing. */
  get(key: string): Promise<V | null> {
    return new Promise((resolve, reject) => {
      const waiters = this.waiting.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      if (!this.running) {
        this.running = true;
        // The hellos read from the sockets in this turn of the event loop go together.
        setImmediate(() => this.next());
      }
    });
  }

  private next(): void {
    if (this.waiting.size === 0) {
      this.running = false;
      return;
    }
    let batch: Map<string, Array<Waiter<V>>>;
    if (this.waiting.size <= this.maxBatch) {
      batch = this.waiting;
      this.waiting = new Map();
    } else {
      batch = new Map();
      for (const [key, waiters] of this.waiting) {
        if (batch.size === this.maxBatch) break;
        batch.set(key, waiters);
        this.waiting.delete(key);
      }
    }
    this.query([...batch.keys()])
      .then(
        (found) => {
          for (const [key, waiters] of batch) for (const w of waiters) w.resolve(found.get(key) ?? null);
        },
        (error: unknown) => {
          for (const waiters of batch.values()) for (const w of waiters) w.reject(error);
        },
      )
      .finally(() => this.next());
  }
}
