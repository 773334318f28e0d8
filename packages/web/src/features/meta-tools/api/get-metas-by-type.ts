import { metaByAnalyteMatrixType } from '@bvdb/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

export const metasByTypeQuery = (analyte: number, matrix: number, type: string) =>
  queryOptions({
    queryKey: ['metas-by-type', analyte, matrix, type],
    queryFn: ({ signal }) => apiCall(metaByAnalyteMatrixType, { params: { analyte, matrix, type }, signal }),
  });
