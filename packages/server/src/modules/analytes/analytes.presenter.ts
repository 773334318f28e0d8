import type { Analyte, AnalyteWithCount } from '@bvdb/contract';
import type { analytes } from '../../db/schema.js';

type Row = typeof analytes.$inferSelect;

export function presentAnalyte(a: Row): Analyte {
  return {
    id: a.id,
    display_name: a.displayName,
    full_name: a.fullName?.trim() ? a.fullName : 'No Full Name Set',
    alternate_names: a.alternateNames,
    loinc: a.loinc,
    npu: a.npu,
    snomed_ct: a.snomedCt,
    default: a.isDefault,
    display_data: a.displayData,
    is_demo: a.isDemo,
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
  };
}

/** A measurand with how many datasets the caller can see for it. */
export const presentAnalyteWithCount = (r: { analyte: Row; count: number }): AnalyteWithCount => ({
  ...presentAnalyte(r.analyte),
  bv_specifications_count: r.count,
});
