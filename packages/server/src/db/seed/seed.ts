import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import {
  DISEASE_STATES,
  estimateCviConfidenceInterval,
  ETHNICITIES,
  MATRICES,
  STATES_OF_WELL_BEING,
} from '@bvdb/domain';
import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../client.js';
import {
  analytes,
  appState,
  bvSpecificationDiseaseStates,
  bvSpecifications,
  diseaseStates,
  ethnicities,
  matrices,
  matrixConsolidationMembers,
  matrixConsolidations,
  references,
  statesOfWellBeing,
  units,
  users,
} from '../schema.js';
import { hashPassword } from '../../lib/password.js';
import { bumpDataGeneration } from '../../lib/data-generation.js';
import { recomputeAnalyteMetas } from '../../modules/meta-analysis/recompute/meta-recompute.service.js';
import { seedContentPages } from '../../modules/content/content.service.js';
import {
  diseaseIdsFor,
  matrixIdFor,
  numbers,
  parseAge,
  parseDuration,
  parseInterval,
  provisionalGrades,
  readCsvObjects,
  shouldInclude,
} from './demo-data.js';

const SEED_DIR = fileURLToPath(new URL('../../../seed-data/', import.meta.url));
export const DEMO_NOTE = 'Provisional demo appraisal, not an official BIVAC assessment.';

/** Lookup values of spec section 3, exactly; re-running updates names and adds nothing twice. */
export async function seedLookups(db: DbOrTx): Promise<void> {
  for (const m of MATRICES) {
    await db
      .insert(matrices)
      .values({ id: m.id, matrixExpansion: m.name })
      .onConflictDoUpdate({ target: matrices.id, set: { matrixExpansion: m.name } });
  }
  for (const s of STATES_OF_WELL_BEING) {
    await db
      .insert(statesOfWellBeing)
      .values({ id: s.id, expansion: s.name })
      .onConflictDoUpdate({ target: statesOfWellBeing.id, set: { expansion: s.name } });
  }
  for (const d of DISEASE_STATES) {
    await db
      .insert(diseaseStates)
      .values({ id: d.id, itemType: d.name })
      .onConflictDoUpdate({ target: diseaseStates.id, set: { itemType: d.name } });
  }
  for (const e of ETHNICITIES) {
    await db
      .insert(ethnicities)
      .values({ id: e.id, expansion: e.name })
      .onConflictDoUpdate({ target: ethnicities.id, set: { expansion: e.name } });
  }
  // Serum, plasma and serum/plasma estimates are pooled in one meta-analysis.
  await db
    .insert(matrixConsolidations)
    .values({ id: 1, name: 'Serum/Plasma (pooled)', description: 'Serum, plasma and serum/plasma together' })
    .onConflictDoNothing();
  for (const matrixId of [1, 2, 21]) {
    await db
      .insert(matrixConsolidationMembers)
      .values({ consolidationId: 1, matrixId })
      .onConflictDoNothing();
  }
}

async function unitId(db: DbOrTx, cache: Map<string, number>, name: string): Promise<number | null> {
  if (!name) return null;
  const known = cache.get(name);
  if (known) return known;
  await db.insert(units).values({ name }).onConflictDoNothing();
  const [row] = await db.select({ id: units.id }).from(units).where(eq(units.name, name));
  cache.set(name, row!.id);
  return row!.id;
}

/** "Alanine aminotransferase (ALT)" → alternate name "ALT". */
function alternateNamesOf(measurand: string): string[] {
  const m = /\(([^)]+)\)\s*$/.exec(measurand);
  return m ? m[1]!.split(/\s*(?:,| or )\s*/).filter((s) => s.length > 0 && s.length <= 20) : [];
}

/** The demo content from published studies (seed-data/), once per database. */
export async function seedDemo(db: Db): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [done] = await tx.select().from(appState).where(eq(appState.key, 'demo_seeded'));
    if (done) return false;
    const studies = readCsvObjects(fs.readFileSync(`${SEED_DIR}bv_studies_seed.csv`, 'utf8'));
    const refs = readCsvObjects(fs.readFileSync(`${SEED_DIR}bv_references_seed.csv`, 'utf8'));

    const refIds = new Map<string, number>();
    const refKey = (r: Record<string, string>) =>
      r.doi ? `doi:${r.doi.toLowerCase()}` : `t:${r.title ?? r.reference_title}`;
    const addReference = async (r: {
      title: string;
      authors: string;
      journal: string;
      year: string;
      volume: string;
      pages: string;
      doi: string;
      pmid: string;
    }) => {
      const key = r.doi ? `doi:${r.doi.toLowerCase()}` : `t:${r.title}`;
      if (refIds.has(key)) return;
      const [row] = await tx
        .insert(references)
        .values({
          title: r.title,
          author: r.authors || null,
          journal: r.journal || null,
          yearOfPublication: numbers.num(r.year),
          volume: numbers.num(r.volume),
          pages: r.pages || null,
          doi: r.doi || null,
          pubmedLink: r.pmid ? `https://pubmed.ncbi.nlm.nih.gov/${r.pmid}/` : null,
          link: r.doi ? `https://doi.org/${r.doi}` : null,
          isDemo: true,
        })
        .returning({ id: references.id });
      refIds.set(key, row!.id);
    };
    for (const r of refs) {
      await addReference({
        title: r.title!,
        authors: r.authors ?? '',
        journal: r.journal ?? '',
        year: r.year ?? '',
        volume: r.volume ?? '',
        pages: r.pages ?? '',
        doi: r.doi ?? '',
        pmid: r.pmid ?? '',
      });
    }

    const analyteIds = new Map<string, number>();
    const unitCache = new Map<string, number>();
    let n = 0;
    for (const s of studies) {
      await addReference({
        title: s.reference_title!,
        authors: s.reference_authors ?? '',
        journal: s.journal ?? '',
        year: s.year ?? '',
        volume: s.volume ?? '',
        pages: s.pages ?? '',
        doi: s.doi ?? '',
        pmid: s.pmid ?? '',
      });
      const referenceId = refIds.get(refKey({ doi: s.doi ?? '', title: s.reference_title ?? '' }))!;
      const measurand = s.measurand!;
      let analyteId = analyteIds.get(measurand);
      if (!analyteId) {
        const [a] = await tx
          .insert(analytes)
          .values({
            displayName: measurand,
            fullName: measurand,
            alternateNames: alternateNamesOf(measurand),
            isDemo: true,
          })
          .returning({ id: analytes.id });
        analyteId = a!.id;
        analyteIds.set(measurand, analyteId);
      }
      const cvi = numbers.num(s.cvi_pct);
      const cva = numbers.num(s.cva_pct);
      const subjects = numbers.num(s.n_subjects);
      const samples = numbers.num(s.samples_per_subject);
      const replicates = numbers.num(s.replicates);
      const reportedCvi = numbers.num(s.cvi_ci_lower) !== null && numbers.num(s.cvi_ci_upper) !== null;
      const reportedCvg = numbers.num(s.cvg_ci_lower) !== null && numbers.num(s.cvg_ci_upper) !== null;
      let calculated: { lower: number; upper: number } | null = null;
      if (!reportedCvi && cvi !== null && cva !== null && subjects !== null && samples !== null) {
        calculated = estimateCviConfidenceInterval({
          subjects,
          samplesPerSubject: samples,
          replicates: replicates ?? 1,
          cva,
          cvi,
        });
      }
      const interval = parseInterval(s.sampling_interval ?? '');
      const duration = parseDuration(s.study_duration ?? '');
      const age = parseAge(s.age_range_or_mean ?? '');
      const healthy = s.health_state === 'Healthy';
      const children = /child/i.test(`${s.health_state} ${s.population_note}`);
      const grades = provisionalGrades(s, reportedCvi);
      n++;
      const [spec] = await tx
        .insert(bvSpecifications)
        .values({
          uniqueIdentifier: `DEMO-${String(n).padStart(3, '0')}`,
          referenceId,
          analyteId,
          matrixId: matrixIdFor(s.matrix ?? '', measurand),
          scale: grades.scale,
          studyPopulation: grades.study_population,
          samples: grades.samples,
          measurand: grades.measurand,
          preAnalytical: grades.pre_analytical,
          replicateAnalysis: grades.replicate_analysis,
          steadyState: grades.steady_state,
          outlierAnalysis: grades.outlier_analysis,
          normality: grades.normality,
          varianceHomogeneity: grades.variance_homogeneity,
          anova: grades.anova,
          ci: grades.ci,
          numberOfResults: grades.number_of_results,
          concentrations: grades.concentrations,
          scoringComment: DEMO_NOTE,
          ageMin: age.min,
          ageMax: age.max,
          ageMean: age.mean,
          stateOfWellBeingId: healthy ? 1 : 2,
          ethnicityId: 7,
          studyDuration: duration?.value ?? null,
          studyDurationUnits: duration?.units ?? null,
          numberOfSubjects: subjects,
          numberOfMales: numbers.num(s.n_males),
          numberOfFemales: numbers.num(s.n_females),
          numberOfSubjectsIncludedInBvEstimation: subjects,
          samplesPer: interval?.samplesPer ?? null,
          intervalUnits: interval?.units ?? null,
          averageNumberOfSamplesUsedForBvEstimation: samples,
          averageNumberOfReplicates: replicates,
          estimatesOfCvi: cvi,
          reportedCviLower: reportedCvi ? numbers.num(s.cvi_ci_lower) : null,
          reportedCviUpper: reportedCvi ? numbers.num(s.cvi_ci_upper) : null,
          estimatesOfCvg: numbers.num(s.cvg_pct),
          reportedCvgLower: reportedCvg ? numbers.num(s.cvg_ci_lower) : null,
          reportedCvgUpper: reportedCvg ? numbers.num(s.cvg_ci_upper) : null,
          calculatedWithinLower: calculated?.lower ?? null,
          calculatedWithinUpper: calculated?.upper ?? null,
          analyticalCv: cva,
          unitId: await unitId(tx, unitCache, s.unit ?? ''),
          healthy,
          adult: !children,
          weeklySamplings: interval?.units === 'Week',
          review: true,
          published: true,
          includeInMetaAnalysis: shouldInclude(s),
          sexForMetaAnalysis:
            s.n_males && !s.n_females ? 'Males' : s.n_females && !s.n_males ? 'Females' : 'Mixed',
          comment: [
            s.sampling_interval && !interval ? `Sampling: ${s.sampling_interval}.` : '',
            s.study_duration && !duration ? `Duration: ${s.study_duration}.` : '',
            s.population_note ? `${s.population_note}.` : '',
            s.health_state && !healthy ? `${s.health_state}.` : '',
            `Source: ${s.source_url}`,
          ]
            .filter(Boolean)
            .join(' '),
          isDemo: true,
        })
        .returning({ id: bvSpecifications.id });
      if (!healthy) {
        for (const diseaseStateId of diseaseIdsFor(s.health_state ?? '')) {
          await tx
            .insert(bvSpecificationDiseaseStates)
            .values({ bvSpecificationId: spec!.id, diseaseStateId });
        }
      }
    }
    for (const id of analyteIds.values()) await recomputeAnalyteMetas(tx, id);
    await tx.insert(appState).values({ key: 'demo_seeded', value: sql`to_jsonb(now())` });
    await bumpDataGeneration(tx);
    return true;
  });
}

export interface SeedOptions {
  demo: boolean;
  adminEmail?: string | undefined;
  adminPassword?: string | undefined;
}

/** First start: lookups, demo content, and an administrator; every step is safe to repeat. */
export async function seedDatabase(db: Db, opts: SeedOptions) {
  await db.transaction(async (tx) => {
    await seedLookups(tx);
    await seedContentPages(tx);
  });
  const demoSeeded = opts.demo ? await seedDemo(db) : false;
  const email = opts.adminEmail ?? 'admin@example.org';
  const [anyUser] = await db.select({ id: users.id }).from(users).limit(1);
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`);
  let generatedAdminPassword: string | undefined;
  if (!existing && (!anyUser || opts.adminEmail)) {
    const password = opts.adminPassword ?? randomBytes(12).toString('base64url');
    if (!opts.adminPassword) generatedAdminPassword = password;
    await db
      .insert(users)
      .values({ email, name: 'Administrator', passwordHash: await hashPassword(password), role: 'admin' });
  }
  return { demoSeeded, adminEmail: email, generatedAdminPassword };
}
