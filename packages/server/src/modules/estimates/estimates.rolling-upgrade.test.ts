import { describe, expect, it } from 'vitest';
import { editDataset, usedDataset } from '../../test/edit-dataset.js';
import { useTestApp } from '../../test/test-app.js';

// A rolling upgrade (issue 43.14): the previous release, on the same database, writes a result
// (meta_calculations and its dataset links) but no estimate version. The value is shown at once;
// this release's next recompute of that measurand records it as a version. Runs on PGlite, and on
// PostgreSQL when TEST_DATABASE_URL names a server.
const ctx = useTestApp();

interface History {
  data: { version: number; median: number | null; cause: { kind: string; role: string } }[];
}
interface V1Metas {
  metas: { id: number; estimate_id: number; version: number; median: number }[];
}

describe('what a previous release wrote becomes an estimate version (issue 43.14)', () => {
  /** The previous release's write: a result recomputed and stored, and no version of it. */
  async function writeAsThePreviousRelease(change: number) {
    const { specId, cv, analyteId, metaId } = await usedDataset(ctx.database);
    await editDataset(ctx.app, specId, { estimates_of_cvi: Number(cv) + change });
    await ctx.app.deps.recompute.settle();
    const shown = (await ctx.app.inject({ url: `/api/v1/measurands/${analyteId}/metas` }))
      .json<V1Metas>()
      .metas.find((m) => m.id === metaId)!;
    const latest = shown.version;
    await ctx.database.execute('delete from estimate_versions where estimate_id = $1 and version = $2', [
      shown.estimate_id,
      latest,
    ]);
    return { shown, latest };
  }

  it('at start, the worker asks for the recompute of exactly the measurands with unversioned results', async () => {
    expect(await ctx.app.deps.recompute.requestUnversioned()).toBe(0);
    const { shown, latest } = await writeAsThePreviousRelease(11);
    expect(await ctx.app.deps.recompute.requestUnversioned()).toBe(1);
    await ctx.app.deps.recompute.settle();
    const h = (
      await ctx.app.inject({ url: `/api/v1/estimates/${shown.estimate_id}/history` })
    ).json<History>();
    expect(h.data[0]).toMatchObject({
      version: latest,
      median: shown.median,
      cause: { kind: 'initial', role: 'system' },
    });
    expect(await ctx.app.deps.recompute.requestUnversioned()).toBe(0);
  });

  it('a result written without a version is versioned at the next recompute of its measurand', async () => {
    const { shown, latest } = await writeAsThePreviousRelease(7.5);
    const { analyteId } = await usedDataset(ctx.database);
    const before = (
      await ctx.app.inject({ url: `/api/v1/estimates/${shown.estimate_id}/history` })
    ).json<History>();
    expect(before.data[0]!.version).toBe(latest - 1);
    expect(before.data[0]!.median).not.toBe(shown.median);

    // This release's next recompute of the measurand (any cause) finds the stored result equal to
    // what it computes, and still records it, because its latest version says something else.
    await ctx.database.db.transaction((tx) =>
      ctx.app.deps.recompute.request(tx, {
        analyteIds: [analyteId],
        cause: { kind: 'lookup', role: 'system' },
      }),
    );
    await ctx.app.deps.recompute.settle();
    const after = (
      await ctx.app.inject({ url: `/api/v1/estimates/${shown.estimate_id}/history` })
    ).json<History>();
    expect(after.data[0]!.version).toBe(latest);
    expect(after.data[0]!.median).toBe(shown.median);

    expect(await ctx.app.deps.recompute.requestUnversioned()).toBe(0);

    // Once recorded, a further recompute writes no further version.
    await ctx.database.db.transaction((tx) =>
      ctx.app.deps.recompute.request(tx, {
        analyteIds: [analyteId],
        cause: { kind: 'lookup', role: 'system' },
      }),
    );
    await ctx.app.deps.recompute.settle();
    const again = (
      await ctx.app.inject({ url: `/api/v1/estimates/${shown.estimate_id}/history` })
    ).json<History>();
    expect(again.data.map((v) => v.version)).toEqual(after.data.map((v) => v.version));
  });
});
