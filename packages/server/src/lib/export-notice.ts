import { BVDB_VERSION } from '@bvdb/contract';
import type { Config } from '../config.js';

// The notice every export and the full backup carry. Shared (lib/) because both the exports and
// the backup module write it, and neither may import the other (no module cycles, decision 048).

export const DATA_USE_NOTICE =
  'The content of this database is copyright of the European Federation of Clinical Chemistry and ' +
  'Laboratory Medicine (EFLM). It may not be distributed or commercially exploited without written ' +
  'permission.';

export const CITATION =
  'Aarsand AK, Fernandez-Calle P, Webster C, Coskun A, Gonzales-Lao E, Diaz-Garzon J, Jonker N, ' +
  'Simon M, Braga F, Perich C, Boned B, Marques-Garcia F, Carobene A, Aslan B, Sezer E, Bartlett WA, ' +
  'Sandberg S. The EFLM Biological Variation Database. https://biologicalvariation.eu/ [time of access].';

/** What every export carries (and the site shows), as configured. */
export interface ExportNotice {
  dataUse: string;
  citation: string;
  /** The terms the data are offered under (DATA_LICENCE; default: the data-use terms). */
  licence: string;
  /** The release that made the file. */
  version: string;
}

export function exportNotice(
  config: Pick<Config, 'DATA_USE_NOTICE' | 'CITATION' | 'DATA_LICENCE'>,
): ExportNotice {
  const dataUse = config.DATA_USE_NOTICE ?? DATA_USE_NOTICE;
  return {
    dataUse,
    citation: config.CITATION ?? CITATION,
    licence: config.DATA_LICENCE ?? DATA_USE_NOTICE,
    version: BVDB_VERSION,
  };
}
