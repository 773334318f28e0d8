import { commitDatasetUpload, DATASET_UPLOAD_MAX_BYTES, previewDatasetUpload } from '@bvdb/contract';
import { uploadFile } from '../../../lib/upload-file';
import { datasetChangeKeys, useInvalidate } from '../../../lib/query-keys';

const limits = {
  maxBytes: DATASET_UPLOAD_MAX_BYTES,
  tooLarge: `The file is too large (${DATASET_UPLOAD_MAX_BYTES / 1024 / 1024} MB at most): split the rows over several files`,
};

/** Every row of a filled template checked, with its errors by cell; nothing saved. */
export const previewDatasetUploadCall = (file: File, csrfToken: string | null) =>
  uploadFile(previewDatasetUpload, file, { csrfToken, ...limits });

/** The rows saved in one transaction (422 with every bad cell when one is wrong). */
export const commitDatasetUploadCall = (file: File, csrfToken: string | null) =>
  uploadFile(commitDatasetUpload, file, { csrfToken, ...limits });

/** After rows are saved: every read a dataset change touches, read again. */
export const useInvalidateAfterDatasetUpload = () => useInvalidate(datasetChangeKeys);
