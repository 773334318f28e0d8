/**
 * Population facets of a measurand's datasets (issue 47, decision 096): what each dataset's
 * population and design is, how many datasets each value has, and which datasets a chosen facet set
 * selects. Pure: the server reads the columns and lookups, this module decides the values.
 *
 * Rules (written down in decision 096):
 * - sex: from the sex counts — males only → `males`, females only → `females`, both → `mixed`; when
 *   the counts do not say (missing, or both zero), the curators' "sex for meta-analysis"; else unknown.
 * - age: children < 18 years, adults 18–64, elderly ≥ 65. With both ends of the age range: the band
 *   holding the whole range; a range spanning bands → the band holding the mean age when given, else
 *   `mixed`. With one end only: a minimum ≥ 65 → elderly, a maximum < 18 → children; otherwise (and
 *   with no range) the band of the mean age; else unknown.
 * - interval: the time between samples, one interval unit divided by the samples per unit
 *   (Day 1, Week 7, Month 30.4375, Year 365.25 days, Hour 1/24): `days` below 3.5 days (more often
 *   than twice a week), `weeks` from 3.5 days up to 28 days (twice a week to once in four weeks —
 *   the spec's "weekly sampling" starts at two samples a week), `months` from 28 days; unit "Other"
 *   or a missing part → unknown.
 * - state, disease, ethnicity, method, matrix: the lookup's label; the value is its slug
 *   (lower case, runs of other characters → "-"), so labels differing only in case share a value.
 *   A dataset counts under each of its disease states.
 * - evidence: the dataset's evidence class (decision 099): direct-anova, direct-bayesian, indirect.
 * An unknown value is in no facet value: a chosen facet leaves such datasets out.
 */

import {
  DEFAULT_EVIDENCE_CLASS,
  EVIDENCE_CLASS_LABELS,
  EVIDENCE_CLASSES,
  type EvidenceClass,
} from './evidence-class.js';

export const FACETS = [
  'sex',
  'age',
  'state',
  'disease',
  'ethnicity',
  'interval',
  'method',
  'matrix',
  'evidence',
] as const;
export type Facet = (typeof FACETS)[number];

export const FACET_LABELS: Record<Facet, string> = {
  sex: 'Sex',
  age: 'Age band',
  state: 'State of well-being',
  disease: 'Disease',
  ethnicity: 'Ethnicity',
  interval: 'Sampling interval',
  method: 'Analytical method',
  matrix: 'Matrix',
  evidence: 'Evidence class',
};

/** The facets whose values are a fixed vocabulary (the others come from lookups). */
export const FIXED_FACET_VALUES = {
  sex: [
    { value: 'males', label: 'Males' },
    { value: 'females', label: 'Females' },
    { value: 'mixed', label: 'Mixed' },
  ],
  age: [
    { value: 'children', label: 'Children (< 18 years)' },
    { value: 'adults', label: 'Adults (18–64 years)' },
    { value: 'elderly', label: 'Elderly (≥ 65 years)' },
    { value: 'mixed', label: 'Mixed ages' },
  ],
  interval: [
    { value: 'days', label: 'Days (more than twice a week)' },
    { value: 'weeks', label: 'Weeks (twice a week to every 4 weeks)' },
    { value: 'months', label: 'Months (every 4 weeks or less often)' },
  ],
  // Decision 099: the dataset's recorded class.
  evidence: EVIDENCE_CLASSES.map((value) => ({ value, label: EVIDENCE_CLASS_LABELS[value] })),
} as const satisfies Partial<Record<Facet, readonly FacetValue[]>>;

export interface FacetValue {
  value: string;
  label: string;
}

/** What the facets read of one dataset: its columns, with the lookups already resolved to labels. */
export interface FacetSource {
  numberOfMales: number | null;
  numberOfFemales: number | null;
  sexForMetaAnalysis: string | null;
  ageMin: number | null;
  ageMax: number | null;
  ageMean: number | null;
  stateOfWellBeing: string | null;
  diseases: readonly string[];
  ethnicity: string | null;
  samplesPer: number | null;
  intervalUnits: string | null;
  method: string | null;
  matrix: string | null;
  /** The dataset's evidence class (decision 099); absent: the default, a direct ANOVA study. */
  evidenceClass?: EvidenceClass;
}

/** A dataset's values per facet (an empty list: unknown). */
export type DatasetFacets = Record<Facet, FacetValue[]>;

/** The chosen values per facet: a dataset matches when, for every chosen facet, it has one of them. */
export type FacetSelection = Partial<Record<Facet, readonly string[]>>;

const known = (v: number | null | undefined): v is number =>
  v !== null && v !== undefined && Number.isFinite(v);

/** Lower case, runs of anything but letters and digits → "-", no "-" at either end. */
export function facetSlug(label: string): string {
  return label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const fixed = (facet: keyof typeof FIXED_FACET_VALUES, value: string): FacetValue[] => {
  const found = FIXED_FACET_VALUES[facet].find((v) => v.value === value);
  return found ? [{ value: found.value, label: found.label }] : [];
};

/** Males / females / mixed from the sex counts, else the curators' sex for meta-analysis. */
export function sexOf(s: Pick<FacetSource, 'numberOfMales' | 'numberOfFemales' | 'sexForMetaAnalysis'>) {
  const m = known(s.numberOfMales) ? s.numberOfMales : null;
  const f = known(s.numberOfFemales) ? s.numberOfFemales : null;
  if ((m ?? 0) > 0 && (f ?? 0) > 0) return 'mixed';
  if ((m ?? 0) > 0 && f !== null) return 'males';
  if ((f ?? 0) > 0 && m !== null) return 'females';
  // One count given and positive, the other missing: the counts do not say; nor do two zeros.
  const declared = s.sexForMetaAnalysis?.trim().toLowerCase();
  return declared === 'males' || declared === 'females' || declared === 'mixed' ? declared : null;
}

/** The age band of one age in years. */
export function ageBandOfAge(age: number): 'children' | 'adults' | 'elderly' {
  return age < 18 ? 'children' : age < 65 ? 'adults' : 'elderly';
}

/** The age band of a dataset (the rule at the top of this file). */
export function ageBandOf(s: Pick<FacetSource, 'ageMin' | 'ageMax' | 'ageMean'>) {
  const mean = known(s.ageMean) ? ageBandOfAge(s.ageMean) : null;
  if (known(s.ageMin) && known(s.ageMax)) {
    const lo = ageBandOfAge(Math.min(s.ageMin, s.ageMax));
    const hi = ageBandOfAge(Math.max(s.ageMin, s.ageMax));
    if (lo === hi) return lo;
    return mean ?? 'mixed';
  }
  if (known(s.ageMin) && s.ageMin >= 65) return 'elderly';
  if (known(s.ageMax) && s.ageMax < 18) return 'children';
  return mean;
}

const DAYS_PER_UNIT: Record<string, number> = {
  hour: 1 / 24,
  day: 1,
  week: 7,
  month: 30.4375,
  year: 365.25,
};

/** The days between two samples: one interval unit over the samples per unit; null when unknown. */
export function samplingIntervalDays(samplesPer: number | null, intervalUnits: string | null): number | null {
  const days = intervalUnits ? DAYS_PER_UNIT[intervalUnits.trim().toLowerCase()] : undefined;
  if (days === undefined || !known(samplesPer) || !(samplesPer > 0)) return null;
  return days / samplesPer;
}

/** Days / weeks / months between samples (thresholds 3.5 and 28 days). */
export function intervalBandOf(s: Pick<FacetSource, 'samplesPer' | 'intervalUnits'>) {
  const d = samplingIntervalDays(s.samplesPer, s.intervalUnits);
  if (d === null) return null;
  return d < 3.5 ? 'days' : d < 28 ? 'weeks' : 'months';
}

const lookup = (label: string | null): FacetValue[] => {
  const text = label?.trim();
  if (!text) return [];
  const value = facetSlug(text);
  return value ? [{ value, label: text }] : [];
};

/** Every facet value of one dataset. */
export function datasetFacets(s: FacetSource): DatasetFacets {
  const sex = sexOf(s);
  const age = ageBandOf(s);
  const interval = intervalBandOf(s);
  const diseases = new Map<string, FacetValue>();
  for (const d of s.diseases) for (const v of lookup(d)) if (!diseases.has(v.value)) diseases.set(v.value, v);
  return {
    sex: sex ? fixed('sex', sex) : [],
    age: age ? fixed('age', age) : [],
    state: lookup(s.stateOfWellBeing),
    disease: [...diseases.values()],
    ethnicity: lookup(s.ethnicity),
    interval: interval ? fixed('interval', interval) : [],
    method: lookup(s.method),
    matrix: lookup(s.matrix),
    evidence: fixed('evidence', s.evidenceClass ?? DEFAULT_EVIDENCE_CLASS),
  };
}

export interface FacetValueCount extends FacetValue {
  /** The datasets with this value. */
  datasets: number;
}

export interface FacetCounts {
  facet: Facet;
  label: string;
  values: FacetValueCount[];
  /** Datasets with no value for this facet. */
  unknown: number;
}

/**
 * How many datasets have each value of each facet, before any choice: the fixed vocabularies in
 * their order (zero counts included), lookup values by label.
 */
export function facetCounts(datasets: readonly DatasetFacets[]): FacetCounts[] {
  return FACETS.map((facet) => {
    const counts = new Map<string, FacetValueCount>();
    if (facet in FIXED_FACET_VALUES) {
      for (const v of FIXED_FACET_VALUES[facet as keyof typeof FIXED_FACET_VALUES]) {
        counts.set(v.value, { value: v.value, label: v.label, datasets: 0 });
      }
    }
    let unknown = 0;
    for (const d of datasets) {
      if (d[facet].length === 0) unknown++;
      for (const v of d[facet]) {
        const c = counts.get(v.value) ?? { ...v, datasets: 0 };
        c.datasets++;
        counts.set(v.value, c);
      }
    }
    const values = [...counts.values()];
    if (!(facet in FIXED_FACET_VALUES)) {
      values.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
    }
    return { facet, label: FACET_LABELS[facet], values, unknown };
  });
}

/** The chosen facets in one canonical form: known facets, values deduplicated and sorted, empty ones dropped. */
export function normaliseFacetSelection(selection: FacetSelection): FacetSelection {
  const out: FacetSelection = {};
  for (const facet of FACETS) {
    const values = selection[facet];
    if (!values || values.length === 0) continue;
    out[facet] = [...new Set(values)].sort();
  }
  return out;
}

/** A stable text key of a selection (the cache key and the permalink's order). */
export function facetSelectionKey(selection: FacetSelection): string {
  const n = normaliseFacetSelection(selection);
  return FACETS.filter((f) => n[f])
    .map((f) => `${f}=${n[f]!.join(',')}`)
    .join('&');
}

/**
 * A selection as the query of a URL (decision 097): `facet.sex=males&facet.state=athletes,healthy`,
 * the facets in their canonical order, their values sorted and joined by commas — the form the
 * API's `facet.*` parameters and the measurand page's permalink both take. Empty without a choice.
 */
export function facetQueryString(selection: FacetSelection): string {
  const n = normaliseFacetSelection(selection);
  return FACETS.filter((f) => n[f])
    .map((f) => `facet.${f}=${n[f]!.map(encodeURIComponent).join(',')}`)
    .join('&');
}

/**
 * The chosen facets in plain words, for a citation or a heading: "Sex: Males, Females; Sampling
 * interval: Weeks" — each value's label when `labelOf` knows it, else the value itself.
 */
export function describeFacetSelection(
  selection: FacetSelection,
  labelOf: (facet: Facet, value: string) => string | undefined = () => undefined,
): string {
  const n = normaliseFacetSelection(selection);
  return FACETS.filter((f) => n[f])
    .map((f) => `${FACET_LABELS[f]}: ${n[f]!.map((v) => labelOf(f, v) ?? v).join(', ')}`)
    .join('; ');
}

/** Whether a dataset has, for every chosen facet, one of the chosen values. */
export function matchesFacets(dataset: DatasetFacets, selection: FacetSelection): boolean {
  return FACETS.every((facet) => {
    const chosen = selection[facet];
    if (!chosen || chosen.length === 0) return true;
    return dataset[facet].some((v) => chosen.includes(v.value));
  });
}

/** The items whose facets match the selection, in their order. */
export function filterByFacets<T>(
  items: readonly T[],
  facetsOf: (item: T) => DatasetFacets,
  selection: FacetSelection,
): T[] {
  return items.filter((item) => matchesFacets(facetsOf(item), selection));
}

export type FacetSelectionProblem = { facet: string; value: string | null; allowed: string[] };

/**
 * The first facet or value a selection names that is not allowed (null when all are): an unknown
 * facet name lists the facets, an unknown value lists the facet's allowed values.
 */
export function invalidFacetChoice(
  selection: Record<string, readonly string[]>,
  allowed: Partial<Record<Facet, readonly string[]>>,
): FacetSelectionProblem | null {
  for (const [facet, values] of Object.entries(selection)) {
    if (!(FACETS as readonly string[]).includes(facet)) return { facet, value: null, allowed: [...FACETS] };
    const ok = allowed[facet as Facet] ?? [];
    const bad = values.find((v) => !ok.includes(v));
    if (bad !== undefined) return { facet, value: bad, allowed: [...ok] };
  }
  return null;
}
