import type { Dataset } from '@bvdb/contract';

/** Spec section 5: a case-insensitive substring of the analyte display name joined with the id. */
export function matchesSpecFilter(d: Pick<Dataset, 'analyte_display_name' | 'id'>, filter: string): boolean {
  const f = filter.trim().toLowerCase();
  if (!f) return true;
  return `${d.analyte_display_name} ${d.id}`.toLowerCase().includes(f);
}
