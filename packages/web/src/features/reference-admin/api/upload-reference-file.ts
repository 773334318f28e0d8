import { REFERENCE_FILE_MAX_BYTES, uploadReferenceFile } from '@bvdb/contract';
import { uploadFile } from '../../../lib/upload-file';

/** The article PDF of a reference. */
export function uploadReferenceFileCall(id: number, file: File, csrfToken: string | null) {
  return uploadFile(uploadReferenceFile, file, {
    csrfToken,
    maxBytes: REFERENCE_FILE_MAX_BYTES,
    tooLarge: 'The file is too large (20 MB at most)',
    params: { id },
  });
}
