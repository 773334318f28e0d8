import { simulateMetacalculation, type MetaInputRow } from '@bvdb/contract';
import { apiCall } from '../../../lib/api-client';

/** Rows through the configured statistics service (the server honours STATS_URL). */
export const runMetacalculation = (
  rows: MetaInputRow[],
  csrfToken: string | null,
  opts: { seed?: number | null; signal?: AbortSignal } = {},
) =>
  apiCall(simulateMetacalculation, {
    body: { rows, ...(opts.seed !== null && opts.seed !== undefined ? { seed: opts.seed } : {}) },
    csrfToken,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
