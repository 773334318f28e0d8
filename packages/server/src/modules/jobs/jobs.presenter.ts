import type { Job } from '@bvdb/contract';
import type { JobRow } from './job-records.repository.js';

export function presentJob(j: JobRow): Job {
  return {
    id: j.id,
    jid: j.jid,
    name: j.name,
    queue: j.queue,
    class_name: j.className,
    started_at: j.startedAt?.toISOString() ?? null,
    finished_at: j.finishedAt?.toISOString() ?? null,
    status: j.status as Job['status'],
    progress_stage: j.progressStage,
    progress_current: j.progressCurrent,
    progress_max: j.progressMax,
    error: j.error,
    created_at: j.createdAt.toISOString(),
  };
}
