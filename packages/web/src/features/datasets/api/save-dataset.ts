import { createDataset, updateDataset, type DatasetInput } from '@bvdb/contract';
import { apiCall } from '../../../lib/api-client';
import { datasetChangeKeys, useInvalidate } from '../../../lib/query-keys';

/** POST /bv_specifications with `{bv_specification}`. */
export const createDatasetCall = (values: DatasetInput, csrfToken: string | null) =>
  apiCall(createDataset, { body: { bv_specification: values }, csrfToken });

/** PUT /bv_specifications/{id} with the version the edit started from (409 when stale). */
export const updateDatasetCall = (
  id: number,
  values: DatasetInput,
  version: number,
  csrfToken: string | null,
) => apiCall(updateDataset, { params: { id }, body: { bv_specification: values, version }, csrfToken });

/** After a dataset is created, copied or edited: every read the write changes, read again. */
export const useInvalidateAfterDatasetSave = () => useInvalidate(datasetChangeKeys);
