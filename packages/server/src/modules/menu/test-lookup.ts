import { matchMenuLine, normaliseCode, type MenuMatch } from '@bvdb/domain';
import type { ApplicationsGroup } from '../applications/index.js';
import { refKeyOf } from '../meta-analysis/index.js';
import type { MenuDataSource } from './menu-data.js';

/** A laboratory's test as the menu finds it, with the estimates of its matrix and their versions. */
export interface FoundTest {
  match: MenuMatch;
  /** the matched measurand's estimates in the matched matrix; undefined when not matched */
  group: ApplicationsGroup | undefined;
  /** the CVI estimate's id and version (undefined before its first version) */
  cviRef: { estimateId: number; version: number } | undefined;
  /** The scale (UCUM unit) the code asked names, when the test was found by a code stored with one. */
  scale: { code: string; unit: string } | null;
}

/**
 * One test named by code, name or id, matched against the menu's kept catalogue by the menu's own
 * rule (by code first, then by name; without a matrix the headline matrix), so a laboratory system
 * asking for one test and a menu of two hundred find the same measurand (issue 45).
 */
export class TestLookup {
  constructor(private readonly source: MenuDataSource) {}

  /** The kept catalogue read (once the server is ready: a first change verdict then reads nothing). */
  async warmUp(): Promise<void> {
    await this.source.current();
  }

  async find(test: { name: string | null; code: string | null; matrix: string | null }): Promise<FoundTest> {
    const data = await this.source.current();
    const match = matchMenuLine(data.catalogue, test);
    const group = match.match ? data.groups.get(match.match.measurandId)?.get(match.match.matrix) : undefined;
    const cviRef = group?.cvi ? data.refs.get(refKeyOf(group.cvi.meta)) : undefined;
    const unit =
      test.code && match.match
        ? data.scales.get(match.match.measurandId)?.get(normaliseCode(test.code))
        : undefined;
    return { match, group, cviRef, scale: unit && test.code ? { code: test.code, unit } : null };
  }
}
