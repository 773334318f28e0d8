import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { bvSpecifications } from '../db/schema.js';

/**
 * A population to choose (issue 47): total cholesterol's serum datasets made eligible (a CI of each
 * CV ÷ 1.25 to × 1.25, the grades of one eligible dataset), the first half of its studies made
 * athletes' studies with a CVI two and a half times as high, not flagged healthy. Written straight
 * into the database before any read, as the facet tests do; the stored global results stay the seed's.
 */
export async function makeAthletesOfCholesterol(
  db: Db,
  cholId: number,
): Promise<{ athletes: number[]; healthy: number[] }> {
  const specs = await db
    .select()
    .from(bvSpecifications)
    .where(and(eq(bvSpecifications.analyteId, cholId), eq(bvSpecifications.matrixId, 1)))
    .orderBy(bvSpecifications.referenceId, bvSpecifications.id);
  const graded = specs.find((s) => s.includeInMetaAnalysis && s.gradesFinal)!;
  const grades = {
    scale: graded.scale,
    studyPopulation: graded.studyPopulation,
    samples: graded.samples,
    measurand: graded.measurand,
    preAnalytical: graded.preAnalytical,
    replicateAnalysis: graded.replicateAnalysis,
    steadyState: graded.steadyState,
    outlierAnalysis: graded.outlierAnalysis,
    normality: graded.normality,
    varianceHomogeneity: graded.varianceHomogeneity,
    anova: graded.anova,
    ci: graded.ci,
    numberOfResults: graded.numberOfResults,
    concentrations: graded.concentrations,
  };
  const refs = [...new Set(specs.map((s) => s.referenceId))];
  const half = new Set(refs.slice(0, Math.floor(refs.length / 2)));
  for (const [i, s] of specs.entries()) {
    const cv = (half.has(s.referenceId) ? 12.5 : 5) * (1 + 0.05 * (i % 3));
    await db
      .update(bvSpecifications)
      .set({
        ...grades,
        gradesFinal: true,
        includeInMetaAnalysis: true,
        healthy: !half.has(s.referenceId),
        stateOfWellBeingId: half.has(s.referenceId) ? 4 : 1,
        estimatesOfCvi: cv,
        reportedCviLower: cv / 1.25,
        reportedCviUpper: cv * 1.25,
      })
      .where(eq(bvSpecifications.id, s.id));
  }
  return {
    athletes: specs.filter((s) => half.has(s.referenceId)).map((s) => s.id),
    healthy: specs.filter((s) => !half.has(s.referenceId)).map((s) => s.id),
  };
}
