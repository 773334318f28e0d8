// Lookup values of the specification (section 3), with their ids exactly as the live system has them.

export interface LookupValue {
  readonly id: number;
  readonly name: string;
}

export const MATRICES: readonly LookupValue[] = [
  'Serum',
  'Plasma',
  'Whole blood',
  'Erythrocyte',
  'Urine',
  'Feces',
  'Salivary',
  'CSF',
  'Sweat',
  'Breath',
  'Other',
  '24 Hour Urine',
  'Random Urine',
  'Clearance',
  'Unknown',
  'Whole Blood EDTA',
  'Capillary plasma',
  '2 Hour Urine',
  'Morning urine',
  'Second morning urine',
  'Serum/plasma',
  'Whole Blood',
  'Night salivary',
].map((name, i) => ({ id: i + 1, name }));

/**
 * What each matrix of spec section 3 means, for the Matrix Explanation column of /matrices. Seeded
 * into an empty explanation only, so an administrator's own wording is never overwritten.
 */
export const MATRIX_EXPLANATIONS: Readonly<Record<number, string>> = {
  1: 'The liquid part of blood left after it has clotted, separated by centrifugation.',
  2: 'The liquid part of blood collected with an anticoagulant (heparin, EDTA or citrate), separated from the cells.',
  3: 'Blood with its cells and plasma, not separated.',
  4: 'Red blood cells, separated from plasma, or their haemolysate.',
  5: 'Urine, collection period not stated.',
  6: 'Stool sample.',
  7: 'Saliva, collection time not stated.',
  8: 'Cerebrospinal fluid, collected by lumbar puncture.',
  9: 'Sweat, collected by iontophoresis or a patch.',
  10: 'Exhaled breath or breath condensate.',
  11: 'A sample type not listed here; the dataset describes it.',
  12: 'All urine passed over 24 hours, collected in one container.',
  13: 'A single urine sample taken at any time of day (spot urine).',
  14: 'A clearance: a quantity computed from a urine collection and a blood sample (for example creatinine clearance).',
  15: 'The publication does not state the sample type.',
  16: 'Whole blood collected with EDTA as anticoagulant.',
  17: 'Plasma from capillary blood (finger or heel prick).',
  18: 'All urine passed over 2 hours, collected in one container.',
  19: 'The first urine passed after waking.',
  20: 'The second urine passed after waking, the first being discarded.',
  21: 'Serum or plasma: the study used either or both, and reports them together.',
  22: 'Blood with its cells and plasma, anticoagulant not stated.',
  23: 'Saliva collected late in the evening or at night (for example for cortisol).',
};

export const STATES_OF_WELL_BEING: readonly LookupValue[] = [
  'Healthy',
  'Non-healthy',
  'Pregnant',
  'Athletes',
].map((name, i) => ({ id: i + 1, name }));

export const NON_HEALTHY_STATE_ID = 2;

export const DISEASE_STATES: readonly LookupValue[] = [
  'Heart disease',
  'Chronic kidney disease',
  'Chronic heart failure',
  'Chronic liver disease',
  'Diabetes mellitus type I',
  'Diabetes mellitus type II',
  'Obesity',
  'Chronic lung disease',
  'Gastrointestinal disease',
].map((name, i) => ({ id: i + 1, name }));

export const ETHNICITIES: readonly LookupValue[] = [
  'Hispanic or Latino',
  'American Indian or Alaska Native',
  'Asian',
  'Black or African American',
  'Pacific Islander including Native Hawaiian',
  'Caucasian',
  'Unknown',
  'Mixed',
].map((name, i) => ({ id: i + 1, name }));

export const INTERVAL_UNITS = ['Week', 'Month', 'Day', 'Hour', 'Year', 'Other'] as const;
export const STUDY_DURATION_UNITS = INTERVAL_UNITS;
export type TimeUnit = (typeof INTERVAL_UNITS)[number];

export const SEXES_FOR_META_ANALYSIS = ['Males', 'Females', 'Mixed'] as const;
export type SexForMetaAnalysis = (typeof SEXES_FOR_META_ANALYSIS)[number];
