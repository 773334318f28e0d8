import type { FastifyInstance } from 'fastify';
import { syncGenerationNow } from '../../lib/cached-json.js';

/**
 * The start's warm-up (decision 072): every published dataset's row and page fragments are made
 * before `/readyz` says ready, at full pace, so the first pages a load balancer (or the container's
 * health check) lets through are answered from kept rows — at 100× the demo data as at 1× (issue 26,
 * point 4). Requests that come before are served, more slowly, between the fill's steps.
 * `/readyz` waits at most `readySeconds` (0: not at all, and the fill keeps its resting pace); past
 * that the fill goes on resting, as after a write, and the server says it is ready.
 * Resolves when the warm-up is over or no longer waited for.
 */
export async function warmUpBeforeReady(
  app: FastifyInstance,
  readySeconds: number,
): Promise<{ rows: number; seconds: number; complete: boolean }> {
  const datasets = app.publicDatasets;
  const started = performance.now();
  if (readySeconds <= 0) {
    await syncGenerationNow(app.deps).catch(() => undefined);
    datasets.fillInBackground();
    return { rows: datasets.keptRows, seconds: 0, complete: false };
  }
  let syncing = true;
  app.lifecycle.warmingUp = () => {
    const progress = datasets.warmUpProgress;
    if (!progress) return syncing ? 'warming up: reading the published datasets' : null;
    if (progress.total === 0) return 'warming up: reading the published datasets';
    return `warming up: ${progress.kept.toLocaleString('en')} of ${progress.total.toLocaleString('en')} published datasets kept`;
  };
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), readySeconds * 1000);
    timer.unref();
  });
  const warm = (async () => {
    // Other processes' (and the seed's) writes first: otherwise the first check of the shared
    // counters (a read's, or the change listener's) would find them moved and drop what the
    // warm-up kept. The database away: the fill says so.
    await syncGenerationNow(app.deps).catch(() => undefined);
    const filling = datasets.warmUp();
    syncing = false;
    await filling;
    return true;
  })().catch(() => false);
  try {
    const complete = await Promise.race([warm, gaveUp]);
    return { rows: datasets.keptRows, seconds: (performance.now() - started) / 1000, complete };
  } finally {
    clearTimeout(timer);
    syncing = false;
    app.lifecycle.warmingUp = null;
    datasets.relax();
  }
}
