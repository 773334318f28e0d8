import { lazy, Suspense } from 'react';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { Link } from 'react-router';
import { WhenNearViewport } from '../../components/near-viewport';
import { ErrorText, Loading } from '../../components/state-views';
import { useCounters } from '../../features/meta-results/api/get-counters';
import { AnalyteSearch } from '../../features/search/components/analyte-search';
import { DataUseNotice } from '../../features/content/components/data-use-notice';
import { DatabaseDownloads } from '../../components/database-downloads';

// Below the fold and with its form library: loaded when the reader scrolls near it, not with the page.
const SubscribeForm = lazy(async () => ({
  default: (await import('../../features/mailing-list/components/subscribe-form')).SubscribeForm,
}));

function Counters() {
  const { data, error, isPending } = useCounters();
  if (isPending) return <Loading />;
  if (error) return <ErrorText>Error: {error.message || 'Unknown error'}</ErrorText>;
  const m = data.meta_data;
  return (
    <dl className="row text-center my-4 counters" aria-label="Counters">
      <div className="col-4">
        <dt className="fw-normal text-muted">Meta-analyses</dt>
        <dd className="display-6 fw-semibold mb-0" data-testid="total-metas">
          {m.total_metas}
        </dd>
      </div>
      <div className="col-4">
        <dt className="fw-normal text-muted">BV records</dt>
        <dd className="display-6 fw-semibold mb-0" data-testid="total-datasets">
          {m.total_bv_specifications}
        </dd>
      </div>
      <div className="col-4">
        <dt className="fw-normal text-muted">Papers</dt>
        <dd className="display-6 fw-semibold mb-0" data-testid="total-references">
          {m.total_references}
        </dd>
      </div>
    </dl>
  );
}

const CARDS = [
  {
    title: 'Meta-analysis list',
    text: 'Global estimates of within-subject (CVI) and between-subject (CVG) variation per measurand and matrix.',
    to: '/meta_calculations',
  },
  {
    title: 'All BV estimates',
    text: 'Every appraised dataset with its BIVAC grade, estimates and confidence intervals.',
    to: '/bv_specifications',
  },
  {
    title: 'Measurands',
    text: 'Browse the measurands and the datasets recorded for each.',
    to: '/bv_specifications/measurand',
  },
];

/** Where a laboratory starts (issue 42.9): the new tools, one line each, under the three cards. */
const TOOLS = [
  {
    to: '/estimate',
    title: 'The estimator',
    text: 'BV from your own raw results, every step reported',
  },
  {
    to: '/applications',
    title: 'The specifications table',
    text: 'APS, RCV and II of every measurand, as a table and files',
  },
  { to: '/applications/menu', title: 'The test menu', text: "your laboratory's tests judged against BV" },
  { to: '/releases', title: 'The releases', text: 'dated, citable copies of the database' },
];

export function HomePage() {
  return (
    <>
      <div className="text-center py-4">
        <img src="/logo.svg" alt="" width="72" height="72" className="mb-3" />
        <h1 className="h2">EFLM Biological Variation Database</h1>
        <p className="lead text-muted">
          Within- and between-subject biological variation of laboratory measurands, appraised with the BIVAC
          checklist.
        </p>
        <div className="mx-auto home-search">
          <AnalyteSearch size="lg" />
        </div>
      </div>
      <Counters />
      <Row xs={1} md={3} className="g-3">
        {CARDS.map((c) => (
          <Col key={c.to}>
            <Card className="h-100">
              <Card.Body className="d-flex flex-column">
                <Card.Title as="h2" className="h5">
                  {c.title}
                </Card.Title>
                <Card.Text className="flex-grow-1">{c.text}</Card.Text>
                <Link to={c.to} className="btn btn-primary" aria-label={`Open: ${c.title}`}>
                  Open
                </Link>
              </Card.Body>
            </Card>
          </Col>
        ))}
      </Row>
      <section aria-labelledby="home-tools" className="mt-4" data-testid="home-tools">
        <h2 id="home-tools" className="h5">
          Tools for your laboratory
        </h2>
        <ul className="row list-unstyled g-2 mb-0">
          {TOOLS.map((t) => (
            <li key={t.to} className="col-12 col-md-6">
              <Link to={t.to}>{t.title}</Link>: {t.text}
            </li>
          ))}
        </ul>
      </section>
      <DatabaseDownloads className="mt-4 text-center" />
      <DataUseNotice />
      <WhenNearViewport placeholder={<div className="subscribe-placeholder" />}>
        <Suspense fallback={<div className="subscribe-placeholder" />}>
          <SubscribeForm />
        </Suspense>
      </WhenNearViewport>
    </>
  );
}
