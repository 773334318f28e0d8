import type { MetaRecord } from '@bvdb/contract';
import { formatDateDmy, formatFixed, formatMetaValue, limitsKindOf } from '@bvdb/domain';
import { useEffect, useId, useState, type ReactNode } from 'react';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { isStaff, useSession } from '../lib/session';
import { estimateAnchorId, isEstimateTarget, type EstimateTarget } from '../lib/estimate-permalink';
import { HeaderRow } from './header-row';
import { paths } from '../lib/paths';

export function methodNote(m: Pick<MetaRecord, 'method' | 'number_used'>): string {
  switch (m.method) {
    case 'bootstrap':
      return `N = ${m.number_used}; limits: 95% percentile bootstrap (999 resamples)`;
    case 'range':
      return `N = ${m.number_used}; limits: range of the study estimates (min–max), not a 95% CI`;
    case 'single':
      return 'N = 1; limits: the CI of the single study';
    case 'none':
      return 'No usable study';
  }
}

/**
 * A limit with what the pair is, "4.1 (range)" or "3.9 (95 % CI)" (issue 27.7): the spec's headers
 * "lower/higher CI limit" stay, and a copied cell still says which it is.
 */
function Limit({ value, method }: { value: number | null; method: MetaRecord['method'] }) {
  const kind = limitsKindOf(method);
  // One element: the phone layout (table-stack) puts each child of a cell in a grid cell of its own.
  return (
    <span>
      {formatFixed(value ?? 0, 1)}
      {kind ? (
        <span className="small text-body-secondary text-nowrap" data-testid="limits-tag">
          {' '}
          ({kind})
        </span>
      ) : null}
    </span>
  );
}

/** Per matrix: the last :cvi record is the within-subject row, the last :cvg the between-subject row. */
export function groupMetas(metas: MetaRecord[]) {
  const groups = new Map<string, { within?: MetaRecord; between?: MetaRecord }>();
  for (const m of metas) {
    const g = groups.get(m.matrix) ?? {};
    if (m.var_type === ':cvi') g.within = m;
    else g.between = m;
    groups.set(m.matrix, g);
  }
  return [...groups.entries()];
}

/**
 * The meta-analysis summary. Each row has an id a permalink names (estimate-{matrix}-{type});
 * `target` is the estimate a permalink opened: its row is highlighted and scrolled to.
 * `renderCite` adds a "Cite this estimate" action to each row with a result.
 */
export function MetaSummary({
  metas,
  target = null,
  renderCite,
}: {
  metas: MetaRecord[];
  target?: EstimateTarget | null;
  renderCite?: (m: MetaRecord) => ReactNode;
}) {
  const signedIn = isStaff(useSession());
  const targetId = target ? estimateAnchorId(target.matrix, target.type) : null;
  useEffect(() => {
    if (!targetId) return;
    document.getElementById(targetId)?.scrollIntoView({ block: 'center' });
  }, [targetId]);
  // Bootstrap's accordion markup with a plain toggle: react-bootstrap's Accordion and its
  // transition code would add about 5 KB to the measurand page's first load (issue 18).
  const [refsOpen, setRefsOpen] = useState(false);
  const refsId = useId();
  if (metas.length === 0) return <p>No Meta-Analysis Results</p>;
  const groups = groupMetas(metas);
  return (
    <>
      <p className="small text-muted mb-1">
        Date Updated is when the estimate&apos;s value last changed
        {signedIn ? '; “recomputed” is when the engine last ran' : ''}.
      </p>
      <Table bordered responsive className="align-middle table-stack">
        <caption className="caption-top">
          Meta-analysis estimates (weighted median of the included studies)
        </caption>
        <thead>
          <HeaderRow
            names={[
              'Matrix',
              'BV Estimate',
              'median CV estimate',
              'lower CI limit',
              'higher CI limit',
              'Comments',
              'Date Updated',
            ]}
          />
        </thead>
        <tbody>
          {groups.flatMap(([matrix, g]) =>
            (
              [
                ['Within-subject (CVI)', g.within],
                ['Between-subject (CVG)', g.between],
              ] as const
            ).map(([label, m], i) => {
              const type = i === 0 ? 'CVI' : 'CVG';
              const isTarget = isEstimateTarget(target, matrix, type);
              return (
                <tr
                  key={`${matrix}-${label}`}
                  id={estimateAnchorId(matrix, type)}
                  data-testid={`meta-row-${matrix}-${i === 0 ? 'cvi' : 'cvg'}`}
                  className={isTarget ? 'estimate-target' : undefined}
                  data-permalink-target={isTarget ? 'true' : undefined}
                >
                  {i === 0 ? (
                    <th scope="rowgroup" rowSpan={2}>
                      {matrix}
                    </th>
                  ) : null}
                  <td data-label="BV Estimate">
                    <div>
                      {label}
                      {m && m.median && renderCite ? <div>{renderCite(m)}</div> : null}
                    </div>
                  </td>
                  <td data-label="median CV estimate">{formatMetaValue(m?.median)}</td>
                  <td data-label="lower CI limit">
                    {m && m.median ? <Limit value={m.lower} method={m.method} /> : 'NA'}
                  </td>
                  <td data-label="higher CI limit">
                    {m && m.median ? <Limit value={m.upper} method={m.method} /> : 'NA'}
                  </td>
                  <td data-label="Comments" className="small">
                    {m
                      ? // What kind of evidence it is (issue 47.4, decision 099), as v1 answers say.
                        [m.comments, methodNote(m), (m as { evidence?: { label: string } }).evidence?.label]
                          .filter(Boolean)
                          .join(' · ')
                      : 'No usable study'}
                  </td>
                  <td data-label="Date Updated">
                    {m ? formatDateDmy(m.updated_at) : ''}
                    {m && signedIn ? (
                      <div className="small text-muted" data-testid="meta-computed-at">
                        recomputed {formatDateDmy(m.computed_at)}
                      </div>
                    ) : null}
                  </td>
                </tr>
              );
            }),
          )}
        </tbody>
      </Table>
      <div className="accordion mb-4">
        <div className="accordion-item">
          <h3 className="accordion-header">
            <button
              type="button"
              className={`accordion-button${refsOpen ? '' : ' collapsed'}`}
              aria-expanded={refsOpen}
              aria-controls={refsId}
              onClick={() => setRefsOpen((o) => !o)}
            >
              References Used in Metacalculation
            </button>
          </h3>
          <div id={refsId} className={`accordion-collapse collapse${refsOpen ? ' show' : ''}`}>
            <div className="accordion-body">
              {metas.map((m) => (
                <section key={m.id} className="mb-3">
                  <h4 className="h6">
                    {m.matrix} · {m.var_type === ':cvi' ? 'CVI' : 'CVG'} · weighted median{' '}
                    {formatMetaValue(m.median)}% ({methodNote(m)}; computed {formatDateDmy(m.computed_at)}
                    {m.seed !== null ? `, seed ${m.seed}` : ''})
                  </h4>
                  <Table size="sm" bordered responsive className="table-stack">
                    <caption className="visually-hidden">Datasets used for {m.name}</caption>
                    <thead>
                      <HeaderRow names={['Reference', 'Dataset', 'Grade', 'CV %', 'CI', 'Weight']} />
                    </thead>
                    <tbody>
                      {m.datasets.map((d) => (
                        <tr key={d.bv_specification_id}>
                          <td data-label="Reference">
                            <Link to={paths.reference(d.reference_id)}>{d.reference_title}</Link>
                          </td>
                          <td data-label="Dataset">
                            <Link to={paths.dataset(d.bv_specification_id)}>{d.bv_specification_id}</Link>
                          </td>
                          <td data-label="Grade">{d.grade}</td>
                          <td data-label="CV %">{formatFixed(d.cv, 2)}</td>
                          <td data-label="CI">
                            {formatFixed(d.ci_lower, 2)}–{formatFixed(d.ci_upper, 2)}
                          </td>
                          <td data-label="Weight">{formatFixed(d.weight * 100, 1)}%</td>
                        </tr>
                      ))}
                    </tbody>
                  </Table>
                </section>
              ))}
            </div>
          </div>
        </div>
      </div>
    </>
  );
}
