import { urlFor } from '../../lib/api-client';
import { v1ApplicationsFile } from '@bvdb/contract';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link, useSearchParams } from 'react-router';
import { ErrorText, Loading } from '../../components/state-views';
import { useApplications, applicationsQueryString } from '../../features/applications/api/get-applications';
import {
  paramsFromSearch,
  PROBABILITIES,
  searchOf,
  type ApplicationsParams,
} from '../../features/applications/applications-params';
import {
  ApplicationsTable,
  matchesName,
  PHONE_SORTS,
} from '../../features/applications/components/applications-table';

// Loaded on demand (issue 47.3): its code and the lookups are not in the page's first load.
const PopulationChooser = lazy(() => import('../../components/population-chooser'));

const LEVELS = [
  ['minimum', 'Minimum'],
  ['desirable', 'Desirable'],
  ['optimal', 'Optimal'],
] as const;

const percent = (p: number) => `${Number((p * 100).toFixed(2))} %`;

/**
 * "BV and performance specifications" (issue 32.1): the laboratory's whole menu in one table, with
 * the range each value takes over the estimates' limits (issue 32.5). Server-rendered like the other
 * public lists; the level, probability, CVA and matrices are in the URL (so a link or a print says
 * what it was computed at), the name filter and the sort are the reader's own.
 */
export function ApplicationsPage() {
  const [search, setSearch] = useSearchParams();
  const params = paramsFromSearch(search);
  const { data, error, isPending, isPlaceholderData } = useApplications(params);
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState('name');
  const [cvaDraft, setCvaDraft] = useState(params.cva === null ? '' : String(params.cva));
  const [cvaError, setCvaError] = useState<string | null>(null);
  const [choosing, setChoosing] = useState(false);
  const set = (next: Partial<ApplicationsParams>) =>
    setSearch(searchOf({ ...params, ...next }), { replace: true, preventScrollReset: true });

  const applyCva = (e: FormEvent) => {
    e.preventDefault();
    const text = cvaDraft.trim().replace(',', '.');
    if (text === '') {
      setCvaError(null);
      set({ cva: null });
      return;
    }
    const cva = Number(text);
    if (!Number.isFinite(cva) || cva < 0 || cva > 100) {
      setCvaError('Enter a CVA between 0 and 100 %, or leave it empty for the desirable CVA');
      return;
    }
    setCvaError(null);
    set({ cva });
  };

  const fileUrl = (file: 'bv_applications.csv' | 'bv_applications.xlsx') =>
    urlFor(v1ApplicationsFile, { params: { file }, query: applicationsQueryString(params) });
  const rows = data?.data ?? [];
  const shown = filter ? rows.filter((r) => matchesName(r, filter)).length : rows.length;
  const levelName = LEVELS.find(([l]) => l === params.level)?.[1] ?? 'Desirable';
  const cvaText =
    params.cva === null ? 'the desirable CVA of each row (0.5 × CVI)' : `your CVA of ${params.cva} %`;

  return (
    <>
      <h1 className="h3">BV and performance specifications</h1>
      <p>
        Every measurand&apos;s within-subject (CVI) and between-subject (CVG) biological variation, the
        analytical performance specifications (APS) that follow from them, the reference change value (RCV)
        and the index of individuality (II). Under each value, its range when the estimates&apos; lower and
        upper limits (a 95 % CI or the range of the studies) are used instead.
      </p>
      <p className="d-print-none">
        Judging your own laboratory&apos;s tests (your CVA and bias)?{' '}
        <Link to="/applications/menu">Upload your test menu</Link>.
      </p>
      <p className="small" data-testid="applications-summary">
        {levelName} APS. RCV for a {percent(params.probability)} probability that a change in either direction
        is real, with {cvaText}.{' '}
        {params.matrices === 'all' ? 'Every matrix with an estimate.' : 'Displayed estimates only.'}
        {data?.population ? (
          <strong className="d-block" data-testid="applications-population">
            {data.population.sentence}.
          </strong>
        ) : null}
      </p>
      <Form className="d-print-none row g-2 align-items-end mb-2" onSubmit={applyCva}>
        <Form.Group className="col-12 col-sm-6 col-lg-3" controlId="applications-filter">
          <Form.Label>Filter by name</Form.Label>
          <Form.Control
            type="search"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            placeholder="e.g. creatinine"
          />
        </Form.Group>
        <Form.Group className="col-6 col-sm-3 col-lg-2" controlId="applications-level">
          <Form.Label>APS level</Form.Label>
          <Form.Select
            value={params.level}
            onChange={(e) => set({ level: e.target.value as ApplicationsParams['level'] })}
          >
            {LEVELS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group className="col-6 col-sm-3 col-lg-2" controlId="applications-probability">
          <Form.Label>RCV probability</Form.Label>
          <Form.Select
            value={String(params.probability)}
            onChange={(e) => set({ probability: Number(e.target.value) })}
          >
            {[...new Set([...PROBABILITIES, params.probability])].map((p) => (
              <option key={p} value={String(p)}>
                {percent(p)}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group className="col-8 col-sm-6 col-lg-3" controlId="applications-cva">
          <Form.Label>Your CVA % for the RCV (optional)</Form.Label>
          <div className="d-flex gap-2">
            <Form.Control
              inputMode="decimal"
              value={cvaDraft}
              onChange={(e) => setCvaDraft(e.target.value)}
              placeholder="desirable: 0.5 × CVI"
              isInvalid={cvaError !== null}
              aria-describedby={cvaError ? 'applications-cva-error' : undefined}
            />
            <Button type="submit" variant="outline-primary">
              Apply
            </Button>
          </div>
          {cvaError ? (
            <Form.Text id="applications-cva-error" className="text-danger">
              {cvaError}
            </Form.Text>
          ) : null}
        </Form.Group>
        <Form.Group className="col-12 d-sm-none" controlId="applications-sort">
          <Form.Label>Sort by</Form.Label>
          <Form.Select value={sort} onChange={(e) => setSort(e.target.value)}>
            {PHONE_SORTS.map(([id, , label]) => (
              <option key={id} value={id}>
                {label}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group className="col-4 col-sm-6 col-lg-2" controlId="applications-matrices">
          <Form.Check
            type="checkbox"
            label="Every matrix"
            checked={params.matrices === 'all'}
            onChange={(e) => set({ matrices: e.target.checked ? 'all' : 'displayed' })}
          />
        </Form.Group>
      </Form>
      <div className="d-print-none mb-2">
        {choosing || Object.keys(params.population).length > 0 ? (
          <Suspense fallback={<Loading />}>
            <PopulationChooser
              idPrefix="applications"
              value={params.population}
              onChange={(population) => set({ population })}
            />
          </Suspense>
        ) : (
          <Button variant="outline-secondary" size="sm" onClick={() => setChoosing(true)}>
            Choose a population…
          </Button>
        )}
      </div>
      <nav aria-label="Download or print this table" className="small d-print-none mb-2">
        <span className="me-2">This table:</span>
        <a
          href={fileUrl('bv_applications.xlsx')}
          download
          className="me-3 text-nowrap"
          data-testid="applications-xlsx"
        >
          Excel (.xlsx)
        </a>
        <a
          href={fileUrl('bv_applications.csv')}
          download
          className="me-3 text-nowrap"
          data-testid="applications-csv"
        >
          CSV (.csv)
        </a>
        <Button variant="link" size="sm" className="p-0 align-baseline" onClick={() => window.print()}>
          Print
        </Button>
      </nav>
      {error ? (
        <ErrorText>An error occurred while fetching the table: {error.message}</ErrorText>
      ) : isPending ? (
        <Loading />
      ) : rows.length === 0 ? (
        <p>No meta calculations available</p>
      ) : (
        <div aria-busy={isPlaceholderData}>
          <ApplicationsTable
            rows={rows}
            level={params.level}
            filter={filter}
            sort={sort}
            caption={`${shown} of ${rows.length} rows. Percentages; II without unit. Under each value: the lowest and highest it takes with the estimates' limits, (CI) 95 % confidence limits or (range) the range of the studies. "—": cannot be computed, with why.`}
          />
          <section className="small text-body-secondary mt-3" aria-labelledby="applications-sources">
            <h2 className="h6" id="applications-sources">
              How each value is computed
            </h2>
            <ul>
              <li>APS: {data.sources.aps}</li>
              <li>RCV: {data.sources.rcv}</li>
              <li>II: {data.sources.ii}</li>
              <li>Ranges: {data.sources.ranges}</li>
            </ul>
          </section>
        </div>
      )}
    </>
  );
}
