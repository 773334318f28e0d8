import { createIndirectEstimate, INDIRECT_MAX_FILE_BYTES, type IndirectMethodName } from '@bvdb/contract';
import { useMutation } from '@tanstack/react-query';
import { uploadFile } from '../../../lib/upload-file';

export interface IndirectFormOptions {
  measurand: string;
  minDays: number;
  maxDays: number;
  pairs: 'one' | 'all';
  firstLow: string;
  firstHigh: string;
  methods: IndirectMethodName[];
  cva: string;
  probability: number;
}

export interface IndirectRequest {
  file: File;
  options: IndirectFormOptions;
}

/** The query of an upload: the options in the API's names (decision 095). */
export function indirectQuery(o: IndirectFormOptions): Record<string, string | number | undefined> {
  const q: Record<string, string | number | undefined> = {
    min_days: o.minDays,
    max_days: o.maxDays,
    pairs: o.pairs,
    methods: o.methods.join(','),
    probability: o.probability,
  };
  if (o.measurand.trim()) q.measurand = o.measurand.trim();
  if (o.cva.trim()) q.cva = o.cva.trim();
  if (o.firstLow.trim() && o.firstHigh.trim()) {
    q.first_low = o.firstLow.trim();
    q.first_high = o.firstHigh.trim();
  }
  return q;
}

/** The extract estimated on the server: nothing of it is kept. */
export const useCreateIndirectEstimate = (csrfToken: string | null) =>
  useMutation({
    mutationFn: (req: IndirectRequest) =>
      uploadFile(createIndirectEstimate, req.file, {
        csrfToken,
        maxBytes: INDIRECT_MAX_FILE_BYTES,
        tooLarge: `The file is too large (${INDIRECT_MAX_FILE_BYTES / 1024 / 1024} MB at most)`,
        query: indirectQuery(req.options),
      }),
  });
