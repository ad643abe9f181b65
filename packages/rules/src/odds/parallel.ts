import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorker as startModuleWorker } from '@personae/core/worker';
import { simulationPlan } from './api';
import { PROGRESS_CHUNK, simulationOdds, type SimulationCounts, type SimulationPlan } from './simulate';
import type { ChallengeOdds, ChallengeQuery, OddsOptions, SimulationSettings, UnopposedQuery } from './types';
import type { WorkerTask } from './worker';

/**
 * Monte Carlo on every core (Node only: node:worker_threads). The samples are split evenly (no more
 * workers than chunks of 65,536 samples); worker i rolls its share from stream i of the seed, so one
 * worker gives exactly the answer simulateChallenge gives in this thread, and the same seed and worker
 * count give the same answer again. onProgress gets the samples done across all workers.
 */
export interface ParallelSettings extends SimulationSettings {
  /** Worker threads to use. Default: the machine's available parallelism. */
  workers?: number;
  /** Stops the workers; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
}

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
function startWorker(task: WorkerTask): Worker {
  const fromSources = new URL(import.meta.url).pathname.endsWith('.ts');
  return startModuleWorker(new URL(fromSources ? './worker.ts' : './odds-worker.mjs', import.meta.url), task);
}

export async function runParallel(plan: SimulationPlan, settings: ParallelSettings): Promise<ChallengeOdds> {
  const { samples, seed = 1, onProgress, signal } = settings;
  if (!Number.isSafeInteger(samples) || samples < 1) throw new RangeError(`samples must be a whole number of at least 1, got ${samples}`);
  const wanted = settings.workers ?? availableParallelism();
  if (!Number.isInteger(wanted) || wanted < 1) throw new RangeError(`workers must be a whole number of at least 1, got ${wanted}`);
  signal?.throwIfAborted();
  const count = Math.min(wanted, Math.ceil(samples / PROGRESS_CHUNK));
  const done = new Array<number>(count).fill(0);
  const workers: Worker[] = [];
  const stopAll = (): void => {
    for (const w of workers) void w.terminate();
  };
  signal?.addEventListener('abort', stopAll, { once: true });
  const shares = Array.from({ length: count }, (_, i) => Math.floor(samples / count) + (i < samples % count ? 1 : 0));
  try {
    const parts = await Promise.all(
      shares.map(
        (share, stream) =>
          new Promise<SimulationCounts>((resolve, reject) => {
            const task: WorkerTask = { plan, samples: share, seed, stream };
            const worker = startWorker(task);
            workers.push(worker);
            let finished = false;
            worker.on('message', (msg: { type: 'progress'; done: number } | { type: 'done'; counts: SimulationCounts }) => {
              if (msg.type === 'progress') {
                done[stream] = msg.done;
                onProgress?.(done.reduce((a, b) => a + b, 0), samples);
              } else {
                finished = true;
                resolve(msg.counts);
              }
            });
            worker.on('error', reject);
            worker.on('exit', (code) => {
              if (!finished) reject(signal?.aborted ? signal.reason : new Error(`simulation worker ${stream} stopped (exit code ${code}) before it finished`));
            });
          }),
      ),
    );
    return simulationOdds(plan, parts);
  } finally {
    signal?.removeEventListener('abort', stopAll);
    stopAll();
  }
}
