import { MATRICES, MATRIX_EXPLANATIONS } from '@bvdb/domain';
import { eq } from 'drizzle-orm';
import { matrices } from '../../db/schema.js';
import { describe, expect, it } from 'vitest';
import { upsertLookupValues } from '../../seed/seed.repository.js';
import { useTestApp } from '../../test/test-app.js';

const ctx = useTestApp();

describe('lookups', () => {
  it('GET /api/matrices/{id}', async () => {
    const res = await ctx.app.inject({ url: '/api/matrices/21' });
    expect(res.json()).toEqual({
      matrix: { id: 21, matrix_expansion: 'Serum/plasma', matrix_explanation: MATRIX_EXPLANATIONS[21] },
    });
    expect((await ctx.app.inject({ url: '/api/matrices/99' })).statusCode).toBe(404);
  });

  it('seeds every matrix with the spec ids and name and an explanation; a later start fills only empty ones', async () => {
    const rows = (await ctx.app.inject({ url: '/api/matrices' })).json<{
      matrices: { id: number; matrix_expansion: string; matrix_explanation: string | null }[];
    }>().matrices;
    expect(rows.map((m) => [m.id, m.matrix_expansion])).toEqual(MATRICES.map((m) => [m.id, m.name]));
    for (const m of rows) expect(m.matrix_explanation).toBeTruthy();

    // A database seeded before explanations existed (empty), and one an administrator wrote.
    const { db } = ctx.database;
    await db.update(matrices).set({ matrixExplanation: '' }).where(eq(matrices.id, 5));
    await db.update(matrices).set({ matrixExplanation: 'Our own words' }).where(eq(matrices.id, 6));
    await upsertLookupValues(db);
    const explanation = async (id: number) =>
      (await db.select().from(matrices).where(eq(matrices.id, id)))[0]?.matrixExplanation;
    expect(await explanation(5)).toBe(MATRIX_EXPLANATIONS[5]);
    expect(await explanation(6)).toBe('Our own words');
  });

  it('GET /api/matrix_consolidations/find/?ids= for one matrix and for a consolidation', async () => {
    const one = await ctx.app.inject({ url: '/api/matrix_consolidations/find/?ids=1' });
    expect(one.json()).toMatchObject({ matrix: { matrix_expansion: 'Serum' } });
    const pooled = await ctx.app.inject({ url: '/api/matrix_consolidations/find/?ids=1,2,21' });
    expect(pooled.json()).toMatchObject({ consolidation: { id: 1, matrix_ids: [1, 2, 21] } });
    const bad = await ctx.app.inject({ url: '/api/matrix_consolidations/find/?ids=x' });
    expect(bad.statusCode).toBe(400);
  });

  it('GET /api/state_of_well_beings/{id}', async () => {
    const res = await ctx.app.inject({ url: '/api/state_of_well_beings/2' });
    expect(res.json()).toMatchObject({
      state_of_well_being: { state_of_well_being_descriptor_expansion: 'Non-healthy' },
    });
  });

  it('GET /api/diseases/{dataset id}: the disease states of a non-healthy dataset', async () => {
    const all = (await ctx.app.inject({ url: '/api/bv_specifications' })).json<{
      datasets: { id: number; state_of_well_being_id: number; disease_states: unknown[] }[];
    }>().datasets;
    const sick = all.find((d) => d.state_of_well_being_id === 2 && d.disease_states.length > 0)!;
    const res = await ctx.app.inject({ url: `/api/diseases/${sick.id}` });
    const diseases = res.json<{ diseases: { item_type: string }[] }>().diseases;
    expect(diseases.length).toBeGreaterThan(0);
    expect(typeof diseases[0]!.item_type).toBe('string');
  });

  it('GET /api/analytes/{id} and the list with counts', async () => {
    const list = (await ctx.app.inject({ url: '/api/analytes_with_bv_specifications' })).json<{
      analytes: {
        id: number;
        bv_specifications_count: number;
        full_name: string;
        alternate_names: string[];
      }[];
    }>().analytes;
    expect(list).toHaveLength(71);
    expect(list.reduce((s, a) => s + a.bv_specifications_count, 0)).toBe(202);
    const one = await ctx.app.inject({ url: `/api/analytes/${list[0]!.id}` });
    expect(one.json<{ analyte: { id: number } }>().analyte.id).toBe(list[0]!.id);
    expect(Array.isArray(list[0]!.alternate_names)).toBe(true);
  });
});
