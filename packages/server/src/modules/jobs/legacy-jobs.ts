import { z } from 'zod';

/** The tracker's names of the recompute jobs (the live system's; one job now does both). */
export const META_JOB_NAMES = {
  matrices: 'Calculating Meta-Analysis',
  consolidations: 'Calculating Consolidated Metas',
} as const;

const LegacyMetaRecomputePayloadSchema = z.object({
  /** Our job record (the tracker's row). */
  jobId: z.number().int().positive(),
  scope: z.enum(['matrices', 'consolidations']),
  /** Only these measurands; all with datasets when absent. */
  analyteIds: z.array(z.number().int().positive()).optional(),
});
export type LegacyMetaRecomputePayload = z.infer<typeof LegacyMetaRecomputePayloadSchema>;

/**
 * A job of the former pg-boss queue (one per scope and save, still queued by a previous version).
 * It was written by another process, maybe another version, so it is checked before use; a bad one
 * is reported with what was wrong, and with the job record it names, when it names one.
 */
export function parseLegacyPayload(
  data: unknown,
): { ok: true; payload: LegacyMetaRecomputePayload } | { ok: false; message: string; jobId: number | null } {
  const parsed = LegacyMetaRecomputePayloadSchema.safeParse(data);
  if (parsed.success) return { ok: true, payload: parsed.data };
  const jobId = LegacyMetaRecomputePayloadSchema.shape.jobId.safeParse(
    (data as { jobId?: unknown } | null)?.jobId,
  );
  return {
    ok: false,
    message: `Invalid meta-recompute job payload: ${z.prettifyError(parsed.error)}`,
    jobId: jobId.success ? jobId.data : null,
  };
}
