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
