/**
 * The Node-only part of the odds: Monte Carlo across worker threads. Kept out of index.ts so the rest
 * of @personae/rules stays free of node: imports and runs in the browser.
 */
export { endIdleSimulationWorkers, idleSimulationWorkers, IDLE_MS, runParallel, simulateChallengeParallel, simulateUnopposedParallel, type ParallelSettings } from './parallel';
