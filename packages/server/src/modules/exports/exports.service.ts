import { BVDB_VERSION } from '@bvdb/contract';
import type { Config } from '../../config.js';
import { CITATION, DATA_USE_NOTICE } from './export-columns.js';

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

/**
 * A header value of any text: HTTP headers carry visible ASCII and spaces, so anything else
 * (accented letters, line breaks) is percent-encoded as in a URL, which a reader can decode.
 */
export function headerText(text: string): string {
  return text.replace(/[^\x20-\x7e]|%/gu, (c) => encodeURIComponent(c));
}

/** The headers a CSV export carries its version and data licence in (never a line in the file). */
export function csvReleaseHeaders(notice: ExportNotice): Record<string, string> {
  return { 'Bvdb-Version': notice.version, 'Bvdb-Data-Licence': headerText(notice.licence) };
}
