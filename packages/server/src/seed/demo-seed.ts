import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CODE_SYSTEMS, codeSystemOf, estimateCviConfidenceInterval, measurandNameKey } from '@bvdb/domain';
import type { Db, DbOrTx } from '../db/client.js';
import type { bvSpecifications } from '../db/schema.js';
import { bumpDataGeneration } from '../lib/app-state.repository.js';
import { recomputeAnalytesMetas } from '../modules/meta-analysis/index.js';
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
import * as repo from './seed.repository.js';

const SEED_DIR = fileURLToPath(new URL('../../seed-data/', import.meta.url));
const DEMO_NOTE = 'Provisional demo appraisal, not an official BIVAC assessment.';

interface DemoReference {
  title: string;
  authors: string;
  journal: string;
  year: string;
  volume: string;
  pages: string;
  doi: string;
  pmid: string;
}

/** "Alanine aminotransferase (ALT)" → alternate name "ALT". */
function alternateNamesOf(measurand: string): string[] {
  const m = /\(([^)]+)\)\s*$/.exec(measurand);
  return m ? m[1]!.split(/\s*(?:,| or )\s*/).filter((s) => s.length > 0 && s.length <= 20) : [];
}

/** One study row of seed-data/ as a dataset, graded with the provisional demo appraisal. */
function datasetOf(
  s: Record<string, string>,
  ids: { n: number; referenceId: number; analyteId: number; unitId: number | null },
): typeof bvSpecifications.$inferInsert {
  const measurand = s.measurand!;
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
  return {
    uniqueIdentifier: `DEMO-${String(ids.n).padStart(3, '0')}`,
    referenceId: ids.referenceId,
    analyteId: ids.analyteId,
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
    unitId: ids.unitId,
    healthy,
    adult: !children,
    weeklySamplings: interval?.units === 'Week',
    review: true,
    published: true,
    includeInMetaAnalysis: shouldInclude(s),
    sexForMetaAnalysis: s.n_males && !s.n_females ? 'Males' : s.n_females && !s.n_males ? 'Females' : 'Mixed',
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
  };
}

/** Adds each reference, measurand and unit once, remembering the ids given. */
function demoCatalogue(tx: DbOrTx) {
  const refIds = new Map<string, number>();
  const analyteIds = new Map<string, number>();
  const unitIds = new Map<string, number>();
  const refKey = (r: { doi: string; title: string }) =>
    r.doi ? `doi:${r.doi.toLowerCase()}` : `t:${r.title}`;
  return {
    analyteIds,
    async reference(r: DemoReference): Promise<number> {
      const key = refKey(r);
      const known = refIds.get(key);
      if (known) return known;
      const id = await repo.insertReference(tx, {
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
      });
      refIds.set(key, id);
      return id;
    },
    async analyte(measurand: string): Promise<number> {
      const known = analyteIds.get(measurand);
      if (known) return known;
      const id = await repo.insertAnalyte(tx, {
        displayName: measurand,
        fullName: measurand,
        alternateNames: alternateNamesOf(measurand),
        isDemo: true,
      });
      analyteIds.set(measurand, id);
      return id;
    },
    async unit(name: string): Promise<number | null> {
      if (!name) return null;
      const id = unitIds.get(name) ?? (await repo.ensureUnit(tx, name));
      unitIds.set(name, id);
      return id;
    },
  };
}

/** The demo content from published studies (seed-data/), once per database. */
export async function seedDemo(db: Db): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (await repo.isDemoSeeded(tx)) return false;
    const studies = readCsvObjects(fs.readFileSync(`${SEED_DIR}bv_studies_seed.csv`, 'utf8'));
    const refs = readCsvObjects(fs.readFileSync(`${SEED_DIR}bv_references_seed.csv`, 'utf8'));
    const catalogue = demoCatalogue(tx);
    for (const r of refs) {
      await catalogue.reference({
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
    let n = 0;
    for (const s of studies) {
      const referenceId = await catalogue.reference({
        title: s.reference_title!,
        authors: s.reference_authors ?? '',
        journal: s.journal ?? '',
        year: s.year ?? '',
        volume: s.volume ?? '',
        pages: s.pages ?? '',
        doi: s.doi ?? '',
        pmid: s.pmid ?? '',
      });
      const analyteId = await catalogue.analyte(s.measurand!);
      const unitId = await catalogue.unit(s.unit ?? '');
      n++;
      const healthy = s.health_state === 'Healthy';
      await repo.insertDataset(
        tx,
        datasetOf(s, { n, referenceId, analyteId, unitId }),
        healthy ? [] : diseaseIdsFor(s.health_state ?? ''),
      );
    }
    await recomputeAnalytesMetas(tx, [...catalogue.analyteIds.values()]);
    await seedDemoNames(tx);
    await seedDemoCodes(tx);
    await repo.markDemoSeeded(tx);
    await bumpDataGeneration(tx);
    return true;
  });
}

/**
 * The demo measurands' alternative names (seed-data/measurand_names_seed.csv, decision 083), once per
 * database: with the demo on a new database, and on the first start of a demo database seeded before
 * the names existed. A name whose key another measurand already has is left out (never moved).
 */
export async function seedDemoNames(tx: DbOrTx): Promise<number> {
  if (await repo.isDemoNamesSeeded(tx)) return 0;
  const rows = readCsvObjects(fs.readFileSync(`${SEED_DIR}measurand_names_seed.csv`, 'utf8'));
  const ids = await repo.demoAnalyteIdsByName(tx);
  const names = rows.flatMap((r) => {
    const analyteId = ids.get(r.measurand!);
    const matchKey = measurandNameKey(r.name!);
    return analyteId && matchKey ? [{ analyteId, name: r.name!, matchKey, source: r.source || null }] : [];
  });
  await repo.insertMeasurandNames(tx, names);
  await repo.markDemoNamesSeeded(tx);
  return names.length;
}

/**
 * The demo's codes come in batches, each seeded once per database (its own app_state marker): the
 * LOINC codes (decision 091), then the NPU codes (decision 093), so a demo database seeded before a
 * batch existed gets that batch on its next start, and what a curator removed of an earlier batch
 * stays removed.
 */
const DEMO_CODE_BATCHES = [
  { key: 'demo_codes_seeded', systems: [CODE_SYSTEMS.loinc, CODE_SYSTEMS.snomed] as string[] },
  { key: 'demo_npu_codes_seeded', systems: [CODE_SYSTEMS.npu] as string[] },
];

/**
 * The demo measurands' codes (seed-data/measurand_codes_seed.csv, issue 45.2), each with the public
 * source that states it, once per database and batch: with the demo on a new database, and on the
 * first start of a demo database seeded before the batch existed. A code another measurand already
 * has is left out (never moved). Returns how many were added.
 */
export async function seedDemoCodes(tx: DbOrTx): Promise<number> {
  const due = [];
  for (const batch of DEMO_CODE_BATCHES) if (!(await repo.isDemoCodesSeeded(tx, batch.key))) due.push(batch);
  if (due.length === 0) return 0;
  const systems = new Set(due.flatMap((b) => b.systems));
  const rows = readCsvObjects(fs.readFileSync(`${SEED_DIR}measurand_codes_seed.csv`, 'utf8'));
  const ids = await repo.demoAnalyteIdsByName(tx);
  const matrixIds = await repo.matrixIdsByName(tx);
  const codes = rows.flatMap((r) => {
    const analyteId = ids.get(r.measurand!);
    const system = codeSystemOf(r.system ?? '');
    if (!analyteId || !system || !r.code || !systems.has(system)) return [];
    return [
      {
        analyteId,
        system,
        code: r.code,
        display: r.display || null,
        matrixId: (r.matrix && matrixIds.get(r.matrix)) || null,
        ucumUnit: r.ucum_unit || null,
        source: r.source || null,
      },
    ];
  });
  const added = await repo.insertMeasurandCodes(tx, codes);
  for (const batch of due) await repo.markDemoCodesSeeded(tx, batch.key);
  return added;
}
