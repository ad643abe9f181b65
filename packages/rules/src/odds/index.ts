export * from './types';
export * from './api';
export { SimulationDice } from './rng';
export { runSimulation, simulationOdds, simulatePlan, PROGRESS_CHUNK, type SimulationPlan, type SimulationCounts } from './simulate';
export { abilitiesOf, type SideAbilities, type RerollStep } from './abilities';
export { decidingPairs, atLeast, atMost, expected, type DecidingPairs } from './decided';
