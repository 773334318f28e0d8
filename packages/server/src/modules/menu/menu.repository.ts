import { and, eq, inArray, isNotNull, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { bvSpecifications } from '../../db/schema.js';

/**
 * The LOINC, NPU and SNOMED CT codes stored on published datasets, with their measurand: a menu line
 * may name a test by the code its laboratory reports under (issue 32.2). Distinct rows only; all
 * measurands', or those of `analyteIds` (a kept catalogue reading what a write changed).
 */
export async function listPublishedDatasetCodes(db: DbOrTx, analyteIds?: number[]) {
  if (analyteIds && analyteIds.length === 0) return [];
  return db
    .selectDistinct({
      analyteId: bvSpecifications.analyteId,
      loinc: bvSpecifications.loinc,
      npu: bvSpecifications.npu,
      snomedCt: bvSpecifications.snomedCt,
    })
    .from(bvSpecifications)
    .where(
      and(
        eq(bvSpecifications.published, true),
        analyteIds ? inArray(bvSpecifications.analyteId, analyteIds) : undefined,
        or(
          isNotNull(bvSpecifications.loinc),
          isNotNull(bvSpecifications.npu),
          isNotNull(bvSpecifications.snomedCt),
        ),
      ),
    );
}
