import type { AnalyteWithCount } from '@bvdb/contract';
import type { analytes } from '../../db/schema.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { findAnalyteWithCount, listAllAnalytes, withDatasetCounts } from '../analytes/analytes.service.js';
import { AnalyteIndex } from './analyte-index.js';

type AnalyteRow = (typeof analytes)['$inferSelect'];

/** Measurand search over an in-memory index, rebuilt when the data generation changes. */
export class AnalyteSearch {
  private index: { generation: number; index: AnalyteIndex; rows: Map<number, AnalyteRow> } | undefined;

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
    // Datasets are counted for the matches only (at most fifty measurands), never the whole table.
    return withDatasetCounts(this.deps.db, matches, signedIn);
  }

  findById(id: number, signedIn: boolean): Promise<AnalyteWithCount | undefined> {
    return findAnalyteWithCount(this.deps.db, id, signedIn);
  }
}
