import type { MetaRecord } from '@bvdb/contract';
import { useAnalyte } from '../features/analytes/api/get-analytes';
import { useSiteInfo } from '../features/content/api/get-site-info';
import { useAnalyteDatasets } from '../features/datasets/api/get-datasets';
import { LocalEstimatesSection } from '../features/indirect/components/local-estimates-section';
import { PopulationFacets } from '../features/meta-results/components/population-facets';

/**
 * The measurand page's sections that come after hydration, never server-rendered, one module so
 * the page's first load holds a single lazy reference (decision 088's budget, decision 097):
 * the population facets (issue 47), with what they need from other features — the measurand's
 * name, its datasets' study titles, the database citation — read from the queries the page already
 * holds (features do not import each other), and the laboratories' local estimates (decision 095).
 */
export default function MeasurandHydratedParts({
  id,
  metas,
  asOf,
  release,
}: {
  id: number;
  metas: readonly MetaRecord[];
  asOf?: string | undefined;
  release: string | null;
}) {
  const analyte = useAnalyte(id);
  const datasets = useAnalyteDatasets(id);
  const site = useSiteInfo();
  const titles = new Map((datasets.data ?? []).map((d) => [d.id, d.reference_title]));
  return (
    <>
      <PopulationFacets
        measurandId={id}
        measurandName={analyte.data?.analyte.display_name ?? ''}
        globalMetas={metas}
        titleOf={(datasetId) => titles.get(datasetId)}
        asOf={asOf}
        release={release}
        databaseCitation={site.data?.citation ?? ''}
      />
      <LocalEstimatesSection measurandId={id} />
    </>
  );
}
