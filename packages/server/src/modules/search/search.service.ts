import { AnalyteWithCountSchema, type AnalyteWithCount } from '@bvdb/contract';
import type { analytes } from '../../db/schema.js';
import { contractFragment, type JsonFragment } from '../../lib/contract-json.js';
import { KeptByChanges } from '../../lib/kept-by-changes.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import {
  alternativeNamesByMeasurand,
  codesByMeasurand,
  findAnalytesByIds,
  findAnalyteWithCount,
  listAllAnalytes,
  listPublishedDatasetOwners,
  presentWithCounts,
  withCountsJson,
  withDatasetCounts,
} from '../analytes/index.js';
import { changeLogOf, type ChangedRecord } from '../changes/index.js';
import { AnalyteIndex } from './analyte-index/analyte-index.js';

type AnalyteRow = (typeof analytes)['$inferSelect'];

interface Names {
  index: AnalyteIndex;
  rows: Map<number, AnalyteRow>;
}

/** Published datasets by id with their measurand, and how many each measurand has. */
interface Counts {
  ownerOf: Map<number, number>;
  counts: Map<number, number>;
}

/**
 * The rows as the index reads them: beside the record's own names, the curators' alternative names
 * (decision 083) and the measurand's codes (decision 091), so a search by "Free T4" or by 2345-7 finds
 * it (issue 45.3). The answers still present the record itself.
 */
async function searchable(db: ServiceDeps['db'], rows: AnalyteRow[], all: boolean): Promise<AnalyteRow[]> {
  const ids = all ? undefined : rows.map((r) => r.id);
  const [names, codes] = await Promise.all([alternativeNamesByMeasurand(db, ids), codesByMeasurand(db, ids)]);
  return rows.map((r) => {
    const more = [...(names.get(r.id) ?? []), ...(codes.get(r.id) ?? []).map((c) => c.code)];
    return more.length === 0 ? r : { ...r, alternateNames: [...r.alternateNames, ...more] };
  });
}

const idsOf = (changes: ChangedRecord[], entity: ChangedRecord['entity']) => [
  ...new Set(changes.filter((c) => c.entity === entity).map((c) => c.entityId)),
];

/**
 * Measurand search over an in-memory index; the published dataset counts anonymous callers see are
 * kept beside it, so a search reads no table at all whatever the size of the catalogue (decision
 * 042). Both follow the change feed's log (decision 066): a measurand's write reads that measurand
 * again and moves its entries only; a dataset's write reads that dataset's measurand and publication
 * and moves two counts at most. An import (hundreds of changes) reads everything again.
 */
export class AnalyteSearch {
  private readonly names: KeptByChanges<Names, ChangedRecord>;
  private readonly published: KeptByChanges<Counts, ChangedRecord>;

  constructor(private readonly deps: Pick<ServiceDeps, 'db' | 'cache'>) {
    const log = changeLogOf(deps.db);
    this.names = new KeptByChanges<Names, ChangedRecord>({
      stamp: () => deps.cache.stampOf(['analytes']),
      log,
      build: async () => {
        const rows = await listAllAnalytes(deps.db);
        return {
          index: await AnalyteIndex.build(await searchable(deps.db, rows, true)),
          rows: new Map(rows.map((r) => [r.id, r])),
        };
      },
      apply: async (names, changes) => {
        const ids = idsOf(changes, 'measurand');
        if (ids.length === 0) return names;
        const found = await findAnalytesByIds(deps.db, ids);
        const present = new Set(found.map((r) => r.id));
        const removed = ids.filter((id) => !present.has(id));
        names.index.update(await searchable(deps.db, found, false), removed);
        for (const id of removed) names.rows.delete(id);
        for (const r of found) names.rows.set(r.id, r);
        return names;
      },
    });
    this.published = new KeptByChanges<Counts, ChangedRecord>({
      stamp: () => deps.cache.stampOf(['analytes', 'datasets']),
      log,
      build: async () => {
        const ownerOf = new Map(
          (await listPublishedDatasetOwners(deps.db)).map((d) => [d.id, d.analyteId] as const),
        );
        const counts = new Map<number, number>();
        for (const a of ownerOf.values()) counts.set(a, (counts.get(a) ?? 0) + 1);
        return { ownerOf, counts };
      },
      apply: async (kept, changes) => {
        const ids = idsOf(changes, 'dataset');
        if (ids.length === 0) return kept;
        const now = new Map(
          (await listPublishedDatasetOwners(deps.db, ids)).map((d) => [d.id, d.analyteId] as const),
        );
        const move = (analyteId: number, by: number) =>
          kept.counts.set(analyteId, (kept.counts.get(analyteId) ?? 0) + by);
        for (const id of ids) {
          const before = kept.ownerOf.get(id);
          const after = now.get(id);
          if (before !== undefined) move(before, -1);
          if (after !== undefined) move(after, 1);
          if (after === undefined) kept.ownerOf.delete(id);
          else kept.ownerOf.set(id, after);
        }
        return kept;
      },
    });
  }

  private current(): Promise<Names> {
    return this.names.get();
  }

  /** How the kept index and counts were last brought up to date: read whole, or updated from the log. */
  get lastRefresh(): { names: 'built' | 'updated' | undefined; counts: 'built' | 'updated' | undefined } {
    return { names: this.names.lastRefresh, counts: this.published.lastRefresh };
  }

  /**
   * The index read and made whole (its substring and typo parts too) once the server is ready, so
   * the first search or menu after a start makes nothing on the event loop (issue 44.1).
   */
  async warmUp(): Promise<void> {
    await (await this.current()).index.prepare();
  }

  /** The first ten names for a search box, best first. */
  async suggest(query: string): Promise<{ id: number; display_name: string }[]> {
    return query ? (await this.current()).index.search(query, 10) : [];
  }

  /** Up to fifty measurands matching the query, best first, with the datasets the caller can see. */
  async findByName(query: string, signedIn: boolean): Promise<AnalyteWithCount[]> {
    const matches = await this.matching(query);
    // Staff (unpublished datasets too) get counts read now, for the matches only (at most fifty).
    if (signedIn) return withDatasetCounts(this.deps.db, matches, signedIn);
    return presentWithCounts(matches, (await this.published.get()).counts);
  }

  /**
   * `findByName` as the JSON of each measurand (decision 071): for anonymous callers each one's
   * JSON is made once per kept row and count, so a first search answering fifty measurands at 100×
   * the demo checks and writes none of them again.
   */
  async findByNameJson(query: string, signedIn: boolean): Promise<JsonFragment[]> {
    if (signedIn)
      return (await this.findByName(query, signedIn)).map((a) => contractFragment(AnalyteWithCountSchema, a));
    return withCountsJson(await this.matching(query), (await this.published.get()).counts);
  }

  private async matching(query: string): Promise<AnalyteRow[]> {
    if (!query) return [];
    const { index, rows } = await this.current();
    return index.search(query, 50).map((m) => rows.get(m.id)!);
  }

  findById(id: number, signedIn: boolean): Promise<AnalyteWithCount | undefined> {
    return findAnalyteWithCount(this.deps.db, id, signedIn);
  }
}
