import { parentPort } from 'node:worker_threads';
import { PROGRESS_CHUNK, runSimulation, type SimulationCounts, type SimulationPlan } from './simulate';

/**
 * One simulation for a pooled worker thread (parallel.ts): the worker rolls chunks for as long as the
 * shared counter `next` hands out indices below the simulation's chunk count, and other threads take
 * theirs from the same counter, so whoever is free rolls the next chunk.
 */
export interface WorkerJob {
  readonly plan: SimulationPlan;
  readonly samples: number;
  readonly seed: number;
  /** One cell over a SharedArrayBuffer: the index of the next chunk to roll. */
  readonly next: Int32Array;
}

/** What a worker sends back: the challenges of each chunk it rolled, then its counts. */
export type WorkerReport = { readonly type: 'progress'; readonly rolled: number } | { readonly type: 'done'; readonly counts: SimulationCounts };

const port = parentPort!;
port.on('message', (job: WorkerJob) => {
  const chunks = Math.ceil(job.samples / PROGRESS_CHUNK);
  const nextChunk = (): number => {
    const k = Atomics.add(job.next, 0, 1);
    return k >= 0 && k < chunks ? k : -1;
  };
  const report = (msg: WorkerReport): void => port.postMessage(msg);
  const counts = runSimulation(job.plan, job.samples, job.seed, nextChunk, (rolled) => report({ type: 'progress', rolled }));
  report({ type: 'done', counts });
});
