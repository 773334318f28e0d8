import type { Dataset, DatasetForm, DatasetInput } from '@bvdb/contract';
import { estimateCviConfidenceInterval } from '@bvdb/domain';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { writeTransaction } from '../../lib/write-transaction.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { recordAudit } from '../audit/audit.service.js';
import { recomputeAnalyteMetas } from '../meta-analysis/recompute/meta-recompute.service.js';
import { presentDataset } from './datasets.presenter.js';
import { findVisibleDataset } from './datasets.repository.js';
import * as repo from './dataset-write.repository.js';
import type { SpecColumns, SpecRow } from './dataset-write.repository.js';

const bool = (v: 0 | 1) => v === 1;
const flag = (b: boolean): 0 | 1 => (b ? 1 : 0);

/**
 * The CI of the CVI from the study design when the paper gives none (Røraas et al. 2012), as the
 * seed does; null when the design does not allow one.
 */
function calculatedWithinCi(v: DatasetInput): { lower: number | null; upper: number | null } {
  const none = { lower: null, upper: null };
  const reported =
    v.reported_cvi_lower_confidence_interval !== null && v.reported_cvi_upper_confidence_interval !== null;
  const subjects = v.number_of_subjects_included_in_bv_estimation ?? v.number_of_subjects;
  const samples = v.average_number_of_samples_used_for_bv_estimation;
  if (reported || v.estimates_of_cvi === null || v.analytical_cv === null) return none;
  if (subjects === null || samples === null) return none;
  try {
    const ci = estimateCviConfidenceInterval({
      subjects,
      samplesPerSubject: samples,
      replicates: v.average_number_of_replicates ?? 1,
      cva: v.analytical_cv,
      cvi: v.estimates_of_cvi,
    });
    return ci ?? none;
  } catch {
    return none;
  }
}

/** Validated payload → stored columns (the derived CI is computed here, never sent). */
export function columnsOf(v: DatasetInput): SpecColumns {
  const within = calculatedWithinCi(v);
  return {
    uniqueIdentifier: v.unique_identifier,
    referenceId: v.reference_id,
    analyteId: v.analyte_id,
    matrixId: v.matrix_id,
    scale: v.scale,
    studyPopulation: v.study_population,
    samples: v.samples,
    measurand: v.measurand,
    preAnalytical: v.pre_analytical,
    replicateAnalysis: v.replicate_analysis,
    steadyState: v.steady_state,
    outlierAnalysis: v.outlier_analysis,
    normality: v.normality,
    varianceHomogeneity: v.variance_homogeneity,
    anova: v.anova,
    ci: v.ci,
    numberOfResults: v.number_of_results,
    concentrations: v.concentrations,
    scoringComment: v.scoring_comment,
    ageMin: v.age_min,
    ageMax: v.age_max,
    ageMean: v.age_mean,
    ageSd: v.age_sd,
    stateOfWellBeingId: v.state_of_well_being_id,
    ethnicityId: v.ethnicity_id,
    studyDuration: v.study_duration,
    studyDurationUnits: v.study_duration_units,
    numberOfSubjects: v.number_of_subjects,
    numberOfMales: v.number_of_males,
    numberOfFemales: v.number_of_females,
    numberOfSubjectsIncludedInBvEstimation: v.number_of_subjects_included_in_bv_estimation,
    samplesPer: v.samples_per,
    intervalUnits: v.interval_units,
    samplingTimesStartTime: v.sampling_times_start_time,
    samplingTimesEndTime: v.sampling_times_end_time,
    averageNumberOfSamplesUsedForBvEstimation: v.average_number_of_samples_used_for_bv_estimation,
    averageNumberOfReplicates: v.average_number_of_replicates,
    preanalyticalIssues: v.preanalytical_issues,
    estimatesOfCvi: v.estimates_of_cvi,
    reportedCviLower: v.reported_cvi_lower_confidence_interval,
    reportedCviUpper: v.reported_cvi_upper_confidence_interval,
    estimatesOfCvg: v.estimates_of_cvg,
    reportedCvgLower: v.reported_cvg_lower_confidence_interval,
    reportedCvgUpper: v.reported_cvg_upper_confidence_interval,
    calculatedWithinLower: within.lower,
    calculatedWithinUpper: within.upper,
    analyticalCv: v.analytical_cv,
    concentrationMean: v.concentration_mean,
    concentrationMin: v.concentration_min,
    concentrationMax: v.concentration_max,
    concentrationSd: v.concentration_sd,
    concentrationStandardUnitMean: v.concentration_standard_unit_mean,
    concentrationStandardUnitMin: v.concentration_standard_unit_min,
    concentrationStandardUnitMax: v.concentration_standard_unit_max,
    concentrationStandardUnitSd: v.concentration_standard_unit_sd,
    unitId: v.unit_id,
    secondUnitId: v.second_unit_id,
    standardUnitForReportingOfAnalyte: v.standard_unit_for_reporting_of_analyte,
    secondStandardUnit: v.second_standard_unit,
    overallPrincipleMethodId: v.overall_principle_method_id,
    healthy: bool(v.healthy),
    adult: bool(v.adult),
    weeklySamplings: bool(v.weekly_samplings),
    review: bool(v.review),
    published: bool(v.published),
    includeInMetaAnalysis: bool(v.include_in_meta_analysis),
    sexForMetaAnalysis: v.sex_for_meta_analysis,
    snomedCt: v.snomed_ct,
    npu: v.npu,
    loinc: v.loinc,
    comment: v.comment,
  };
}

/** Stored row → the editable values (what the edit form loads and the audit trail keeps). */
export function inputOf(s: SpecRow, diseaseIds: number[]): DatasetInput {
  return {
    analyte_id: s.analyteId,
    reference_id: s.referenceId,
    unique_identifier: s.uniqueIdentifier,
    matrix_id: s.matrixId,
    scale: s.scale as DatasetInput['scale'],
    study_population: s.studyPopulation as DatasetInput['study_population'],
    samples: s.samples as DatasetInput['samples'],
    measurand: s.measurand as DatasetInput['measurand'],
    pre_analytical: s.preAnalytical as DatasetInput['pre_analytical'],
    replicate_analysis: s.replicateAnalysis as DatasetInput['replicate_analysis'],
    steady_state: s.steadyState as DatasetInput['steady_state'],
    outlier_analysis: s.outlierAnalysis as DatasetInput['outlier_analysis'],
    normality: s.normality as DatasetInput['normality'],
    variance_homogeneity: s.varianceHomogeneity as DatasetInput['variance_homogeneity'],
    anova: s.anova as DatasetInput['anova'],
    ci: s.ci as DatasetInput['ci'],
    number_of_results: s.numberOfResults as DatasetInput['number_of_results'],
    concentrations: s.concentrations as DatasetInput['concentrations'],
    scoring_comment: s.scoringComment,
    age_min: s.ageMin,
    age_max: s.ageMax,
    age_mean: s.ageMean,
    age_sd: s.ageSd,
    state_of_well_being_id: s.stateOfWellBeingId,
    disease_state_ids: diseaseIds,
    ethnicity_id: s.ethnicityId,
    sex_for_meta_analysis: s.sexForMetaAnalysis as DatasetInput['sex_for_meta_analysis'],
    number_of_subjects: s.numberOfSubjects,
    number_of_males: s.numberOfMales,
    number_of_females: s.numberOfFemales,
    number_of_subjects_included_in_bv_estimation: s.numberOfSubjectsIncludedInBvEstimation,
    study_duration: s.studyDuration,
    study_duration_units: s.studyDurationUnits as DatasetInput['study_duration_units'],
    samples_per: s.samplesPer,
    interval_units: s.intervalUnits as DatasetInput['interval_units'],
    sampling_times_start_time: s.samplingTimesStartTime,
    sampling_times_end_time: s.samplingTimesEndTime,
    average_number_of_samples_used_for_bv_estimation: s.averageNumberOfSamplesUsedForBvEstimation,
    average_number_of_replicates: s.averageNumberOfReplicates,
    preanalytical_issues: s.preanalyticalIssues,
    estimates_of_cvi: s.estimatesOfCvi,
    reported_cvi_lower_confidence_interval: s.reportedCviLower,
    reported_cvi_upper_confidence_interval: s.reportedCviUpper,
    estimates_of_cvg: s.estimatesOfCvg,
    reported_cvg_lower_confidence_interval: s.reportedCvgLower,
    reported_cvg_upper_confidence_interval: s.reportedCvgUpper,
    analytical_cv: s.analyticalCv,
    concentration_mean: s.concentrationMean,
    concentration_min: s.concentrationMin,
    concentration_max: s.concentrationMax,
    concentration_sd: s.concentrationSd,
    concentration_standard_unit_mean: s.concentrationStandardUnitMean,
    concentration_standard_unit_min: s.concentrationStandardUnitMin,
    concentration_standard_unit_max: s.concentrationStandardUnitMax,
    concentration_standard_unit_sd: s.concentrationStandardUnitSd,
    unit_id: s.unitId,
    second_unit_id: s.secondUnitId,
    standard_unit_for_reporting_of_analyte: s.standardUnitForReportingOfAnalyte,
    second_standard_unit: s.secondStandardUnit,
    overall_principle_method_id: s.overallPrincipleMethodId,
    snomed_ct: s.snomedCt,
    npu: s.npu,
    loinc: s.loinc,
    comment: s.comment,
    healthy: flag(s.healthy),
    adult: flag(s.adult),
    weekly_samplings: flag(s.weeklySamplings),
    review: flag(s.review),
    published: flag(s.published),
    include_in_meta_analysis: flag(s.includeInMetaAnalysis),
  };
}

const formOf = (s: SpecRow, diseaseIds: number[]): DatasetForm => ({
  id: s.id,
  version: s.version,
  updated_at: s.updatedAt.toISOString(),
  bv_specification: inputOf(s, diseaseIds),
});

const snapshot = (s: SpecRow, diseaseIds: number[]) => ({ id: s.id, ...inputOf(s, diseaseIds) });

/** PostgreSQL foreign_key_violation / check_violation, whichever driver (and wrapping) reports it. */
function sqlStateOf(err: unknown): string | undefined {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (code === '23503' || code === '23514') return code;
  }
  return undefined;
}

/**
 * Create, edit and delete datasets: one transaction each with the audit entry and the cache bump.
 * Every write that touches a dataset also refreshes the meta-analyses of its measurand: queued when
 * this process has a job queue, otherwise inside the same transaction (results never go stale).
 */
export class DatasetWriteService {
  constructor(private readonly app: FastifyInstance) {}

  async form(id: number): Promise<DatasetForm> {
    const db = this.app.deps.database.db;
    const row = await repo.findDatasetRow(db, id);
    if (!row) throw notFound(`Dataset ${id}`);
    return formOf(row, await repo.diseaseIdsOf(db, id));
  }

  async create(input: DatasetInput, userId: number): Promise<Dataset> {
    const row = await this.write(async (tx) => {
      await this.assertKnownIds(tx, input);
      const row = await repo.insertDataset(tx, columnsOf(input));
      await repo.replaceDiseaseStates(tx, row.id, input.disease_state_ids);
      await recordAudit(tx, {
        userId,
        entity: 'bv_specification',
        entityId: row.id,
        action: 'create',
        after: snapshot(row, input.disease_state_ids),
      });
      await this.recomputeInTransaction(tx, [row.analyteId]);
      return row;
    });
    await this.queueRecompute([row.analyteId]);
    return this.present(row.id);
  }

  async update(id: number, input: DatasetInput, version: number, userId: number): Promise<Dataset> {
    const { before, after } = await this.write(async (tx) => {
      const before = await repo.lockDataset(tx, id);
      if (!before) throw notFound(`Dataset ${id}`);
      const beforeDiseases = await repo.diseaseIdsOf(tx, id);
      if (before.version !== version) {
        throw new AppError(
          'conflict',
          'Someone else saved this dataset after you opened it; your changes were not saved.',
          { current: formOf(before, beforeDiseases) },
        );
      }
      await this.assertKnownIds(tx, input);
      const after = await repo.updateDatasetRow(tx, id, {
        ...columnsOf(input),
        version: before.version + 1,
        updatedAt: new Date(),
      });
      await repo.replaceDiseaseStates(tx, id, input.disease_state_ids);
      await recordAudit(tx, {
        userId,
        entity: 'bv_specification',
        entityId: id,
        action: 'update',
        before: snapshot(before, beforeDiseases),
        after: snapshot(after, input.disease_state_ids),
      });
      await this.recomputeInTransaction(tx, [before.analyteId, after.analyteId]);
      return { before, after };
    });
    await this.queueRecompute([before.analyteId, after.analyteId]);
    return this.present(id);
  }

  async remove(id: number, version: number, userId: number): Promise<void> {
    const before = await this.write(async (tx) => {
      const before = await repo.lockDataset(tx, id);
      if (!before) throw notFound(`Dataset ${id}`);
      const diseases = await repo.diseaseIdsOf(tx, id);
      if (before.version !== version) {
        throw new AppError(
          'conflict',
          'Someone else saved this dataset after you opened it; it was not deleted. Look at the current values first.',
          { current: formOf(before, diseases) },
        );
      }
      await repo.deleteDatasetRow(tx, id);
      await recordAudit(tx, {
        userId,
        entity: 'bv_specification',
        entityId: id,
        action: 'delete',
        before: snapshot(before, diseases),
      });
      await this.recomputeInTransaction(tx, [before.analyteId]);
      return before;
    });
    await this.queueRecompute([before.analyteId]);
  }

  /** One write transaction; a constraint the checks above missed is still a 422, never a 500. */
  private async write<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await writeTransaction(serviceDeps(this.app), work);
    } catch (err) {
      const state = sqlStateOf(err);
      if (state === '23503') {
        throw new AppError(
          'unprocessable',
          'A chosen value no longer exists; reload the form and try again.',
        );
      }
      if (state === '23514') {
        throw new AppError('unprocessable', 'A value is outside what the database accepts.');
      }
      throw err;
    }
  }

  private async assertKnownIds(tx: Tx, input: DatasetInput): Promise<void> {
    const unknown = await repo.findUnknownIds(tx, input);
    if (unknown.length === 0) return;
    throw new AppError('unprocessable', unknown.map((u) => u.message).join(' '), {
      fields: unknown.map((u) => ({ path: `body.bv_specification.${u.field}`, message: u.message })),
    });
  }

  private async recomputeInTransaction(tx: Tx, analyteIds: number[]): Promise<void> {
    if (this.app.deps.jobs) return;
    for (const id of new Set(analyteIds)) await recomputeAnalyteMetas(tx, id);
  }

  /** After the commit, so the job sees the change. A failure to queue does not undo the saved write. */
  private async queueRecompute(analyteIds: number[]): Promise<void> {
    const jobs = this.app.deps.jobs;
    if (!jobs) return;
    const ids = [...new Set(analyteIds)];
    try {
      await jobs.enqueueMetaRecompute('matrices', ids);
      await jobs.enqueueMetaRecompute('consolidations', ids);
    } catch (err) {
      this.app.log.error({ err, analyteIds: ids }, 'could not queue the meta-analysis recompute');
    }
  }

  private async present(id: number): Promise<Dataset> {
    const row = await findVisibleDataset(this.app.deps.database.db, id, true);
    if (!row) throw notFound(`Dataset ${id}`);
    return presentDataset(row);
  }
}
