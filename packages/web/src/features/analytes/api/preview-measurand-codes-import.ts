import { previewMeasurandCodesImport } from '@bvdb/contract';
import { apiCall } from '../../../lib/api-client';

/** Reads a crosswalk file on the server: what importing it does, line by line (decision 093). Saves nothing. */
export const previewMeasurandCodesImportCall = (text: string, csrfToken: string | null) =>
  apiCall(previewMeasurandCodesImport, { body: { text }, csrfToken });
