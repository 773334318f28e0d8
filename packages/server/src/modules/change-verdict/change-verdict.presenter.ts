import {
  CHANGE_VERDICT_SOURCE,
  V3_INTERPRETATION_SYSTEM,
  type ChangeVerdictAnswer,
  type ChangeVerdictQuery,
} from '@bvdb/contract';
import { limitsKindOf } from '@bvdb/domain';
import { populationRowSentence } from '../meta-analysis/index.js';
import type { JudgedChange } from './change-verdict.service.js';

const V3_DISPLAY = { U: 'Significant change up', D: 'Significant change down' } as const;

/** The measurand page of the CVI estimate, in the matrix judged (decision 027's permalink). */
const permalinkOf = (analyteId: number, matrix: string) =>
  `/analytes/${analyteId}?${new URLSearchParams({ matrix, type: 'CVI' }).toString()}`;

export function presentChangeVerdict(q: ChangeVerdictQuery, judged: JudgedChange): ChangeVerdictAnswer {
  const { group, cviRef } = judged.found;
  const { verdict, population } = judged;
  const code = verdict.interpretation;
  const answer: ChangeVerdictAnswer = {
    measurand: { id: group.analyteId, display_name: group.analyteName },
    matrix: { name: group.matrix, headline: group.headline },
    estimate: population
      ? {
          // A population's CVI (issue 47.3): recomputed, no stored estimate behind it.
          id: null,
          version: null,
          permalink: permalinkOf(group.analyteId, group.matrix),
          cvi: {
            median: population.cvi.result.weightedMedian!,
            lower: population.cvi.result.rangeLower,
            upper: population.cvi.result.rangeUpper,
            limits: limitsKindOf(population.cvi.result.method),
            number_used: population.cvi.result.n,
          },
        }
      : {
          id: cviRef?.estimateId ?? null,
          version: cviRef?.version ?? null,
          permalink: permalinkOf(group.analyteId, group.matrix),
          cvi: {
            median: group.cvi!.meta.median!,
            lower: group.cvi!.meta.lower,
            upper: group.cvi!.meta.upper,
            limits: limitsKindOf(group.cvi!.meta.method),
            number_used: group.cvi!.meta.numberUsed,
          },
        },
    inputs: {
      x1: q.x1,
      x2: q.x2,
      unit: q.unit ?? null,
      unit2: judged.conversion ? judged.conversion.from : null,
      converted: judged.conversion
        ? {
            x2: judged.conversion.x2,
            from: judged.conversion.from,
            to: judged.conversion.to,
            factor: judged.conversion.factor,
          }
        : null,
      cva: judged.cva,
      cva_source: judged.cvaSource,
      probability: q.probability,
      direction: q.direction,
      z: verdict.z,
      n1: q.n1,
      n2: q.n2,
    },
    rcv: { up: verdict.up, down: verdict.down, up_range: verdict.upRange, down_range: verdict.downRange },
    change_pct: verdict.change,
    significant: verdict.significant,
    interpretation: {
      v2_0078: code,
      v3: code === null ? null : { system: V3_INTERPRETATION_SYSTEM, code, display: V3_DISPLAY[code] },
      text: verdict.text,
    },
    source: CHANGE_VERDICT_SOURCE,
  };
  if (population) {
    const p = population.population;
    answer.population = {
      selection: Object.fromEntries(Object.entries(p.selection).map(([k, v]) => [k, [...v]])),
      key: p.key,
      label: p.label,
      studies: population.studies,
      sentence: populationRowSentence(p, population.studies),
    };
  }
  return answer;
}
