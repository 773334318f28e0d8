import { listMatrices } from '@bvdb/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

export const matricesQuery = queryOptions({ queryKey: ['matrices'], queryFn: () => apiCall(listMatrices) });
