import { execSync } from 'node:child_process';
import os from 'node:os';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import type { Database } from '../db/client.js';
import { analytes, bvSpecifications } from '../db/schema.js';
import { serviceDeps } from '../lib/service-deps.js';
import { writeTransaction } from '../lib/write-transaction.js';
import { recomputeAnalytesMetas } from '../modules/meta-analysis/calculation/meta-calculation.service.js';

/** The machine's load, printed with every figure (a shared machine's figures mean little without it). */
export function uptime(): string {
  try {
    return execSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`;
  }
}

/**
 * The app on `database`, listening on a free loopback port, as a bench measures it: no rate limit in
 * the way, nothing kept ahead of the first ask (READ_CACHE_PREFILL off, unless `settings` say
 * otherwise, as they may any other setting); its base URL.
 */
export async function listenBenchApp(
  database: Database,
  settings: Record<string, string> = {},
): Promise<{ app: FastifyInstance; base: string }> {
  const app = await buildApp({
    config: loadConfig({
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: '100000000',
      RATE_LIMIT_HEAVY_PER_MINUTE: '100000000',
      READ_CACHE_PREFILL: 'false',
      ...settings,
    }),
    database,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return { app, base: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

/**
 * The real writes the search and menu benches follow (decision 066): the first measurand given
 * another alternative name, and the first published dataset unpublished or published again (with
 * its measurand's recompute when asked, as a curator's save).
 */
export async function benchWrites(app: FastifyInstance) {
  const deps = serviceDeps(app);
  const db = deps.db;
  const [target] = await db
    .select({ id: analytes.id, alt: analytes.alternateNames })
    .from(analytes)
    .orderBy(asc(analytes.id))
    .limit(1);
  const [dataset] = await db
    .select({ id: bvSpecifications.id, analyteId: bvSpecifications.analyteId })
    .from(bvSpecifications)
    .where(eq(bvSpecifications.published, true))
    .orderBy(asc(bvSpecifications.id))
    .limit(1);
  return {
    /** The measurand's alternative names become its own and `bench-{i}`. */
    renameMeasurand: (i: number) =>
      writeTransaction(
        deps,
        (tx) =>
          tx
            .update(analytes)
            .set({ alternateNames: [...target!.alt, `bench-${i}`] })
            .where(eq(analytes.id, target!.id)),
        ['analytes'],
      ),
    publishDataset: (published: boolean, { recompute = false } = {}) =>
      writeTransaction(
        deps,
        async (tx) => {
          await tx.update(bvSpecifications).set({ published }).where(eq(bvSpecifications.id, dataset!.id));
          if (recompute) await recomputeAnalytesMetas(tx, [dataset!.analyteId]);
        },
        recompute ? ['datasets', 'metas'] : ['datasets'],
      ),
  };
}
