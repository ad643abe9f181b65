import type { Credential } from './store';

interface Waiter {
  resolve: (credential: Credential | null) => void;
  reject: (error: unknown) => void;
}

/**
 * Checks the token digests of one table against the store, one query for all that wait: digests
 * asked for while a query runs gather for the next one. The clients of a node that went away say
 * hello to the node that takes its tables at once; each table's hellos then cost a query or two,
 * not one each. A query starts after every check asked for before it, so a check asked for after a
 * token was revoked sees the revocation.
 */
export class TokenChecks {
  private waiting = new Map<string, Waiter[]>();
  private running = false;

  constructor(private readonly query: (tokenHashes: string[]) => Promise<Map<string, Credential>>) {}

  check(tokenHash: string): Promise<Credential | null> {
    return new Promise((resolve, reject) => {
      const waiters = this.waiting.get(tokenHash);
      if (waiters) waiters.push({ resolve, reject });
      else this.waiting.set(tokenHash, [{ resolve, reject }]);
      if (!this.running) {
        this.running = true;
        // The hellos read from the sockets in this turn of the event loop go together.
        setImmediate(() => this.next());
      }
    });
  }

  private next(): void {
    const batch = this.waiting;
    if (batch.size === 0) {
      this.running = false;
      return;
    }
    this.waiting = new Map();
    this.query([...batch.keys()])
      .then(
        (found) => {
          for (const [hash, waiters] of batch) for (const w of waiters) w.resolve(found.get(hash) ?? null);
        },
        (error: unknown) => {
          for (const waiters of batch.values()) for (const w of waiters) w.reject(error);
        },
      )
      .finally(() => this.next());
  }
}
