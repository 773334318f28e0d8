import type { MetaRecord } from '@bvdb/contract';
import { ForestPlotFigure } from './forest-plot-figure';

/** Every result with studies, per matrix then CVI before CVG: the lazily loaded chunk's entry. */
export default function ForestPlots({ metas }: { metas: readonly MetaRecord[] }) {
  // As the summary table: the last record of a matrix and type is its result.
  const last = new Map(metas.map((m) => [`${m.matrix}\u0000${m.var_type}`, m]));
  const shown = [...last.values()]
    .filter((m) => m.datasets.length > 0)
    .toSorted((a, b) => a.matrix.localeCompare(b.matrix) || b.var_type.localeCompare(a.var_type));
  if (shown.length === 0) return <p className="text-muted">No study to plot.</p>;
  return (
    <>
      {shown.map((m) => (
        <ForestPlotFigure key={m.id} meta={m} />
      ))}
    </>
  );
}
