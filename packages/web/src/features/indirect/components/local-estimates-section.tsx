import { formatFixed } from '@bvdb/domain';
import { lazy, Suspense } from 'react';
import Table from 'react-bootstrap/Table';
import { isStaff, useSession } from '../../../lib/session';
import { useLocalEstimates } from '../api/local-estimates';
import { methodName } from './report-csv';

// Curators' "Edit" and "Delete" with their dialogs, fetched only for a curator (decision 100): the
// list of files this section needs is itself in the measurand page's first load.
const LocalEstimateActions = lazy(() =>
  import('./local-estimate-actions').then((m) => ({ default: m.LocalEstimateActions })),
);

const f2 = (v: number | null) => (v === null ? '—' : formatFixed(v, 2));

/**
 * Laboratories' own estimates from routine data, apart from the meta-analysis (decision 095): read
 * after hydration, so neither its code nor its answer is in the measurand page's first load.
 */
export function LocalEstimatesSection({ measurandId }: { measurandId: number }) {
  const local = useLocalEstimates(measurandId);
  const staff = isStaff(useSession());
  const items = local.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="local-estimates-heading" className="mb-4">
      <h2 className="h5" id="local-estimates-heading">
        Local estimates from routine data
      </h2>
      <p className="small text-muted mb-2">
        Evidence class “routine data (indirect)”: laboratories&apos; own results of patients, estimated by an
        indirect method. Shown apart; never part of the meta-analysis above.
      </p>
      <div
        className="table-responsive"
        tabIndex={0}
        role="region"
        aria-label="Local estimates (scrolls sideways)"
      >
        <Table size="sm">
          <thead>
            <tr>
              <th scope="col">Laboratory</th>
              <th scope="col">Method</th>
              <th scope="col">CVI, % (95 % interval)</th>
              <th scope="col">CV_total, %</th>
              <th scope="col">CVA, %</th>
              <th scope="col">Pairs (patients)</th>
              <th scope="col">Interval</th>
              {staff ? (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {items.map((e) => (
              <tr key={e.id}>
                <td>
                  {e.laboratory}
                  {e.period ? `, ${e.period}` : ''}
                  {e.matrix ? ` (${e.matrix.name})` : ''}
                  {e.note ? <div className="small text-muted">{e.note}</div> : null}
                </td>
                <td>{methodName(e.method)}</td>
                <td>
                  {f2(e.cvi)} ({f2(e.cvi_lower)}–{f2(e.cvi_upper)})
                </td>
                <td>{f2(e.cv_total)}</td>
                <td>{f2(e.cva)}</td>
                <td>
                  {e.pairs.toLocaleString('en')} ({e.patients.toLocaleString('en')})
                </td>
                <td>
                  {e.min_days}–{e.max_days} days, {e.pairs_per_patient === 'one' ? 'one pair' : 'all pairs'}{' '}
                  per patient
                </td>
                {staff ? (
                  <td>
                    <Suspense fallback={null}>
                      <LocalEstimateActions e={e} />
                    </Suspense>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
    </section>
  );
}
