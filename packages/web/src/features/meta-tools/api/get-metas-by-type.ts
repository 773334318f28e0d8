import { metaByAnalyteMatrixType } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const metasByTypeQuery = (analyte: number, matrix: number, type: string) =>
  queryOptions({
    queryKey: queryKeys.metasByType(analyte, matrix, type),
    queryFn: ({ signal }) => apiCall(metaByAnalyteMatrixType, { params: { analyte, matrix, type }, signal }),
  });

export const useMetasByType = (analyte: number, matrix: number, type: string) =>
  useQuery(metasByTypeQuery(analyte, matrix, type));
