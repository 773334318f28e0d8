import { validateForMeta } from '@bvdb/contract';
import { apiCall } from '../../../lib/api-client';

export const validateDatasets = (ids: number[], csrfToken: string | null, signal?: AbortSignal) =>
  apiCall(validateForMeta, { body: { ids }, csrfToken, ...(signal ? { signal } : {}) });
