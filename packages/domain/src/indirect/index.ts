// `Interval` has the same shape as the estimator's (estimation/types.ts); it is exported here as
// IndirectInterval so the package's one barrel has no ambiguous name.
export type {
  RoutineResult,
  IndirectMethod,
  IndirectOptions,
  ExclusionStep,
  PairingSummary,
  Interval as IndirectInterval,
  HistogramBin,
  MethodResult,
  IndirectStratum,
  IndirectEstimate,
} from './types.js';
export { INDIRECT_METHODS, MIN_INDIRECT_PAIRS } from './types.js';
export * from './estimate.js';
export { AGE_BANDS, ageBand, PAIRING_STEPS, pairResults, strataOf } from './pairing.js';
export type { Pairs } from './pairing.js';
// the seeded simulation study (issue 46, "How we know it is right"); bench/indirect-simulation.mjs runs it
export {
  DEFAULT_DESIGN as DEFAULT_SIMULATION_DESIGN,
  healthyReferenceInterval,
  runSimulationStudy,
  SIMULATED_METHODS,
  SIMULATION_GRID,
  scenarios as simulationScenarios,
  simulateResults,
} from './simulation.js';
export type { Scenario as SimulationScenario, SimulationDesign, SimulationRow } from './simulation.js';
