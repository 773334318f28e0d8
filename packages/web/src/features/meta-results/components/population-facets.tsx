import type { FacetAnswerSchema, MetaRecord } from '@bvdb/contract';
import {
  describeFacetSelection,
  formatFixed,
  limitsKindOf,
  type Facet,
  type FacetSelection,
} from '@bvdb/domain';
import { useEffect, useId, useRef } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { CiteButton } from '../../../components/cite/cite-button';
import ForestPlots from '../../../components/forest-plot/forest-plots';
import { ErrorText, Loading } from '../../../components/state-views';
import {
  facetSelectionOfParams,
  populationPermalinkPath,
  withFacetValues,
  withoutFacets,
} from '../../../lib/facet-params';
import { typeOfMeta } from '../../../lib/estimate-permalink';
import { useMeasurandFacets } from '../api/get-measurand-facets';
import { usePopulationMetas } from '../api/get-population-metas';

type FacetAnswer = z.infer<typeof FacetAnswerSchema>;
type FacetEstimate = FacetAnswer['metas'][number];

const pct = (v: number | null) => (v === null ? '—' : formatFixed(v, 1));

/** A facet estimate in the shape the forest plot draws (its studies' titles from the page's datasets). */
function asMetaRecord(m: FacetEstimate, i: number, titleOf: (id: number) => string | undefined): MetaRecord {
  return {
    id: -1 - i,
    name: m.name,
    analyte_id: 0,
    var_type: m.var_type,
    median: m.median,
    lower: m.lower,
    upper: m.upper,
    number_used: m.number_used,
    comments: null,
    display: true,
    matrix: m.matrix,
    matrix_id: m.matrix_id,
    matrix_consolidation_id: m.matrix_consolidation_id,
    method: m.method,
    limits: m.limits,
    seed: m.seed,
    references_array: '[]',
    datasets: m.datasets.map((d) => ({
      ...d,
      reference_title: titleOf(d.bv_specification_id) ?? d.study_id,
    })),
    computed_at: '',
    updated_at: '',
  };
}

export interface PopulationFacetsProps {
  measurandId: number;
  measurandName: string;
  /** The global estimates the page shows (pinned ones when pinned), set beside the population's. */
  globalMetas: readonly MetaRecord[];
  /** A dataset's study title, by dataset id (the forest plot's rows). */
  titleOf: (datasetId: number) => string | undefined;
  /** The moment the page is pinned to (a release's publication or `as_of`), else undefined. */
  asOf: string | undefined;
  /** The pinned release's version, when the page names one. */
  release: string | null;
  databaseCitation: string;
}

/**
 * "Estimate for a population" (issue 47, decision 097): the measurand's facets with how many
 * datasets have each value, and — once some are chosen — the estimate recomputed from the matching
 * studies, with its forest plot and, where two values of one facet each have two studies or more,
 * whether they differ. The choice lives in the page's URL (`?facet.sex=males`); the global estimate
 * above never changes. Loaded after hydration: none of it is in the page's first load.
 */
export function PopulationFacets(props: PopulationFacetsProps) {
  const { measurandId, asOf } = props;
  const [params, setParams] = useSearchParams();
  const selection = facetSelectionOfParams(params);
  const facets = useMeasurandFacets(measurandId);
  const answer = usePopulationMetas(measurandId, selection, asOf ?? null);
  const chosen = Object.keys(selection).length > 0;
  const labelOf = (facet: Facet, value: string) =>
    facets.data?.facets.find((f) => f.facet === facet)?.values.find((v) => v.value === value)?.label;
  const population = describeFacetSelection(selection, labelOf);
  // The query as last set: two quick clicks each build on the one before, not on the query of the
  // render they were made in (a navigation commits after the click).
  const latest = useRef(params);
  useEffect(() => {
    latest.current = params;
  }, [params]);
  const navigate = (next: URLSearchParams) => {
    latest.current = next;
    setParams(next, { preventScrollReset: true });
  };
  const toggle = (facet: Facet, value: string, on: boolean) => {
    const now = facetSelectionOfParams(latest.current)[facet] ?? [];
    navigate(withFacetValues(latest.current, facet, on ? [...now, value] : now.filter((v) => v !== value)));
  };
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mb-4" data-testid="population-facets">
      <h2 className="h5" id={headingId}>
        Estimate for a population
      </h2>
      <p className="small text-muted mb-2">
        Choose the people you test: the estimate is recomputed by the same meta-analysis from the matching
        studies alone. Within a facet the values chosen are alternatives; across facets all apply. The global
        estimate above does not change.
      </p>
      {facets.isPending ? (
        <Loading text="Loading the facets..." />
      ) : facets.error ? (
        <ErrorText>The facets could not be read: {facets.error.message}</ErrorText>
      ) : (
        <FacetChooser facets={facets.data.facets} selection={selection} onToggle={toggle} />
      )}
      {chosen ? (
        <PopulationEstimate
          {...props}
          selection={selection}
          population={population}
          answer={answer}
          onClear={() => navigate(withoutFacets(latest.current))}
        />
      ) : null}
    </section>
  );
}

type FacetList = NonNullable<ReturnType<typeof useMeasurandFacets>['data']>['facets'];

function FacetChooser({
  facets,
  selection,
  onToggle,
}: {
  facets: FacetList;
  selection: FacetSelection;
  onToggle: (facet: Facet, value: string, on: boolean) => void;
}) {
  const idBase = useId();
  // A value no dataset has is not offered (unless the URL chose it); a facet no dataset records is
  // named once below.
  const offered = facets.map((f) => ({
    ...f,
    values: f.values.filter((v) => v.datasets > 0 || selection[f.facet]?.includes(v.value)),
  }));
  const unrecorded = offered.filter((f) => f.values.length === 0).map((f) => f.label);
  return (
    <>
      <div className="row row-cols-1 row-cols-sm-2 row-cols-lg-4 g-2 mb-2" data-testid="facet-chooser">
        {offered
          .filter((f) => f.values.length > 0)
          .map((f) => (
            <fieldset key={f.facet} className="col" data-testid={`facet-${f.facet}`}>
              <legend className="small fw-semibold mb-1">{f.label}</legend>
              {f.values.map((v) => {
                const id = `${idBase}-${f.facet}-${v.value}`;
                const checked = selection[f.facet]?.includes(v.value) ?? false;
                return (
                  <div key={v.value} className="form-check small">
                    <input
                      type="checkbox"
                      className="form-check-input"
                      id={id}
                      checked={checked}
                      onChange={(e) => onToggle(f.facet, v.value, e.target.checked)}
                    />
                    <label className="form-check-label" htmlFor={id}>
                      {v.label}{' '}
                      <span className="text-body-secondary">
                        ({v.datasets} {v.datasets === 1 ? 'dataset' : 'datasets'})
                      </span>
                    </label>
                  </div>
                );
              })}
              {f.unknown > 0 ? (
                <p className="small text-body-secondary mb-0">{f.unknown} not recorded</p>
              ) : null}
            </fieldset>
          ))}
      </div>
      {unrecorded.length > 0 ? (
        <p className="small text-body-secondary">No dataset records: {unrecorded.join(', ')}.</p>
      ) : null}
    </>
  );
}

function PopulationEstimate({
  measurandId,
  measurandName,
  globalMetas,
  titleOf,
  asOf,
  release,
  databaseCitation,
  selection,
  population,
  answer,
  onClear,
}: PopulationFacetsProps & {
  selection: FacetSelection;
  population: string;
  answer: ReturnType<typeof usePopulationMetas>;
  onClear: () => void;
}) {
  const permalink = populationPermalinkPath(measurandId, selection, { release, asOf: release ? null : asOf });
  const f = answer.data?.facets ?? null;
  const globalOf = (m: FacetEstimate) =>
    globalMetas.findLast((g) => g.matrix === m.matrix && g.var_type === m.var_type);
  const twoValues = Object.values(selection).some((v) => v.length >= 2);
  return (
    <div className="border rounded p-2 p-sm-3 mb-3" aria-live="polite" data-testid="population-estimate">
      <h3 className="h6 mb-1">
        Population: <span data-testid="population-name">{population}</span>
      </h3>
      <p className="small mb-2 d-flex flex-wrap gap-3">
        <Link to={permalink} data-testid="population-permalink">
          Permalink to this population
        </Link>
        <Button variant="link" size="sm" className="p-0 align-baseline" onClick={onClear}>
          Clear the choice
        </Button>
        {asOf ? <span className="text-body-secondary">As of {asOf.slice(0, 10)}</span> : null}
      </p>
      {answer.isPending ? (
        <Loading text="Recomputing for this population..." />
      ) : answer.error ? (
        <ErrorText>The population&apos;s estimate could not be computed: {answer.error.message}</ErrorText>
      ) : !f || f.note ? (
        <p className="mb-0" data-testid="population-note">
          {f?.note ?? 'No study matches these facets'} ({f?.datasets ?? 0} matching datasets).
        </p>
      ) : (
        <>
          <p className="small mb-1">
            {f.datasets} matching {f.datasets === 1 ? 'dataset' : 'datasets'}.
          </p>
          <div className="table-responsive" tabIndex={0} role="region" aria-label="Population estimates">
            <Table size="sm" className="mb-2 table-stack-phone" data-testid="population-table">
              <thead>
                <tr>
                  <th scope="col">Matrix</th>
                  <th scope="col">Type</th>
                  <th scope="col">This population, % (limits)</th>
                  <th scope="col">N (studies)</th>
                  <th scope="col">Global estimate, %</th>
                  <th scope="col">
                    <span className="visually-hidden">Cite</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {f.metas.map((m) => {
                  const g = globalOf(m);
                  const type = typeOfMeta(m);
                  return (
                    <tr key={`${m.matrix}-${m.var_type}`} data-testid={`population-${type}`}>
                      <td data-label="Matrix">{m.matrix}</td>
                      <td data-label="Type">{type}</td>
                      <td data-label="This population, %">
                        {/* One element: the phone layout puts each child of a cell in a cell of its own. */}
                        <span>
                          <strong data-testid="population-median">{pct(m.median)}</strong> ({pct(m.lower)}–
                          {pct(m.upper)}
                          {limitsKindOf(m.method) ? `, ${limitsKindOf(m.method)}` : ''})
                          {m.note ? (
                            <span
                              className="d-block small text-body-secondary"
                              data-testid="population-one-study"
                            >
                              {m.note}
                            </span>
                          ) : null}
                          {/* What kind of evidence the value is (issue 47.4, decision 099). */}
                          <span
                            className="d-block small text-body-secondary"
                            data-testid="population-evidence"
                          >
                            Evidence: {m.evidence.label}
                          </span>
                        </span>
                      </td>
                      <td data-label="N (studies)">{m.number_used}</td>
                      <td data-label="Global estimate, %">{g ? pct(g.median) : '—'}</td>
                      <td>
                        <CiteButton
                          compact
                          label={`${m.matrix} ${type}, population ${population}`}
                          input={() => ({
                            databaseCitation,
                            measurand: measurandName,
                            matrix: m.matrix,
                            kind: 'meta-analysis',
                            values: [{ type, value: m.median, lower: m.lower, upper: m.upper }],
                            n: m.number_used,
                            updated: asOf ?? new Date().toISOString(),
                            release,
                            population,
                            path: permalink,
                          })}
                        />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </Table>
          </div>
        </>
      )}
      {f ? (
        <div data-testid="population-differs">
          <h4 className="h6 mt-2 mb-1">Does it differ?</h4>
          {f.comparisons.length > 0 ? (
            <ul className="mb-2 ps-3">
              {f.comparisons.map((c) => (
                <li key={`${c.facet}-${c.matrix}-${c.var_type}-${c.a.value}-${c.b.value}`}>
                  <span data-testid="population-sentence">{c.sentence}</span>{' '}
                  <span className="small text-body-secondary">
                    ({c.matrix}, {c.a.number_used} vs {c.b.number_used} studies; {c.method})
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="small mb-2" data-testid="population-not-tested">
              {twoValues
                ? 'Not tested: each of the two values needs at least two studies in the same matrix.'
                : 'Choose two values of one facet (for instance Males and Females) to test whether they differ.'}
            </p>
          )}
        </div>
      ) : null}
      {f && f.metas.some((m) => m.datasets.length > 0) ? (
        <div data-testid="population-forest">
          <h4 className="h6 mt-2">Forest plots of this population</h4>
          <ForestPlots metas={f.metas.map((m, i) => asMetaRecord(m, i, titleOf))} />
        </div>
      ) : null}
    </div>
  );
}
