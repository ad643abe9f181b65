import { parentPort, workerData } from 'node:worker_threads';
import { runSimulation, type SimulationPlan } from './simulate';

/** One share of a parallel simulation (parallel.ts): roll, report progress, send back the counts. */
export interface WorkerTask {
  readonly plan: SimulationPlan;
  readonly samples: number;
  readonly seed: number;
  readonly stream: number;
}

const task = workerData as WorkerTask;
const port = parentPort!;
const counts = runSimulation(task.plan, task.samples, task.seed, task.stream, (done) => port.postMessage({ type: 'progress', done }));
port.postMessage({ type: 'done', counts });
