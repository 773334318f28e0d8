import type { AnalyteWithCount } from '@bvdb/contract';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Link, useSearchParams } from 'react-router';
import { MetaSummary } from '../../components/meta-summary';
import { ErrorText, Loading } from '../../components/state-views';
import { PlainAccordion, PlainAccordionItem } from '../../components/plain-accordion';

import {
  LazyApsModal as ApsModal,
  LazyRcvModal as RcvModal,
} from '../../features/calculators/components/lazy-calculators';
import { useMetaByAnalyte } from '../../features/meta-results/api/get-metas-of-analyte';
import { useSearchAnalytes } from '../../features/search/api/search-analytes';
import { AnalyteSearch } from '../../features/search/components/analyte-search';
import { headlineMetasOf } from '../../lib/headline-metas';
import { paths } from '../../lib/paths';

/** An open item's body: the measurand's meta-analysis summary and its calculators, as on its page. */
function ResultBody({ analyte }: { analyte: AnalyteWithCount }) {
  const metas = useMetaByAnalyte(analyte.id);
  const [aps, setAps] = useState(false);
  const [rcv, setRcv] = useState(false);
  const metaList = metas.data?.metas ?? [];
  return (
    <>
      <dl className="row mb-2">
        <dt className="col-sm-3">Full name</dt>
        <dd className="col-sm-9">{analyte.full_name}</dd>
        <dt className="col-sm-3">Alternative names</dt>
        <dd className="col-sm-9">
          {analyte.alternate_names.length ? analyte.alternate_names.join(', ') : 'No Alternative'}
        </dd>
        <dt className="col-sm-3">Datasets</dt>
        <dd className="col-sm-9">{analyte.bv_specifications_count}</dd>
      </dl>
      {metas.isPending ? (
        <Loading />
      ) : metas.error ? (
        <ErrorText>Error: {metas.error.message}</ErrorText>
      ) : (
        <>
          <div className="d-flex flex-wrap gap-2 mb-3">
            <Button size="sm" variant="outline-primary" onClick={() => setAps(true)}>
              Analytical Performance Specification
            </Button>
            <Button size="sm" variant="outline-primary" onClick={() => setRcv(true)}>
              Reference Change Value
            </Button>
            <Link to={paths.analyte(analyte.id)} className="btn btn-primary btn-sm">
              Open {analyte.display_name}
            </Link>
          </div>
          <MetaSummary metas={metaList} />
          <ApsModal
            show={aps}
            onHide={() => setAps(false)}
            metas={metaList}
            measurand={analyte.display_name}
          />
          <RcvModal
            show={rcv}
            onHide={() => setRcv(false)}
            cvi={headlineMetasOf(metaList).within?.median ?? null}
          />
        </>
      )}
    </>
  );
}

/**
 * One accordion item per measurand (spec section 2). The only result opens by itself and stays open
 * when its header is clicked: whoever clicks the measurand's name gets its tools (decision 012). An
 * item's meta-analysis is fetched when the item opens, not for every result at once.
 */
function Results({ analytes }: { analytes: AnalyteWithCount[] }) {
  const only = analytes.length === 1 ? String(analytes[0]!.id) : null;
  const [open, setOpen] = useState<string | null>(null);
  const active = only ?? open;
  return (
    <PlainAccordion>
      {analytes.map((a) => {
        const key = String(a.id);
        return (
          <PlainAccordionItem
            key={a.id}
            header={a.display_name}
            open={active === key}
            // The only result stays open (its `only` key wins over what was clicked).
            onToggle={() => setOpen((o) => (o === key ? null : key))}
          >
            {active === key ? <ResultBody analyte={a} /> : null}
          </PlainAccordionItem>
        );
      })}
    </PlainAccordion>
  );
}

/** Measurand search results (GET /api/search/by_analyte?format=html lands here). */
export function SearchResultsPage() {
  const [params] = useSearchParams();
  const query = params.get('query') ?? '';
  const { data, error, isPending } = useSearchAnalytes(query);
  return (
    <>
      <h1 className="h3">{query ? `Search results for "${query}"` : 'Search results'}</h1>
      <div className="mb-3" style={{ maxWidth: 520 }}>
        <AnalyteSearch key={query} defaultText={query} inPage />
      </div>
      {isPending ? (
        <Loading />
      ) : error ? (
        <ErrorText>Error: {error.message}</ErrorText>
      ) : data.analytes.length === 0 ? (
        <p className="my-3">
          No Results found
          {query ? ` for "${query}"` : ''}
        </p>
      ) : (
        <>
          <p className="text-muted">
            {data.analytes.length === 1 ? '1 measurand' : `${data.analytes.length} measurands`} found
            {query ? ` for "${query}"` : ''}
          </p>
          <Results key={query} analytes={data.analytes} />
        </>
      )}
    </>
  );
}
