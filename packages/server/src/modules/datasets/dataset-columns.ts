import { DATASET_FIELDS, datasetFieldsOfKind, type DatasetValues } from '@bvdb/contract';
import { QUALITY_ITEMS, type BivacGrades } from '@bvdb/domain';
import { getTableColumns } from 'drizzle-orm';
import { bvSpecifications } from '../../db/schema.js';

export type SpecRow = typeof bvSpecifications.$inferSelect;
export type SpecColumns = Omit<typeof bvSpecifications.$inferInsert, 'id'>;

/** The editable values a dataset row holds: all but the disease states, which have their own table. */
export type StoredValues = Omit<DatasetValues, 'disease_state_ids'>;
export type StoredName = keyof StoredValues;

type Columns = typeof bvSpecifications._.columns;
/** The column property whose SQL name is `N`. */
export type PropertyOf<N extends string> = {
  [P in keyof Columns]: Columns[P]['_']['name'] extends N ? P : never;
}[keyof Columns];

/**
 * The columns of bv_specifications are named after the fields of the live system's API, so a
 * field's API name is its column's SQL name: the schema itself maps fields to columns. Resolved once
 * at start-up, so a field without a column fails at once rather than on the first save.
 */
const propertyBySqlName = new Map<string, keyof SpecRow>(
  Object.entries(getTableColumns(bvSpecifications)).map(([property, column]) => [
    column.name,
    property as keyof SpecRow,
  ]),
);
function propertyOf(name: string): keyof SpecRow {
  const property = propertyBySqlName.get(name);
  if (!property) throw new Error(`bv_specifications has no column for the field ${name}`);
  return property;
}

/** Every field but the disease states (their own table), with its column. */
const STORED = datasetFieldsOfKind('id', 'number', 'text', 'choice', 'grade', 'flag').map((name) => ({
  name,
  property: propertyOf(name),
  flag: DATASET_FIELDS[name].kind === 'flag',
}));

const GRADE_KEYS = new Set<string>(QUALITY_ITEMS.map((q) => q.key));
const STORED_BUT_GRADES = STORED.filter(({ name }) => !GRADE_KEYS.has(name));

/** A stored row → its editable values under their API names (flags as the API's 0/1). */
export function storedValuesOf(row: SpecRow): StoredValues {
  return Object.fromEntries(
    STORED.map(({ name, property, flag }) => [name, flag ? (row[property] ? 1 : 0) : row[property]]),
  ) as StoredValues;
}

/** The same values without the 14 grades, in the same order (the paged legacy item nests them). */
export function storedValuesButGradesOf(row: SpecRow): Omit<StoredValues, keyof BivacGrades> {
  return Object.fromEntries(
    STORED_BUT_GRADES.map(({ name, property, flag }) => [
      name,
      flag ? (row[property] ? 1 : 0) : row[property],
    ]),
  ) as Omit<StoredValues, keyof BivacGrades>;
}

/** Editable values → the columns that store them (flags as booleans). */
export function columnsOfValues(values: StoredValues): SpecColumns {
  const columns: Partial<Record<keyof SpecRow, unknown>> = {};
  for (const { name, property, flag } of STORED) columns[property] = flag ? values[name] === 1 : values[name];
  return columns as SpecColumns;
}

export { gradeColumnsOf, gradesOf } from '../../db/spec-grades.js';
