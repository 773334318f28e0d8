import { and, eq, isNotNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Database } from '../db/client.js';
import { metaCalculationDatasets, metaCalculations } from '../db/schema.js';
import { serviceDeps } from '../lib/service-deps.js';
import { createUser } from '../modules/auth/users.service.js';
import { signInAs } from './sign-in.js';

/** A new curator, signed in. */
export async function signInAsNewCurator(app: FastifyInstance) {
  const email = `curator-${Date.now()}-${Math.random()}@example.org`;
  await createUser(serviceDeps(app), {
    email,
    name: 'Dr Jane Curator',
    role: 'curator',
    password: 'curator-pass-123',
  });
  return signInAs(app, email, 'curator-pass-123');
}

/** A curator edits a dataset through the form's PUT, as the page does (the recompute follows). */
export async function editDataset(app: FastifyInstance, id: number, change: Record<string, unknown>) {
  const s = await signInAsNewCurator(app);
  const form = (
    await app.inject({ url: `/api/bv_specifications/${id}/form`, headers: { cookie: s.cookie } })
  ).json<{ bv_specification: Record<string, unknown>; version: number }>();
  const res = await app.inject({
    method: 'PUT',
    url: `/bv_specifications/${id}`,
    payload: { bv_specification: { ...form.bv_specification, ...change }, version: form.version },
    headers: s.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** A published dataset used by a CVI result of a matrix (the first such result), its measurand and that result. */
export async function usedDataset(database: Database) {
  const [row] = await database.db
    .select({
      specId: metaCalculationDatasets.bvSpecificationId,
      cv: metaCalculationDatasets.cv,
      analyteId: metaCalculations.analyteId,
      metaId: metaCalculations.id,
    })
    .from(metaCalculationDatasets)
    .innerJoin(metaCalculations, eq(metaCalculations.id, metaCalculationDatasets.metaCalculationId))
    .where(and(isNotNull(metaCalculations.matrixId), eq(metaCalculations.varType, ':cvi')))
    .orderBy(metaCalculations.id)
    .limit(1);
  return row!;
}
