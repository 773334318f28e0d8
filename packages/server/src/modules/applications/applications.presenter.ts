import {
  APPLICATIONS_SOURCES,
  type Applications,
  type ApplicationsQuery,
  type ApplicationsRow,
} from '@bvdb/contract';
import { limitsKindOf, type WorkbenchValue } from '@bvdb/domain';
import type { MetaRow } from '../meta-analysis/index.js';
import type { ApplicationsGroup } from './applications.service.js';

const estimate = (row: MetaRow | null) =>
  row && row.meta.median !== null
    ? {
        id: row.meta.id,
        median: row.meta.median,
        lower: row.meta.lower,
        upper: row.meta.upper,
        limits: limitsKindOf(row.meta.method),
        number_used: row.meta.numberUsed,
        updated_at: row.meta.updatedAt.toISOString(),
      }
    : null;

const value = (v: WorkbenchValue) => ({ value: v.value, range: v.range, why: v.why });

export function presentApplicationsRow(g: ApplicationsGroup): ApplicationsRow {
  const { aps, rcv, ii } = g.values;
  return {
    measurand_id: g.analyteId,
    display_name: g.analyteName,
    matrix: g.matrix,
    matrix_id: g.matrixId,
    matrix_consolidation_id: g.consolidationId,
    headline: g.headline,
    cvi: estimate(g.cvi),
    cvg: estimate(g.cvg),
    aps: {
      imprecision: value(aps.imprecision),
      bias: value(aps.bias),
      total_error: value(aps.totalError),
      mau: value(aps.mau),
    },
    rcv: { up: value(rcv.up), down: value(rcv.down), cva: rcv.cva, cva_source: rcv.cvaSource },
    ii: value(ii),
  };
}

export function presentApplications(
  query: ApplicationsQuery,
  z: number,
  groups: ApplicationsGroup[],
): Applications {
  return {
    parameters: {
      level: query.level,
      probability: query.probability,
      z,
      cva: query.cva ?? null,
      matrices: query.matrices,
    },
    sources: { ...APPLICATIONS_SOURCES },
    data: groups.map(presentApplicationsRow),
  };
}
