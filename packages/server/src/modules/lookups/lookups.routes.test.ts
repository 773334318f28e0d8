import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/test-app.js';

const ctx = useTestApp();

describe('lookups', () => {
  it('GET /api/matrices/{id}', async () => {
    const res = await ctx.app.inject({ url: '/api/matrices/21' });
    expect(res.json()).toEqual({
      matrix: { id: 21, matrix_expansion: 'Serum/plasma', matrix_explanation: null },
    });
    expect((await ctx.app.inject({ url: '/api/matrices/99' })).statusCode).toBe(404);
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
