import { createEstimation, ESTIMATION_MAX_FILE_BYTES, type EstimationColumn } from '@bvdb/contract';
import { useMutation } from '@tanstack/react-query';
import { uploadFile } from '../../../lib/upload-file';

export interface EstimationFormOptions {
  alpha: number;
  replicate_outlier: 'sample' | 'subject' | 'none';
  sample_outlier: boolean;
  reed: boolean;
  bootstrap: { replicates: number; seed: number } | null;
}

export interface EstimationRequest {
  file: File;
  mapping: Partial<Record<EstimationColumn, string>>;
  options: EstimationFormOptions;
}

/** The query of a file upload: options and the column mapping (decision 054). */
export function estimationQuery({ mapping, options }: Omit<EstimationRequest, 'file'>) {
  const query: Record<string, string | number | undefined> = {
    alpha: options.alpha,
    replicate_outlier: options.replicate_outlier,
    sample_outlier: String(options.sample_outlier),
    reed: String(options.reed),
    bootstrap_replicates: options.bootstrap?.replicates,
    bootstrap_seed: options.bootstrap?.seed,
  };
  for (const [column, header] of Object.entries(mapping)) if (header) query[`${column}_column`] = header;
  return query;
}

/** The file estimated on the server (nothing is stored). */
export const createEstimationCall = (req: EstimationRequest, csrfToken: string | null) =>
  uploadFile(createEstimation, req.file, {
    csrfToken,
    maxBytes: ESTIMATION_MAX_FILE_BYTES,
    tooLarge: `The file is too large (${ESTIMATION_MAX_FILE_BYTES / 1024 / 1024} MB at most)`,
    query: estimationQuery(req),
  });

export const useCreateEstimation = (csrfToken: string | null) =>
  useMutation({ mutationFn: (req: EstimationRequest) => createEstimationCall(req, csrfToken) });
