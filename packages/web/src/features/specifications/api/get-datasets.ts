import {
  datasetsByMeasurand,
  datasetsOfAnalyte,
  datasetsOfReference,
  getDataset,
  listDatasets,
} from '@bvdb/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

export const allDatasetsQuery = queryOptions({
  queryKey: ['datasets'],
  queryFn: () => apiCall(listDatasets),
});

export const datasetsByMeasurandQuery = queryOptions({
  queryKey: ['datasets-by-measurand'],
  queryFn: () => apiCall(datasetsByMeasurand),
});

export const datasetQuery = (id: number) =>
  queryOptions({ queryKey: ['dataset', id], queryFn: () => apiCall(getDataset, { params: { id } }) });

export const analyteDatasetsQuery = (analyteId: number) =>
  queryOptions({
    queryKey: ['analyte-datasets', analyteId],
    queryFn: ({ signal }) => apiCall(datasetsOfAnalyte, { params: { analyte_id: analyteId }, signal }),
  });

export const referenceDatasetsQuery = (id: number) =>
  queryOptions({
    queryKey: ['reference-datasets', id],
    queryFn: () => apiCall(datasetsOfReference, { params: { id } }),
  });
