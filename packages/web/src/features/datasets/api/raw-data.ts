import {
  DATASET_RAW_DATA_MAX_BYTES,
  deleteDatasetRawData,
  getDatasetRawData,
  uploadDatasetRawData,
} from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { uploadFile } from '../../../lib/upload-file';
import { queryKeys } from '../../../lib/query-keys';

/** What is kept of a dataset's raw results (staff only, issue 31.3). */
export const rawDataQuery = (datasetId: number) =>
  queryOptions({
    queryKey: queryKeys.rawData(datasetId),
    queryFn: ({ signal }) => apiCall(getDatasetRawData, { params: { id: datasetId }, signal }),
  });

/** Where a member of staff downloads the file (the browser sends the session cookie). */
export const rawDataFileUrl = (datasetId: number) => `/api/v1/datasets/${datasetId}/raw-data/file`;

/** Keeps the file with the dataset, replacing an earlier one. */
export const uploadRawDataCall = (datasetId: number, file: File, csrfToken: string | null) =>
  uploadFile(uploadDatasetRawData, file, {
    csrfToken,
    maxBytes: DATASET_RAW_DATA_MAX_BYTES,
    tooLarge: `The file is too large (${DATASET_RAW_DATA_MAX_BYTES / 1024 / 1024} MB at most)`,
    params: { id: datasetId },
  });

export const deleteRawDataCall = (datasetId: number, csrfToken: string | null) =>
  apiCall(deleteDatasetRawData, { params: { id: datasetId }, csrfToken });

export const useRawData = (datasetId: number) => useQuery(rawDataQuery(datasetId));
