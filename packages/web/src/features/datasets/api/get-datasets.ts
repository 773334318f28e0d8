import {
  datasetsByMeasurand,
  datasetsOfAnalyte,
  datasetsOfReference,
  getDataset,
  listAllDatasets,
} from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { pageInDefaultOrder } from '../spec-page';
import { queryKeys } from '../../../lib/query-keys';

/** Every visible dataset. Too large to embed in a server-rendered page: the browser asks for it. */
export const allDatasetsQuery = queryOptions({
  queryKey: queryKeys.allDatasets,
  queryFn: () => apiCall(listAllDatasets),
  meta: { ssr: false },
});

/**
 * One page of the all-datasets table in its default order, for the server-rendered first paint of
 * /bv_specifications?page=N (decision 013): small enough to embed, the same rows the browser's table
 * shows on that page. Only the server fetches it; the browser reads the embedded answer.
 */
export const datasetsPageQuery = (page: number) =>
  queryOptions({
    queryKey: queryKeys.datasetsPage(page),
    queryFn: async () => {
      const { datasets } = await apiCall(listAllDatasets);
      return { datasets: pageInDefaultOrder(datasets, page), total: datasets.length };
    },
    enabled: import.meta.env.SSR,
  });

export const datasetsByMeasurandQuery = queryOptions({
  queryKey: queryKeys.datasetsByMeasurand,
  queryFn: () => apiCall(datasetsByMeasurand),
});

export const datasetQuery = (id: number) =>
  queryOptions({ queryKey: queryKeys.dataset(id), queryFn: () => apiCall(getDataset, { params: { id } }) });

export const analyteDatasetsQuery = (analyteId: number) =>
  queryOptions({
    queryKey: queryKeys.datasetsOfAnalyte(analyteId),
    queryFn: ({ signal }) => apiCall(datasetsOfAnalyte, { params: { analyte_id: analyteId }, signal }),
  });

export const referenceDatasetsQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.datasetsOfReference(id),
    queryFn: () => apiCall(datasetsOfReference, { params: { id } }),
  });

export const useAllDatasets = () => useQuery(allDatasetsQuery);
export const useDatasetsPage = (page: number) => useQuery(datasetsPageQuery(page));
export const useDatasetsByMeasurand = () => useQuery(datasetsByMeasurandQuery);
export const useDataset = (id: number) => useQuery(datasetQuery(id));
export const useAnalyteDatasets = (analyteId: number) => useQuery(analyteDatasetsQuery(analyteId));
export const useReferenceDatasets = (id: number) => useQuery(referenceDatasetsQuery(id));
