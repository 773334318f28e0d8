import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bvSpecifications, metaCalculations } from '../../../db/schema.js';
import { useTestApp } from '../../../test/test-app.js';
import { countOverlappingQueries } from '../../../test/overlapping-queries.js';
import {
  listAnalyteIdsWithDatasets,
  recomputeAnalyteMetas,
  recomputeAnalytesMetas,
} from './meta-calculation.service.js';

const ctx = useTestApp();

const stored = async () =>
  new Map(
    (
      await ctx.database.db
        .select({
          id: metaCalculations.id,
          analyteId: metaCalculations.analyteId,
          matrixId: metaCalculations.matrixId,
          consolidationId: metaCalculations.matrixConsolidationId,
          varType: metaCalculations.varType,
          median: metaCalculations.median,
          updatedAt: metaCalculations.updatedAt,
          computedAt: metaCalculations.computedAt,
        })
        .from(metaCalculations)
    ).map((r) => [`${r.analyteId}|${r.matrixId}|${r.consolidationId}|${r.varType}`, r]),
  );

async function recomputeAll(now: Date) {
  for (const id of await listAnalyteIdsWithDatasets(ctx.database.db)) {
    await ctx.database.db.transaction((tx) => recomputeAnalyteMetas(tx, id, now));
  }
}

describe('meta-analysis results keep their identity across recomputes', () => {
  it('a recompute without changes keeps every id and updated_at, and moves computed_at', async () => {
    await recomputeAll(new Date('2030-01-01T00:00:00Z'));
    const first = await stored();
    expect(first.size).toBeGreaterThan(20);
    await recomputeAll(new Date('2030-01-02T00:00:00Z'));
    const second = await stored();
    expect([...second.keys()].sort()).toEqual([...first.keys()].sort());
    for (const [key, row] of second) {
      const before = first.get(key)!;
      expect(row.id).toBe(before.id);
      expect(row.updatedAt.toISOString()).toBe(before.updatedAt.toISOString());
      expect(row.computedAt.toISOString()).toBe('2030-01-02T00:00:00.000Z');
    }
  });

  it('a changed dataset moves updated_at of its own measurand’s affected results only', async () => {
    const db = ctx.database.db;
    await recomputeAll(new Date('2030-02-01T00:00:00Z'));
    const before = await stored();
    // A dataset that a CVI result of its matrix uses (an included one with a CVI).
    const [spec] = (
      await db.select().from(bvSpecifications).where(eq(bvSpecifications.includeInMetaAnalysis, true))
    )
      .filter((s) => s.estimatesOfCvi !== null && before.has(`${s.analyteId}|${s.matrixId}|null|:cvi`))
      .sort((a, b) => a.id - b.id);
    expect(spec).toBeDefined();
    await db
      .update(bvSpecifications)
      .set({ estimatesOfCvi: spec!.estimatesOfCvi! + 0.7 })
      .where(eq(bvSpecifications.id, spec!.id));
    const later = new Date('2030-02-02T00:00:00Z');
    await recomputeAll(later);
    const after = await stored();

    const changed = [...after.entries()].filter(
      ([key, row]) => row.updatedAt.getTime() !== before.get(key)?.updatedAt.getTime(),
    );
    const cviOfMatrix = `${spec!.analyteId}|${spec!.matrixId}|null|:cvi`;
    expect(changed.map(([k]) => k)).toContain(cviOfMatrix);
    for (const [key, row] of changed) {
      // Only the changed dataset's measurand, only CVI results (its matrix or a consolidation of it).
      expect(row.analyteId).toBe(spec!.analyteId);
      expect(row.varType).toBe(':cvi');
      expect(row.updatedAt.toISOString()).toBe(later.toISOString());
      expect(row.median).not.toBe(before.get(key)!.median);
    }
    for (const [key, row] of after) {
      expect(row.id).toBe(before.get(key)!.id);
      expect(row.computedAt.toISOString()).toBe(later.toISOString());
    }
  });

  it('a result whose group lost every dataset is deleted; the others keep their ids', async () => {
    const db = ctx.database.db;
    const before = await stored();
    const [row] = [...before.values()].filter((r) => r.matrixId !== null).sort((a, b) => a.id - b.id);
    await db
      .update(bvSpecifications)
      .set({ includeInMetaAnalysis: false })
      .where(
        and(eq(bvSpecifications.analyteId, row!.analyteId), eq(bvSpecifications.matrixId, row!.matrixId!)),
      );
    await db.transaction((tx) => recomputeAnalyteMetas(tx, row!.analyteId, new Date('2030-03-01T00:00:00Z')));
    const after = await stored();
    expect(after.has(`${row!.analyteId}|${row!.matrixId}|null|:cvi`)).toBe(false);
    expect(after.has(`${row!.analyteId}|${row!.matrixId}|null|:cvg`)).toBe(false);
    for (const [key, r] of after) expect(r.id).toBe(before.get(key)!.id);
  });
});

describe('a recompute inside a transaction', () => {
  it('sends its queries one after another on the transaction’s connection (no pg queue warning)', async () => {
    const ids = await listAnalyteIdsWithDatasets(ctx.database.db);
    const overlapping = await countOverlappingQueries(() =>
      ctx.database.db.transaction((tx) => recomputeAnalytesMetas(tx, ids.slice(0, 5))),
    );
    expect(overlapping).toBe(0);
  });
});
