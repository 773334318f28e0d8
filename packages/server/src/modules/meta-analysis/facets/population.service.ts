import {
  FACETS,
  facetSelectionKey,
  facetSlug,
  FIXED_FACET_VALUES,
  invalidFacetChoice,
  normaliseFacetSelection,
  type Facet,
  type FacetSelection,
} from '@bvdb/domain';
import type { DbOrTx } from '../../../db/client.js';
import { AppError } from '../../../lib/app-error.js';
import type { DataScope, ResponseCache } from '../../../lib/response-cache.js';
import type { ServiceDeps } from '../../../lib/service-deps.js';
import { facetLookupLabels } from '../../lookups/index.js';
import { facetedEstimates, type FacetLabels, type ShownEstimate } from './meta-facets.service.js';
import { presentFacetAnswer } from './meta-facets.presenter.js';
import type { FacetedEstimates, FacetResult } from './meta-facets.types.js';

/**
 * A population (issue 47.3, decision 098): a facet set used where a laboratory decides — the
 * specifications table, the test menu, the change verdict. Each measurand's estimate is recomputed
 * by the facet service (decision 096) on the datasets the facets select, and kept per measurand and
 * normalised facet set until the datasets, the measurands or the lookups change.
 */

/** What a faceted estimate reads (as `GET /api/v1/measurands/{id}/facets`): never the stored results. */
const POPULATION_SCOPES: readonly DataScope[] = ['analytes', 'datasets', 'lookups'];

export interface Population {
  selection: FacetSelection;
  /** The canonical key (`sex=males&state=athletes`). */
  key: string;
  /** In words: "males, athletes". */
  label: string;
}

/** A label as it reads inside a sentence: "Males" → "males", "HIV" stays. */
const inSentence = (label: string) =>
  label.length > 1 && label[1] === label[1]!.toLowerCase() ? label[0]!.toLowerCase() + label.slice(1) : label;

/**
 * Every value each facet may be asked for on any measurand, with its label: the fixed vocabularies
 * (sex, age, interval) and every lookup value (states, diseases, ethnicities, methods, matrices).
 * Each measurand's own allowed values (decision 096) are a superset of nothing more: its datasets'
 * values come from the same lookups.
 */
async function vocabularyOf(db: DbOrTx): Promise<Record<Facet, Map<string, string>>> {
  const labels = await facetLookupLabels(db);
  const fromLookup = (map: Map<number, string>) => {
    const out = new Map<string, string>();
    for (const label of map.values()) if (!out.has(facetSlug(label))) out.set(facetSlug(label), label);
    return out;
  };
  const fixed = (values: readonly { value: string; label: string }[]) =>
    new Map(values.map((v) => [v.value, v.label]));
  return {
    sex: fixed(FIXED_FACET_VALUES.sex),
    age: fixed(FIXED_FACET_VALUES.age),
    state: fromLookup(labels.states),
    disease: fromLookup(labels.diseases),
    ethnicity: fromLookup(labels.ethnicities),
    interval: fixed(FIXED_FACET_VALUES.interval),
    method: fromLookup(labels.methods),
    matrix: fromLookup(labels.matrices),
    evidence: fixed(FIXED_FACET_VALUES.evidence),
  };
}

/**
 * The population a facet selection names, or null when none is chosen. An unknown value is a 400
 * naming the allowed ones (the same message as `GET /api/v1/measurands/{id}/metas?facet.*`).
 */
export async function populationOf(db: DbOrTx, asked: FacetSelection): Promise<Population | null> {
  const selection = normaliseFacetSelection(asked);
  if (Object.keys(selection).length === 0) return null;
  const vocabulary = await vocabularyOf(db);
  const allowed = Object.fromEntries(FACETS.map((f) => [f, [...vocabulary[f].keys()]])) as Record<
    Facet,
    string[]
  >;
  const problem = invalidFacetChoice(selection, allowed);
  if (problem) {
    throw new AppError(
      'bad_request',
      `facet.${problem.facet}: "${problem.value}" is not a value of this facet; allowed: ${problem.allowed.join(', ')}`,
    );
  }
  const label = FACETS.filter((f) => selection[f])
    .map((f) => selection[f]!.map((v) => inSentence(vocabulary[f].get(v) ?? v)).join(' or '))
    .join(', ');
  return { selection, key: facetSelectionKey(selection), label };
}

/** The sentence of a whole answer: "Population: males, athletes — recomputed per measurand from its matching studies". */
export const populationSentence = (p: Population) =>
  `Population: ${p.label} — recomputed per measurand from its matching studies`;

/**
 * The sentence of one row: "Population: males, athletes — recomputed from 4 studies", or that the
 * population has no estimate there (never the global estimate in its place).
 */
export function populationRowSentence(p: Population, studies: number): string {
  if (studies === 0)
    return `Population: ${p.label} — no estimate for this population (no eligible study matches)`;
  return `Population: ${p.label} — recomputed from ${studies} ${studies === 1 ? 'study' : 'studies'}`;
}

export const NO_POPULATION_ESTIMATE = 'No estimate for this population';

interface KeptEntry {
  stamp: number;
  value: Promise<FacetedEstimates>;
}

/** Faceted estimates kept per measurand and facet set (bounded, least recently used dropped first). */
class KeptFacetedEstimates {
  private readonly entries = new Map<string, KeptEntry>();
  /** The lookups' labels, read once per lookups generation (not once per measurand of a table). */
  private labels: { stamp: number; value: Promise<FacetLabels> } | undefined;

  constructor(private readonly max: number) {}

  private labelsOf(db: DbOrTx, cache: ResponseCache): Promise<FacetLabels> {
    const stamp = cache.stampOf(['lookups']);
    if (this.labels?.stamp !== stamp) {
      const value = facetLookupLabels(db);
      const kept = { stamp, value };
      this.labels = kept;
      value.catch(() => {
        if (this.labels === kept) this.labels = undefined;
      });
    }
    return this.labels.value;
  }

  get(
    db: DbOrTx,
    cache: ResponseCache,
    analyteId: number,
    selection: FacetSelection,
  ): Promise<FacetedEstimates> {
    const key = `${analyteId} ${facetSelectionKey(selection)}`;
    const stamp = cache.stampOf(POPULATION_SCOPES);
    const found = this.entries.get(key);
    if (found && found.stamp === stamp) {
      this.entries.delete(key);
      this.entries.set(key, found);
      return found.value;
    }
    // Stamped with the generations seen when the build starts: a write during it leaves it stale.
    const value = facetedEstimates(db, analyteId, selection, undefined, this.labelsOf(db, cache));
    const entry = { stamp, value };
    this.entries.delete(key);
    if (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }
}

const keptByCache = new WeakMap<ResponseCache, KeptFacetedEstimates>();

/** How many measurand × facet-set answers a process keeps (each a few KB). */
const KEPT_MAX = 20_000;

/**
 * A measurand's estimates for a facet set, computed once per data generation and kept (the facet
 * answers of `/metas`, the specifications table, the menu and the verdict share them). Concurrent
 * asks share one computation.
 */
export function keptFacetedEstimates(
  deps: Pick<ServiceDeps, 'db' | 'cache'>,
  analyteId: number,
  selection: FacetSelection,
): Promise<FacetedEstimates> {
  let kept = keptByCache.get(deps.cache);
  if (!kept) {
    kept = new KeptFacetedEstimates(KEPT_MAX);
    keptByCache.set(deps.cache, kept);
  }
  return kept.get(deps.db, deps.cache, analyteId, normaliseFacetSelection(selection));
}

/** A population's estimate of one group (matrix or consolidation) and type, or null. */
export function populationResultOf(
  estimates: FacetedEstimates,
  group: { matrixId: number | null; consolidationId: number | null },
  varType: ':cvi' | ':cvg',
): FacetResult | null {
  return (
    estimates.results.find(
      (r) =>
        r.varType === varType &&
        r.matrixId === group.matrixId &&
        r.consolidationId === group.consolidationId &&
        r.result.weightedMedian !== null,
    ) ?? null
  );
}

/** The studies behind a population's estimates of one group (CVI and CVG together). */
export const studiesOf = (...results: (FacetResult | null)[]) =>
  new Set(results.flatMap((r) => (r ? r.result.studies.map((s) => s.id) : []))).size;

/** The event loop let go after this long of work on many measurands (as the other multi-measurand builds). */
const STEP_MS = 8;

/**
 * `fn` for each measurand in turn, the event loop let go whenever a step has run STEP_MS: the
 * table and the menu may cover thousands of measurands, most answered from what is kept.
 */
export async function forEachMeasurandInSteps<T>(
  items: readonly T[],
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let since = performance.now();
  for (const item of items) {
    await fn(item);
    if (performance.now() - since >= STEP_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      since = performance.now();
    }
  }
}

/**
 * The `facets` part of the v1 measurand answer (its route lives with the stored results), from what
 * is kept; with `asOf`, recomputed from the estimates shown at that moment (decision 097).
 */
export async function facetAnswerOf(
  deps: Pick<ServiceDeps, 'db' | 'cache'>,
  analyteId: number,
  selection: FacetSelection,
  asOf?: { at: Date; shown: ShownEstimate[] },
) {
  if (asOf)
    return presentFacetAnswer(await facetedEstimates(deps.db, analyteId, selection, asOf.shown), asOf.at);
  return presentFacetAnswer(await keptFacetedEstimates(deps, analyteId, selection), null);
}
