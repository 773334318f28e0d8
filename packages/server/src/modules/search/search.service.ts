import type { AnalyteWithCount } from '@bvdb/contract';
import type { ServiceDeps } from '../../lib/service-deps.js';
import {
  findAnalyteWithCount,
  listAllAnalytes,
  listAnalytesWithCounts,
} from '../analytes/analytes.service.js';
import { AnalyteIndex } from './analyte-index.js';

/** Measurand search over an in-memory index, rebuilt when the data generation changes. */
export class AnalyteSearch {
  private index: { generation: number; index: AnalyteIndex } | undefined;

  constructor(private readonly deps: Pick<ServiceDeps, 'db' | 'cache'>) {}

  private async currentIndex(): Promise<AnalyteIndex> {
    const generation = this.deps.cache.stampOf(['analytes']);
    if (!this.index || this.index.generation !== generation) {
      this.index = { generation, index: new AnalyteIndex(await listAllAnalytes(this.deps.db)) };
    }
    return this.index.index;
  }

  /** The first ten names for a search box, best first. */
  async suggest(query: string): Promise<{ id: number; display_name: string }[]> {
    return query ? (await this.currentIndex()).search(query, 10) : [];
  }

  /** Up to fifty measurands matching the query, best first, with the datasets the caller can see. */
  async findByName(query: string, signedIn: boolean): Promise<AnalyteWithCount[]> {
    const matches = query ? (await this.currentIndex()).search(query, 50) : [];
    const order = new Map(matches.map((m, i) => [m.id, i]));
    return (await listAnalytesWithCounts(this.deps.db, signedIn))
      .filter((a) => order.has(a.id))
      .sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  }

  findById(id: number, signedIn: boolean): Promise<AnalyteWithCount | undefined> {
    return findAnalyteWithCount(this.deps.db, id, signedIn);
  }
}
