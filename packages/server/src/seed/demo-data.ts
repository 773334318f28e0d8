import { parseCsv, type TimeUnit } from '@bvdb/domain';

/** One CSV as objects keyed by its header row. */
export function readCsvObjects(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  return rows
    .filter((r) => r.some((c) => c.trim() !== ''))
    .map((cells) => Object.fromEntries(header.map((h, i) => [h.trim(), (cells[i] ?? '').trim()])));
}

const num = (s: string | undefined): number | null => {
  if (!s) return null;
  const m = /^-?\d+(\.\d+)?$/.exec(s.trim());
  return m ? Number(s) : null;
};

/** Matrix names of the studies → lookup ids of spec section 3. */
export function matrixIdFor(matrix: string, measurand: string): number {
  const m = matrix.toLowerCase();
  if (m.startsWith('serum')) return 1;
  if (m.startsWith('plasma')) return 2;
  if (m === 'whole blood (edta)') return 16;
  if (m.startsWith('whole blood')) return 3;
  if (m.startsWith('saliva')) return /night/i.test(measurand) ? 23 : 7;
  if (m.startsWith('urine (timed')) return 12;
  if (m.startsWith('urine')) return 5;
  return 15;
}

const UNIT_WORDS: Record<string, TimeUnit> = {
  week: 'Week',
  weeks: 'Week',
  month: 'Month',
  months: 'Month',
  day: 'Day',
  days: 'Day',
  hour: 'Hour',
  hours: 'Hour',
  h: 'Hour',
  year: 'Year',
  years: 'Year',
};

/** "1 per week" → 1 per Week; "1 per 2 weeks" → 0.5 per Week; anything else is kept as text only. */
export function parseInterval(text: string): { samplesPer: number; units: TimeUnit } | null {
  const m = /^(\d+(?:\.\d+)?) per (?:(\d+) )?([a-z]+)/i.exec(text.trim());
  if (!m) return null;
  const units = UNIT_WORDS[m[3]!.toLowerCase()];
  if (!units) return null;
  const every = m[2] ? Number(m[2]) : 1;
  return { samplesPer: Number(m[1]) / every, units };
}

export function parseDuration(text: string): { value: number; units: TimeUnit } | null {
  const m = /^(\d+(?:\.\d+)?) ([a-z]+)$/i.exec(text.trim());
  if (!m) return null;
  const units = UNIT_WORDS[m[2]!.toLowerCase()];
  return units ? { value: Number(m[1]), units } : null;
}

export function parseAge(text: string): { min: number | null; max: number | null; mean: number | null } {
  const range = /(\d+(?:\.\d+)?)\s*[-–]\s*(\d+(?:\.\d+)?)/.exec(text);
  const mean = /mean\s*(\d+(?:\.\d+)?)/i.exec(text);
  return {
    min: range ? Number(range[1]) : null,
    max: range ? Number(range[2]) : null,
    mean: mean ? Number(mean[1]) : null,
  };
}

/** Disease-state lookup ids (spec section 3) named by a study's health-state text. */
export function diseaseIdsFor(healthState: string): number[] {
  const h = healthState.toLowerCase();
  const ids: number[] = [];
  if (/heart failure/.test(h)) ids.push(3);
  else if (/heart|cardiac|coronary/.test(h)) ids.push(1);
  if (/kidney|renal|dialysis/.test(h)) ids.push(2);
  if (/liver/.test(h)) ids.push(4);
  if (/type 1 diabetes/.test(h)) ids.push(5);
  if (/type 2 diabetes/.test(h)) ids.push(6);
  if (/obes/.test(h)) ids.push(7);
  if (/lung|pulmonary|copd/.test(h)) ids.push(8);
  if (/gastro|bowel/.test(h)) ids.push(9);
  return ids;
}

const isEuBivas = (row: Record<string, string>) =>
  /eubivas/i.test(`${row.reference_title} ${row.population_note}`);

/** Provisional grades: EuBIVAS A throughout; others C, or the nearest allowed grade, on each item. */
export function provisionalGrades(row: Record<string, string>, hasReportedCi: boolean) {
  if (isEuBivas(row)) {
    return {
      scale: 'A',
      study_population: 'A',
      samples: 'A',
      measurand: 'A',
      pre_analytical: 'A',
      replicate_analysis: 'A',
      steady_state: 'A',
      outlier_analysis: 'A',
      normality: 'A',
      variance_homogeneity: 'A',
      anova: 'A',
      ci: 'A',
      number_of_results: 'A',
      concentrations: 'A',
    } as const;
  }
  return {
    scale: 'A',
    study_population: 'C',
    samples: 'C',
    measurand: 'C',
    pre_analytical: 'C',
    replicate_analysis: 'C',
    steady_state: 'C',
    outlier_analysis: 'C',
    normality: 'B',
    variance_homogeneity: 'C',
    anova: 'C',
    ci: hasReportedCi ? 'A' : 'C',
    number_of_results: 'C',
    concentrations: 'B',
  } as const;
}

/** Healthy adults sampled days to months apart, with a CV free of analytical variation. */
export function shouldInclude(row: Record<string, string>): boolean {
  const healthy = row.health_state === 'Healthy';
  const text = `${row.sampling_interval} ${row.study_duration} ${row.population_note}`.toLowerCase();
  const withinDay = /within-day|\bhours?\b|\d+ h\b|every \d+ h|per hour|per day|24 hours|1 day\b/.test(text);
  const children = /child|paediatric|pediatric|infant|neonat/.test(
    `${row.population_note} ${row.health_state}`.toLowerCase(),
  );
  const totalCv = /contains analytical|total within|includes analytical|not corrected for analytical/.test(
    row.population_note?.toLowerCase() ?? '',
  );
  return healthy && !withinDay && !children && !totalCv;
}

export const numbers = { num };
