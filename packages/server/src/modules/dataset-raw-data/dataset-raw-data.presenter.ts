import type { DatasetRawData } from '@bvdb/contract';
import type { findRawFileInfo } from './dataset-raw-data.repository.js';

type RawFileInfo = NonNullable<Awaited<ReturnType<typeof findRawFileInfo>>>;

export function presentRawData(info: RawFileInfo | undefined): DatasetRawData | null {
  if (!info) return null;
  return {
    file_name: info.fileName,
    content_type: info.contentType,
    bytes: info.size,
    sha256: info.sha256,
    uploaded_at: info.createdAt.toISOString(),
    uploaded_by: info.uploadedBy ?? null,
  };
}
