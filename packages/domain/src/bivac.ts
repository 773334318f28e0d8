/** BIVAC grade of one quality item; NA where the item does not apply. */
export type Grade = 'A' | 'B' | 'C' | 'D' | 'NA';
export type OverallGrade = Exclude<Grade, 'NA'>;

/**
 * The 14 BIVAC quality items and the grades each may take (Aarsand et al., Clin Chem
 * 2018;64:501-14; spec section 5). Kept as data: the form, the server and the database checks all
 * read this one table.
 */
export const QUALITY_ITEMS = [
  { number: 1, key: 'scale', label: 'Scale', allowedGrades: ['A', 'B', 'NA'] },
  { number: 2, key: 'study_population', label: 'Subjects', allowedGrades: ['A', 'B', 'C', 'D', 'NA'] },
  { number: 3, key: 'samples', label: 'Samples', allowedGrades: ['A', 'B', 'C', 'D', 'NA'] },
  { number: 4, key: 'measurand', label: 'Measurand', allowedGrades: ['A', 'B', 'C', 'D', 'NA'] },
  { number: 5, key: 'pre_analytical', label: 'Pre-Analytical', allowedGrades: ['A', 'B', 'C', 'NA'] },
  {
    number: 6,
    key: 'replicate_analysis',
    label: 'Analytical variation',
    allowedGrades: ['A', 'B', 'C', 'NA'],
  },
  { number: 7, key: 'steady_state', label: 'Steady State', allowedGrades: ['A', 'B', 'C', 'NA'] },
  { number: 8, key: 'outlier_analysis', label: 'Outlier', allowedGrades: ['A', 'B', 'C', 'NA'] },
  { number: 9, key: 'normality', label: 'Normality', allowedGrades: ['A', 'B', 'NA'] },
  { number: 10, key: 'variance_homogeneity', label: 'Variance Homogeneity', allowedGrades: ['A', 'C', 'NA'] },
  { number: 11, key: 'anova', label: 'Statistical Method', allowedGrades: ['A', 'B', 'C', 'NA'] },
  { number: 12, key: 'ci', label: 'Confidence Limits', allowedGrades: ['A', 'C', 'NA'] },
  { number: 13, key: 'number_of_results', label: 'Number of results', allowedGrades: ['A', 'B', 'C', 'NA'] },
  { number: 14, key: 'concentrations', label: 'Concentrations', allowedGrades: ['A', 'B', 'NA'] },
] as const satisfies readonly {
  number: number;
  key: string;
  label: string;
  allowedGrades: readonly Grade[];
}[];

export type QualityItem = (typeof QUALITY_ITEMS)[number];

/** A BIVAC item as assessors know it, "QI12 Confidence Limits", from its stored key (issue 27.10). */
export function qualityItemName(key: string): string {
  const item = QUALITY_ITEMS.find((i) => i.key === key);
  return item ? `QI${item.number} ${item.label}` : key;
}
export type QualityItemKey = QualityItem['key'];
export type BivacGrades = Record<QualityItemKey, Grade>;

const GRADES: readonly Grade[] = ['A', 'B', 'C', 'D', 'NA'];
const isGrade = (v: unknown): v is Grade =>
  typeof v === 'string' && (GRADES as readonly string[]).includes(v);

export type GradesValidation =
  { ok: true; grades: BivacGrades } | { ok: false; errors: { key: QualityItemKey; message: string }[] };

/** Every item present, each with a grade its item allows (spec section 5 table). */
export function validateBivacGrades(input: Record<string, unknown>): GradesValidation {
  const errors: { key: QualityItemKey; message: string }[] = [];
  const grades: Partial<BivacGrades> = {};
  for (const item of QUALITY_ITEMS) {
    const raw = input[item.key];
    const allowed = item.allowedGrades as readonly Grade[];
    const name = `QI${item.number} ${item.label}`;
    if (raw === undefined || raw === null || raw === '') {
      errors.push({
        key: item.key,
        message: `${name}: a grade is required (allowed: ${allowed.join(', ')})`,
      });
    } else if (!isGrade(raw) || !allowed.includes(raw)) {
      errors.push({
        key: item.key,
        message: `${name}: grade ${typeof raw === 'string' ? raw : JSON.stringify(raw)} is not allowed (allowed: ${allowed.join(', ')})`,
      });
    } else {
      grades[item.key] = raw;
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, grades: grades as BivacGrades };
}

const RANK: Record<OverallGrade, number> = { A: 0, B: 1, C: 2, D: 3 };

/** The overall grade is the worst item grade; NA items do not count (Aarsand 2018). */
export function overallGrade(grades: Partial<Record<QualityItemKey, string | null>>): OverallGrade | null {
  let worst: OverallGrade | null = null;
  for (const item of QUALITY_ITEMS) {
    const g = grades[item.key];
    if (g === 'A' || g === 'B' || g === 'C' || g === 'D') {
      if (worst === null || RANK[g] > RANK[worst]) worst = g;
    }
  }
  return worst;
}

/** Grade factors of the meta-analysis weights (metacalculation service): A 4, B 2, C 1, D 0. */
export const GRADE_WEIGHT: Record<OverallGrade, number> = { A: 4, B: 2, C: 1, D: 0 };
