import { getCounters } from '@bvdb/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** The counters of the home page (GET /api/meta), shown on the dashboard too. */
export const countersQuery = queryOptions({ queryKey: ['counters'], queryFn: () => apiCall(getCounters) });
