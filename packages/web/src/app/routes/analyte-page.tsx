import { exportAnalyteUrl } from '@bvdb/contract';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useParams, useSearchParams } from 'react-router';
import type { MetaRecord } from '@bvdb/contract';
import { ErrorText, Loading } from '../../components/state-views';
import { errorText, isNotFound } from '../../lib/api-client';
import { NotFoundPage } from './not-found-page';
import {
  LazyApsModal as ApsModal,
  LazyIndividualityCalculators as IndividualityCalculators,
  LazyRcvModal as RcvModal,
} from '../../features/calculators/components/lazy-calculators';
import { useMetaByAnalyteAsOf } from '../../features/meta-results/api/get-metas-of-analyte-as-of';
import { useMetaByAnalyte } from '../../features/meta-results/api/get-metas-of-analyte';
import { useAnalyteDatasets } from '../../features/datasets/api/get-datasets';
import { useAnalyte } from '../../features/analytes/api/get-analytes';
import { DatasetTable } from '../../features/analytes/components/dataset-table';
import { MetaSummary } from '../../components/meta-summary';
import { headlineMetasOf } from '../../lib/headline-metas';
import { ForestPlotSection } from '../../components/forest-plot/forest-plot-section';
import { CiteButton } from '../../components/cite/cite-button';
import { useSiteInfo } from '../../features/content/api/get-site-info';
import { useHydrated } from '../../lib/use-hydrated';
import { estimatePermalinkPath, estimateTargetOf, typeOfMeta } from '../../lib/estimate-permalink';
import { useRelease } from '../../features/releases/api/get-release';
import { releasesQuery } from '../../features/releases/api/get-releases';
import { AS_OF_PARAM, pinnedDifferences, RELEASE_PARAM, releaseOfValue } from '../../lib/release-pin';
import { paths } from '../../lib/paths';
import { isStaff, useSession } from '../../lib/session';
import { MeasurandCodesLine } from '../../features/analytes/components/measurand-codes-line';

// Rendered by the server like the rest of the page, but hydrated when their code arrives: the
// estimates' history sits below the fold and the release notice shows only on a pinned link, so
// neither is in the first load (issue 44.6, decision 088).
const EstimateHistory = lazy(async () => ({
  default: (await import('../../features/estimates/components/estimate-history')).EstimateHistory,
}));
const ReleasePinNotice = lazy(async () => ({
  default: (await import('../../components/release-pin-notice')).ReleasePinNotice,
}));
// The population facets (issue 47, decision 097) and the local estimates (decision 095): after
// hydration, in one chunk of their own, never server-rendered.
const HydratedParts = lazy(() => import('../measurand-hydrated-parts'));
// The curators' names and codes editors (decisions 083, 093): fetched only when shown.
const MeasurandCuratorParts = lazy(async () => ({
  default: (await import('../measurand-curator-parts')).MeasurandCuratorParts,
}));

export function AnalytePage() {
  const id = Number(useParams().id);
  const analyte = useAnalyte(id);
  const datasets = useAnalyteDatasets(id);
  const metas = useMetaByAnalyte(id);
  const [aps, setAps] = useState(false);
  const [rcv, setRcv] = useState(false);
  const site = useSiteInfo();
  const [params] = useSearchParams();
  // The server renders one page for every permalink; the estimate it names is marked once hydrated.
  const hydrated = useHydrated();
  // Curators and administrators edit the names the test menu matches by (decision 083), once hydrated.
  const staff = isStaff(useSession()) && hydrated;
  const target = hydrated ? estimateTargetOf(params) : null;
  // A permalink pinned to a dated release (issue 30.3): that release's values, read as of the moment
  // it was published. The server renders the current page; the pin is applied once hydrated.
  const pinParam = hydrated ? (params.get('release')?.trim() ?? '') : '';
  const pin = RELEASE_PARAM.test(pinParam) ? pinParam : null;
  const release = useRelease(pin);
  // `?as_of=` as the API takes it (issue 42.9): the values as they were at that day or instant, when
  // no release is named (a release wins: it is the citation's own moment).
  const asOfParam = hydrated ? (params.get('as_of')?.trim() ?? '') : '';
  const asOf = pin === null && AS_OF_PARAM.test(asOfParam) ? asOfParam : null;
  const publishedAt = pin !== null ? release.data?.data.published_at : (asOf ?? undefined);
  const pinned = useMetaByAnalyteAsOf(id, publishedAt);
  const queryClient = useQueryClient();
  // One render when the three parallel answers are in, so sections never push each other down.
  const pinPending =
    (pin !== null && (release.isPending || (publishedAt !== undefined && pinned.isPending))) ||
    (asOf !== null && pinned.isPending);
  if (analyte.isPending || metas.isPending || datasets.isPending || pinPending) return <Loading />;
  if (isNotFound(analyte.error)) return <NotFoundPage />;
  if (analyte.error) return <ErrorText>Error: {analyte.error.message}</ErrorText>;
  const a = analyte.data.analyte;
  const currentMetas = metas.data?.metas ?? [];
  // Pinned: the release's values everywhere on the page (a measurand without results then has none).
  const pinnedOk =
    (pin !== null || asOf !== null) && publishedAt !== undefined && (pinned.data || isNotFound(pinned.error));
  const metaList = pinnedOk ? (pinned.data?.metas ?? []) : currentMetas;
  // The release a citation names: the pinned one, or the newest when the value is in it, read when
  // "Cite this estimate" is pressed (the list is not part of the page; a failed read names none).
  const citedRelease = async (updatedAt: string) => {
    if (pinnedOk && pin !== null) return pin;
    const releases = await queryClient.fetchQuery(releasesQuery).catch(() => null);
    return releaseOfValue(updatedAt, releases?.data ?? []);
  };
  // The calculators start from the headline matrix's meta medians (spec section 4, decision 007).
  const headline = headlineMetasOf(metaList);
  const cvi = headline.within?.median ?? null;
  const cvg = headline.between?.median ?? null;
  // The estimate id and version of each result (issue 29.5): its history and its citation name them.
  const versionOf = new Map(metaList.map((m) => [m.id, m.version]));
  const labelOfDataset = new Map((datasets.data ?? []).map((d) => [d.id, d.unique_identifier]));
  const labelOf = (id: number) => labelOfDataset.get(id) ?? `dataset ${id}`;
  const withHistory = metaList.filter((m) => m.estimate_id !== null);
  return (
    <>
      <div className="d-flex flex-wrap justify-content-between align-items-start gap-2">
        <div>
          <h1 className="h3 mb-1">{a.display_name}</h1>
          <p className="text-muted mb-1">{a.full_name}</p>
          <p className="small mb-2">
            Alternative names: {a.alternate_names.length ? a.alternate_names.join(', ') : 'No Alternative'}
          </p>
          <MeasurandCodesLine measurandId={a.id} />
        </div>
        <div className="d-flex flex-wrap gap-2">
          <a href={exportAnalyteUrl(a.id)} className="btn btn-success btn-sm">
            Export (.xlsx)
          </a>
          <Button size="sm" variant="outline-primary" onClick={() => setAps(true)}>
            Analytical Performance Specification
          </Button>
          <Button size="sm" variant="outline-primary" onClick={() => setRcv(true)}>
            Reference Change Value
          </Button>
        </div>
      </div>
      {pin !== null && release.error ? (
        <ErrorText>
          {isNotFound(release.error)
            ? `There is no release ${pin}: the current values are shown.`
            : `Release ${pin} could not be read (${release.error.message}): the current values are shown.`}
        </ErrorText>
      ) : null}
      {asOf !== null && pinned.error && !isNotFound(pinned.error) ? (
        <ErrorText>
          The values as of {asOf} could not be read ({pinned.error.message}): the current values are shown.
        </ErrorText>
      ) : null}
      {pinnedOk ? (
        <Suspense fallback={null}>
          <ReleasePinNotice
            version={pin}
            publishedAt={publishedAt}
            currentPath={paths.analyte(a.id)}
            differences={pinnedDifferences(metaList, currentMetas, (m) => `${m.matrix} ${typeOfMeta(m)}`)}
          />
        </Suspense>
      ) : null}
      <h2 className="h5 mt-3">Meta-analysis</h2>
      {metas.error ? (
        <ErrorText>Error: {metas.error.message}</ErrorText>
      ) : (
        <MetaSummary
          metas={metaList}
          target={target}
          renderCite={(m: MetaRecord) => (
            <CiteButton
              compact
              label={`${m.matrix} ${typeOfMeta(m)}`}
              input={async () => {
                const release = await citedRelease(m.updated_at);
                return {
                  databaseCitation: site.data?.citation ?? '',
                  measurand: a.display_name,
                  matrix: m.matrix,
                  kind: 'meta-analysis',
                  values: [{ type: typeOfMeta(m), value: m.median, lower: m.lower, upper: m.upper }],
                  n: m.number_used,
                  updated: m.updated_at,
                  version: versionOf.get(m.id) ?? null,
                  release,
                  path: estimatePermalinkPath(a.id, m.matrix, typeOfMeta(m), release),
                };
              }}
            />
          )}
        />
      )}
      {hydrated ? (
        <Suspense fallback={null}>
          <HydratedParts
            id={a.id}
            metas={metaList}
            asOf={pinnedOk ? publishedAt : undefined}
            release={pinnedOk ? pin : null}
          />
        </Suspense>
      ) : null}
      {withHistory.length > 0 ? (
        <section aria-labelledby="estimate-history-heading" className="mb-4">
          <h2 className="h5" id="estimate-history-heading">
            History
          </h2>
          <p className="small text-muted mb-2">
            Each estimate&apos;s earlier values: a new version is kept whenever a change of its studies
            changes what this page shows.
          </p>
          <Suspense fallback={<Loading />}>
            {withHistory.map((m) => (
              <EstimateHistory
                key={m.estimate_id}
                estimateId={m.estimate_id!}
                version={m.version}
                label={`${m.matrix} ${typeOfMeta(m)}`}
                labelOf={labelOf}
              />
            ))}
          </Suspense>
        </section>
      ) : null}
      {staff ? (
        <Suspense fallback={null}>
          <MeasurandCuratorParts measurandId={a.id} />
        </Suspense>
      ) : null}
      <h2 className="h5">Datasets</h2>
      {datasets.error ? (
        <ErrorText>Error loading data: {errorText(datasets.error)}</ErrorText>
      ) : (
        <DatasetTable datasets={datasets.data} metas={metaList} />
      )}
      <ForestPlotSection metas={metaList} />
      <h2 className="h5 mt-4">Using these estimates</h2>
      <IndividualityCalculators key={`${cvi}-${cvg}`} initialCvi={cvi} initialCvg={cvg} />
      <ApsModal show={aps} onHide={() => setAps(false)} metas={metaList} />
      <RcvModal
        show={rcv}
        onHide={() => setRcv(false)}
        cvi={cvi}
        cviEstimate={
          headline.within && cvi !== null
            ? {
                median: cvi,
                lower: headline.within.lower,
                upper: headline.within.upper,
                limits: headline.within.limits,
              }
            : null
        }
      />
    </>
  );
}
