import type { IndirectMethodResult, IndirectStratum as StratumAnswer, LocalEstimate } from '@bvdb/contract';
import { LOCAL_EVIDENCE_CLASS } from '@bvdb/contract';
import type { IndirectStratum, MethodResult } from '@bvdb/domain';
import type { LocalEstimateRow } from './local-estimates.repository.js';

/** A number JSON can carry (a 0/0 in a fitted tail is 0 expected results). */
const finite = (x: number) => (Number.isFinite(x) ? x : 0);

export function presentMethod(m: MethodResult): IndirectMethodResult {
  return {
    method: m.method,
    source: m.source,
    pairs_used: m.pairsUsed,
    steps: m.steps.map((s) => ({ ...s })),
    cv_total: m.cvTotal,
    cvi: m.cvi,
    cvi_interval: m.cviInterval ? { low: m.cviInterval.low, high: m.cviInterval.high } : null,
    rcv_model: { up: m.rcvModel.up, down: m.rcvModel.down },
    rcv_formula: m.rcvFormula ? { up: m.rcvFormula.up, down: m.rcvFormula.down } : null,
    histogram: m.histogram.map((b) => ({ from: b.from, to: b.to, count: b.count })),
    fitted: m.fitted.map(finite),
    ...(m.note ? { note: m.note } : {}),
  };
}

/** A stratum of the domain's estimate, as the answer carries it: counts and summaries only. */
export function presentStratum(s: IndirectStratum): StratumAnswer {
  return {
    key: { ...s.key },
    pairing: {
      results: s.pairing.results,
      patients: s.pairing.patients,
      dropped_duplicate_times: s.pairing.droppedDuplicateTimes,
      pairs: s.pairing.pairs,
      steps: s.pairing.steps.map((x) => ({ ...x })),
    },
    methods: s.methods.map(presentMethod),
    ...(s.note ? { note: s.note } : {}),
  };
}

export function presentLocalEstimate(r: LocalEstimateRow): LocalEstimate {
  const e = r.estimate;
  return {
    id: e.id,
    measurand_id: e.analyteId,
    evidence_class: LOCAL_EVIDENCE_CLASS,
    laboratory: e.laboratory,
    matrix: e.matrixId !== null && r.matrixName ? { id: e.matrixId, name: r.matrixName } : null,
    method: e.method as LocalEstimate['method'],
    cv_total: e.cvTotal,
    cva: e.cva,
    cvi: e.cvi,
    cvi_lower: e.cviLower,
    cvi_upper: e.cviUpper,
    pairs: e.pairs,
    patients: e.patients,
    results: e.results,
    min_days: e.minDays,
    max_days: e.maxDays,
    pairs_per_patient: e.pairsPerPatient as LocalEstimate['pairs_per_patient'],
    period: e.period,
    note: e.note,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
    version: e.version,
  };
}
