import { getQueueJob, type Job } from '@bvdb/contract';
import { urlFor } from '../../../lib/api-client';

/** A job lookup answered with a status other than 200: polling stops and shows `message`. */
export class JobLookupError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * GET /api/queue_jobs/{id} with a JSON content type (spec section 7). A non-200 answer throws a
 * JobLookupError carrying the error text of the response.
 */
export async function fetchQueueJob(id: number, signal: AbortSignal): Promise<Job> {
  const res = await fetch(urlFor(getQueueJob, { params: { id } }), {
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    credentials: 'same-origin',
    signal,
  });
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (res.status !== 200) {
    const message =
      body && typeof body === 'object' && 'message' in body && typeof body.message === 'string'
        ? body.message
        : text || `Error: ${res.status} ${res.statusText}`;
    throw new JobLookupError(res.status, message);
  }
  return getQueueJob.responses[200].parse(body).data;
}
