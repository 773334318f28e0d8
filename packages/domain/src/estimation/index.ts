export {
  estimateBiologicalVariation,
  resolveEstimationOptions,
  DEFAULT_ESTIMATION_OPTIONS,
  ESTIMATION_MAX_ABS_VALUE,
  ESTIMATION_MAX_BOOTSTRAP_WORK,
} from './estimate.js';
export {
  nestedAnova,
  normaliseBySubjectMean,
  type NestedAnova,
  type NestedData,
  type MeanSquare,
} from './anova.js';
export { shapiroWilk, type ShapiroWilkResult } from './shapiro-wilk.js';
export { cochranC, cochranCritical, type CochranResult } from './cochran.js';
export {
  bartlett,
  steadyState,
  type BartlettResult,
  type HomogeneityCheck,
  type NormalityCheck,
  type SteadyState,
} from './checks.js';
export { chiSquareVarianceInterval, mlsInterval, type MsTerm } from './intervals.js';
export type * from './types.js';
export {
  describeEstimationDesign,
  exclusionOf,
  type DesignSubject,
  type EstimationDesign,
} from './design.js';
export {
  describeSampling,
  datasetSamplingOf,
  type DatedSample,
  type SamplingSummary,
  type DatasetSampling,
} from './sampling.js';
