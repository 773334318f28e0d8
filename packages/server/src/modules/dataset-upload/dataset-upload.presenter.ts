import type { UploadPreview } from '@bvdb/contract';
import type { CheckedUpload } from './dataset-upload.service.js';

const numberOr = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const textOr = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** A checked upload as the preview shows it: each row, what it was understood as, its errors. */
export function presentUploadPreview(upload: CheckedUpload): UploadPreview {
  const rows = upload.rows.map((r) => ({
    row: r.row,
    unique_identifier: textOr(r.payload.unique_identifier),
    analyte_id: numberOr(r.payload.analyte_id),
    measurand: r.shown.measurand,
    matrix: r.shown.matrix,
    reference: r.shown.reference,
    estimates_of_cvi: numberOr(r.payload.estimates_of_cvi),
    estimates_of_cvg: numberOr(r.payload.estimates_of_cvg),
    errors: r.errors,
  }));
  const errorCount = upload.problems.length + rows.reduce((n, r) => n + r.errors.length, 0);
  return {
    file_name: upload.fileName,
    rows,
    problems: upload.problems,
    valid: errorCount === 0,
    error_count: errorCount,
    measurands: new Set(upload.rows.map((r) => r.payload.analyte_id).filter((id) => typeof id === 'number'))
      .size,
  };
}
