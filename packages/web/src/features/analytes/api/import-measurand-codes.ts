import { importMeasurandCodes } from '@bvdb/contract';
import { apiCall } from '../../../lib/api-client';
import { queryRoots, useInvalidate } from '../../../lib/query-keys';

/** Applies a previewed crosswalk file with the preview's plan (409 when the codes changed since). */
export const importMeasurandCodesCall = (text: string, plan: string, csrfToken: string | null) =>
  apiCall(importMeasurandCodes, { body: { text, plan }, csrfToken });

/** After an import: every measurand read (their codes and versions moved on), read again. */
export const useInvalidateAfterCodesImport = () => useInvalidate([queryRoots.analytes]);
