import { and, asc, eq, inArray, isNotNull, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { NARROW_PAGE_ROWS, pastId, readInPages } from '../../db/read-in-pages.js';
import { bvSpecifications } from '../../db/schema.js';

/**
 * The LOINC, NPU and SNOMED CT codes stored on published datasets, with their measurand: a menu line
 * may name a test by the code its laboratory reports under (issue 32.2). Distinct rows only; all
 * measurands', or those of `analyteIds` (a kept catalogue reading what a write changed).
 */
/** `pageRows`: datasets a query when every measurand's codes are read (tests read in small pages). */
export async function listPublishedDatasetCodes(
  db: DbOrTx,
  analyteIds?: number[],
  pageRows = NARROW_PAGE_ROWS,
) {
  if (analyteIds && analyteIds.length === 0) return [];
  const codes = {
    analyteId: bvSpecifications.analyteId,
    loinc: bvSpecifications.loinc,
    npu: bvSpecifications.npu,
    snomedCt: bvSpecifications.snomedCt,
  };
  const coded = and(
    eq(bvSpecifications.published, true),
    or(
      isNotNull(bvSpecifications.loinc),
      isNotNull(bvSpecifications.npu),
      isNotNull(bvSpecifications.snomedCt),
    ),
  );
  if (analyteIds)
    return db
      .selectDistinct(codes)
      .from(bvSpecifications)
      .where(and(coded, inArray(bvSpecifications.analyteId, analyteIds)));
  // Every measurand's (20,200 datasets at 100× the demo): in pages of datasets by id, made
  // distinct here as the query above makes them (issue 44.1).
  const rows = await readInPages(
    (after: number | undefined, limit) =>
      db
        .select({ id: bvSpecifications.id, ...codes })
        .from(bvSpecifications)
        .where(and(coded, pastId(bvSpecifications.id, after)))
        .orderBy(asc(bvSpecifications.id))
        .limit(limit),
    (r) => r.id,
    pageRows,
  );
  const distinct = new Map<
    string,
    { analyteId: number; loinc: string | null; npu: string | null; snomedCt: string | null }
  >();
  for (const { analyteId, loinc, npu, snomedCt } of rows)
    distinct.set(JSON.stringify([analyteId, loinc, npu, snomedCt]), { analyteId, loinc, npu, snomedCt });
  return [...distinct.values()];
}
