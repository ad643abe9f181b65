import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorker as startModuleWorker } from '@personae/core/worker';
import { simulationPlan } from './api';
import { checkSamples, PROGRESS_CHUNK, simulationOdds, type SimulationCounts, type SimulationPlan } from './simulate';
import type { ChallengeOdds, ChallengeQuery, OddsOptions, SimulationSettings, UnopposedQuery } from './types';
import type { WorkerJob, WorkerReport } from './worker';

/**
 * Monte Carlo on every core (Node only: node:worker_threads). The samples are cut into chunks of
 * PROGRESS_CHUNK (simulate.ts), each rolled from its own stream of the seed; the workers take the next
 * chunk from a shared counter whenever they are free, so they finish together, and the answer for a
 * seed is the one simulateChallenge gives in this thread, with any number of workers. No more workers
 * are used than there are chunks. onProgress gets the samples done across all workers.
 *
 * Worker threads are kept between simulations, so a run after the first starts neither a thread nor
 * cold code; an idle worker never keeps the process alive and ends after IDLE_MS.
 */
export interface ParallelSettings extends SimulationSettings {
  /** Worker threads to use. Default: the machine's available parallelism. */
  workers?: number;
  /** Stops the workers; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** How long a worker waits for another simulation before it ends. */
export const IDLE_MS = 5_000;

export function simulateChallengeParallel(q: ChallengeQuery, options: OddsOptions, settings: ParallelSettings): Promise<ChallengeOdds> {
  return runParallel(simulationPlan({ kind: 'opposed', query: q }, options), settings);
}

export function simulateUnopposedParallel(q: UnopposedQuery, options: OddsOptions, settings: ParallelSettings): Promise<ChallengeOdds> {
  return runParallel(simulationPlan({ kind: 'unopposed', query: q }, options), settings);
}

/**
 * A worker running worker.ts. Built code (scripts/build-cli.mjs) starts the bundled worker next to it,
 * odds-worker.mjs. Run from TypeScript sources, the worker first registers tsx's loader itself: on
 * Node 20 a worker does not get the loader hooks of the thread that starts it.
 */
function startWorker(): Worker {
  const fromSources = new URL(import.meta.url).pathname.endsWith('.ts');
  return startModuleWorker(new URL(fromSources ? './worker.ts' : './odds-worker.mjs', import.meta.url), null);
}

/**
 * Idle workers, the most recently used last, each with the timer that ends it and the listener that
 * takes it out of the pool if it dies. Listeners are removed one by one, never all at once: Node's
 * Worker keeps listeners of its own that keep its message port working.
 */
interface Idle {
  readonly worker: Worker;
  readonly timer: ReturnType<typeof setTimeout>;
  readonly gone: () => void;
}
const idle: Idle[] = [];

function takeWorker(): Worker {
  const kept = idle.pop();
  if (kept === undefined) return startWorker();
  release(kept);
  kept.worker.ref();
  return kept.worker;
}

function keepWorker(worker: Worker): void {
  worker.unref();
  const entry: Idle = {
    worker,
    timer: setTimeout(() => {
      drop(entry);
      void worker.terminate();
    }, IDLE_MS).unref(),
    gone: () => drop(entry),
  };
  // An idle worker that fails or dies (it should not) leaves the pool.
  worker.on('exit', entry.gone);
  worker.on('error', entry.gone);
  idle.push(entry);
}

function release(entry: Idle): void {
  clearTimeout(entry.timer);
  entry.worker.off('exit', entry.gone);
  entry.worker.off('error', entry.gone);
}

function drop(entry: Idle): void {
  const at = idle.indexOf(entry);
  if (at >= 0) idle.splice(at, 1);
  release(entry);
}

/** Workers kept idle for the next simulation. */
export function idleSimulationWorkers(): number {
  return idle.length;
}

/** Ends every idle worker now (the next simulation starts its workers anew). */
export async function endIdleSimulationWorkers(): Promise<void> {
  const ending = idle.splice(0);
  await Promise.all(
    ending.map((entry) => {
      release(entry);
      return entry.worker.terminate();
    }),
  );
}

export async function runParallel(plan: SimulationPlan, settings: ParallelSettings): Promise<ChallengeOdds> {
  const { samples, seed = 1, onProgress, signal } = settings;
  checkSamples(samples);
  const wanted = settings.workers ?? availableParallelism();
  if (!Number.isInteger(wanted) || wanted < 1) throw new RangeError(`workers must be a whole number of at least 1, got ${wanted}`);
  signal?.throwIfAborted();
  const count = Math.min(wanted, Math.ceil(samples / PROGRESS_CHUNK));
  const job: WorkerJob = { plan, samples, seed, next: new Int32Array(new SharedArrayBuffer(4)) };
  /** Workers rolling, each with the removal of the listeners this run gave it. */
  const busy = new Map<Worker, () => void>();
  let done = 0;
  let stop: (reason: unknown) => void = () => {};
  const stopped = new Promise<never>((_, reject) => {
    stop = reject;
  });
  const onAbort = (): void => stop(signal!.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const roll = (): Promise<SimulationCounts> =>
    new Promise<SimulationCounts>((resolve, reject) => {
      const worker = takeWorker();
      const onMessage = (msg: WorkerReport): void => {
        if (msg.type === 'progress') {
          done += msg.rolled;
          onProgress?.(done, samples);
        } else {
          busy.get(worker)!();
          busy.delete(worker);
          keepWorker(worker);
          resolve(msg.counts);
        }
      };
      const onExit = (code: number): void => reject(new Error(`a simulation worker stopped (exit code ${code}) before it finished`));
      worker.on('message', onMessage);
      worker.on('error', reject);
      worker.on('exit', onExit);
      busy.set(worker, () => {
        worker.off('message', onMessage);
        worker.off('error', reject);
        worker.off('exit', onExit);
      });
      worker.postMessage(job);
    });
  try {
    const parts = await Promise.race([Promise.all(Array.from({ length: count }, roll)), stopped]);
    return simulationOdds(plan, parts);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Workers still rolling (stopped, or beside one that failed) are ended, not kept.
    for (const [worker, unlisten] of busy) {
      unlisten();
      worker.on('error', () => {});
      void worker.terminate();
    }
  }
}
