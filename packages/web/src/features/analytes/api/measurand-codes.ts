import { getMeasurandCodes } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** A measurand's LOINC, NPU and SNOMED CT codes (decision 091), each for a matrix and a scale. */
export const measurandCodesQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.measurandCodes(id),
    queryFn: () => apiCall(getMeasurandCodes, { params: { id } }),
  });

export const useMeasurandCodes = (id: number) => useQuery(measurandCodesQuery(id));
