import type { ExportNotice } from '../../lib/export-notice.js';

/** Other modules' tables as files (CSV, xlsx), built in the export worker. */
/** The columns of the datasets' CSV (a release describes them in its datapackage.json). */

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
