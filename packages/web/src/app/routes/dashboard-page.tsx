import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { Link } from 'react-router';
import { ErrorText, Loading } from '../../components/state-views';
import { useCounters } from '../../features/meta-results/api/get-counters';
import { RequireSignIn } from '../../components/require-sign-in';
import { useStatsService } from '../../features/meta-tools/api/get-stats-service';
import { StatusCard } from '../../features/meta-tools/components/status-card';

const TOOLS = [
  { to: '/meta_jobs', title: 'Meta job progress', text: 'Recompute every meta-analysis and watch it run.' },
  { to: '/jobs', title: 'Job Tracker', text: 'Every background job and its progress.' },
  {
    to: '/meta_simulator',
    title: 'Meta Calculation Simulator',
    text: 'Try a meta-analysis on chosen datasets.',
  },
  { to: '/meta_checker', title: 'Meta-calculation checker', text: 'Recalculate stored results and compare.' },
  { to: '/input_tables', title: 'Input Tables', text: 'The rows each calculation receives.' },
];

/** The curators' dashboard: counters (spec section 2, "Counters"), the statistics service status, the tools. */
export function DashboardPage() {
  return (
    <RequireSignIn>
      <h1 className="h3">Dashboard</h1>
      <Dashboard />
    </RequireSignIn>
  );
}

function WidgetCard({ title, count, to }: { title: string; count: number; to: string }) {
  return (
    <Card className="h-100">
      <Card.Body>
        <h2 className="h6">{title}</h2>
        <p>There are {count} records</p>
        <Link to={to} className="btn btn-outline-primary btn-sm">
          Click here<span className="visually-hidden">: {title}</span>
        </Link>
      </Card.Body>
    </Card>
  );
}

function Dashboard() {
  const counters = useCounters();
  const stats = useStatsService();
  return (
    <>
      <Row xs={1} md={3} className="g-3 mb-4">
        {counters.isPending ? (
          <Col>
            <Loading />
          </Col>
        ) : counters.error ? (
          <Col>
            <ErrorText>Error: {counters.error.message || 'Unknown error'}</ErrorText>
          </Col>
        ) : (
          <>
            <Col>
              <WidgetCard
                title="Total BV Specifications"
                count={counters.data.meta_data.total_bv_specifications}
                to="/bv_specifications"
              />
            </Col>
            <Col>
              <WidgetCard
                title="Total Meta Analyses"
                count={counters.data.meta_data.total_metas}
                to="/meta_calculations"
              />
            </Col>
          </>
        )}
        <Col>
          {stats.isPending ? (
            <Loading />
          ) : stats.error ? (
            <ErrorText>Error: {stats.error.message}</ErrorText>
          ) : (
            <StatusCard url={stats.data.status_url} />
          )}
        </Col>
      </Row>
      <h2 className="h5">Meta-analysis tools</h2>
      <ul>
        {TOOLS.map((t) => (
          <li key={t.to}>
            <Link to={t.to}>{t.title}</Link>: {t.text}
          </li>
        ))}
      </ul>
    </>
  );
}
