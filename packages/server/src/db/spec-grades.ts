import { QUALITY_ITEMS, type BivacGrades } from '@bvdb/domain';
import { getTableColumns } from 'drizzle-orm';
import { bvSpecifications } from './schema.js';

type SpecRow = typeof bvSpecifications.$inferSelect;
type SpecColumns = Omit<typeof bvSpecifications.$inferInsert, 'id'>;

/**
 * Where a dataset row keeps its 14 BIVAC grades: each item's column has the item's key as its SQL
 * name. A fact of the table, here beside it, so the datasets module (which writes the grades) and the
 * meta-analysis (which reads them for eligibility) share it without importing each other (decision
 * 048). Resolved once at start-up: an item without a column fails at once.
 */
const GRADES = QUALITY_ITEMS.map(({ key }) => {
  const entry = Object.entries(getTableColumns(bvSpecifications)).find(([, c]) => c.name === key);
  if (!entry) throw new Error(`bv_specifications has no column for the grade ${key}`);
  return { key, property: entry[0] as keyof SpecRow };
});

/** The 14 BIVAC grades of a stored row. */
export function gradesOf(row: SpecRow): BivacGrades {
  return Object.fromEntries(GRADES.map(({ key, property }) => [key, row[property]])) as BivacGrades;
}

/** The 14 BIVAC grades → the columns that store them. */
export function gradeColumnsOf(grades: BivacGrades): Partial<SpecColumns> {
  return Object.fromEntries(GRADES.map(({ key, property }) => [property, grades[key]]));
}
