import { describe, expect, it } from 'vitest';
import type { Credential } from '../src/store';
import { Gather } from '../src/gather';

/** A store query whose answers the test gives, one by one; it records the digests of each query. */
function heldQuery(valid: Set<string>) {
  const queries: string[][] = [];
  const answers: Array<() => void> = [];
  const query = (hashes: string[]) => {
    queries.push(hashes);
    // What the store holds when the query runs, given when the test releases it.
    const found = new Map(hashes.filter((h) => valid.has(h)).map((h) => [h, { kind: 'observer' } as Credential]));
    return new Promise<Map<string, Credential>>((resolve) => answers.push(() => resolve(found)));
  };
  const release = async () => {
    await new Promise((r) => setImmediate(r));
    answers.shift()?.();
    await new Promise((r) => setImmediate(r));
  };
  return { query, queries, release };
}

describe('Gather', () => {
  it('checks the digests asked for together, and those asked for while a query runs, in one query each', async () => {
    const valid = new Set(['a', 'b', 'c', 'd']);
    const q = heldQuery(valid);
    const checks = new Gather<Credential>(q.query);
    const first = ['a', 'b', 'x'].map((h) => checks.get(h));
    await q.release();
    // While nothing waits, the first query ran alone with all three.
    expect(q.queries).toEqual([['a', 'b', 'x']]);
    expect((await Promise.all(first)).map((c) => c?.kind ?? null)).toEqual(['observer', 'observer', null]);

    const second = ['c', 'd', 'c'].map((h) => checks.get(h));
    await new Promise((r) => setImmediate(r));
    const third = ['a', 'y'].map((h) => checks.get(h));
    await q.release();
    await q.release();
    // 'c' and 'd' went in one query; 'a' and 'y', asked for while it ran, in the next.
    expect(q.queries).toEqual([['a', 'b', 'x'], ['c', 'd'], ['a', 'y']]);
    expect((await Promise.all(second)).map((c) => c?.kind ?? null)).toEqual(['observer', 'observer', 'observer']);
    expect((await Promise.all(third)).map((c) => c?.kind ?? null)).toEqual(['observer', null]);
  });

  it('answers a check asked for after a revocation from a query made after it, even while an earlier query runs', async () => {
    const valid = new Set(['a']);
    const q = heldQuery(valid);
    const checks = new Gather<Credential>(q.query);
    const before = checks.get('a');
    await new Promise((r) => setImmediate(r));
    // The query for `before` runs; the token is revoked; a new check of it is asked for.
    valid.delete('a');
    const after = checks.get('a');
    await q.release();
    await q.release();
    expect(q.queries).toEqual([['a'], ['a']]);
    expect(await after).toBeNull();
    // The earlier check answers what the store held when its query ran.
    expect(await before).toEqual({ kind: 'observer' });
  });

  it('passes a failed query on to every check it answers, and goes on with the next', async () => {
    let fail = true;
    const checks = new Gather<Credential>(async (hashes) => {
      if (fail) throw new Error('database unreachable');
      return new Map(hashes.map((h) => [h, { kind: 'observer' } as Credential]));
    });
    const failed = await Promise.allSettled([checks.get('a'), checks.get('b')]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await checks.get('a')).toEqual({ kind: 'observer' });
  });

  it('puts at most maxBatch keys in one query and the rest in the next ones, in the order asked', async () => {
    const q = heldQuery(new Set(['a', 'b', 'c', 'd', 'e']));
    const checks = new Gather<Credential>(q.query, 2);
    const all = ['a', 'b', 'c', 'd', 'e'].map((h) => checks.get(h));
    for (let i = 0; i < 3; i++) await q.release();
    expect(q.queries).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect((await Promise.all(all)).every((c) => c?.kind === 'observer')).toBe(true);
  });
});
