import type { AnalyteWithCount } from '@bvdb/contract';
import type { analytes } from '../../db/schema.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import {
  countPublishedDatasets,
  findAnalyteWithCount,
  listAllAnalytes,
  presentWithCounts,
  withDatasetCounts,
} from '../analytes/analytes.service.js';
import { AnalyteIndex } from './analyte-index.js';

type AnalyteRow = (typeof analytes)['$inferSelect'];

const COUNT_SCOPES = ['analytes', 'datasets'] as const;

/**
 * Measurand search over an in-memory index, rebuilt when the data generation changes; the published
 * dataset counts anonymous callers see are kept beside it, counted once per change of measurands or
 * datasets, so a search reads no table at all whatever the size of the catalogue (decision 042).
 */
export class AnalyteSearch {
  private index: { generation: number; index: AnalyteIndex; rows: Map<number, AnalyteRow> } | undefined;
  private publishedCounts: { generation: number; counts: Promise<Map<number, number>> } | undefined;

  constructor(private readonly deps: Pick<ServiceDeps, 'db' | 'cache'>) {}

  private async current(): Promise<{ index: AnalyteIndex; rows: Map<number, AnalyteRow> }> {
    const generation = this.deps.cache.stampOf(['analytes']);
    if (!this.index || this.index.generation !== generation) {
      const rows = await listAllAnalytes(this.deps.db);
      this.index = { generation, index: new AnalyteIndex(rows), rows: new Map(rows.map((r) => [r.id, r])) };
    }
    return this.index;
  }

  private async currentIndex(): Promise<AnalyteIndex> {
    return (await this.current()).index;
  }

  /** The first ten names for a search box, best first. */
  async suggest(query: string): Promise<{ id: number; display_name: string }[]> {
    return query ? (await this.currentIndex()).search(query, 10) : [];
  }

  /** Up to fifty measurands matching the query, best first, with the datasets the caller can see. */
  async findByName(query: string, signedIn: boolean): Promise<AnalyteWithCount[]> {
    if (!query) return [];
    const { index, rows } = await this.current();
    const matches = index.search(query, 50).map((m) => rows.get(m.id)!);
    // Staff (unpublished datasets too) get counts read now, for the matches only (at most fifty).
    if (signedIn) return withDatasetCounts(this.deps.db, matches, signedIn);
    return presentWithCounts(matches, await this.currentPublishedCounts());
  }

  private currentPublishedCounts(): Promise<Map<number, number>> {
    const generation = this.deps.cache.stampOf(COUNT_SCOPES);
    if (this.publishedCounts?.generation !== generation) {
      const counts = countPublishedDatasets(this.deps.db);
      const kept = { generation, counts };
      this.publishedCounts = kept;
      // A failed count is not kept: the next search asks again.
      counts.catch(() => {
        if (this.publishedCounts === kept) this.publishedCounts = undefined;
      });
    }
    return this.publishedCounts.counts;
  }

  findById(id: number, signedIn: boolean): Promise<AnalyteWithCount | undefined> {
    return findAnalyteWithCount(this.deps.db, id, signedIn);
  }
}
