import type { MetaRecord } from '@bvdb/contract';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { Empty, ErrorText, Loading } from '../../../components/state-views';
import { useSession } from '../../../lib/session';
import { useMetasByType } from '../api/get-metas-by-type';
import { useCheckedMeta } from '../api/simulate-metacalculation';
import { HeaderRow } from '../../../components/header-row';

const r4 = (v: number | null | undefined) =>
  v === null || v === undefined ? 'NA' : String(Math.round(v * 1e4) / 1e4);

/** One stored result beside its recalculation, with the names its matrix and type go by. */
export function CheckedResult({ meta, analyte }: { meta: MetaRecord; analyte: string }) {
  const session = useSession();
  const rows = meta.datasets.map((d) => ({
    ID: d.study_id,
    Include: true,
    Score: d.grade as 'A' | 'B' | 'C' | 'D',
    CV: d.cv,
    CI_lower: d.ci_lower,
    CI_upper: d.ci_upper,
  }));
  const calc = useCheckedMeta(meta, rows, session.csrf_token);
  const c = calc.data;
  const unable = calc.isError ? 'Unable to Calculate' : calc.isPending ? 'Loading...' : null;
  const usedIds = c
    ? meta.datasets
        .filter((d) => c.weights.some((w) => w.ID === d.study_id))
        .map((d) => d.bv_specification_id)
    : [];
  const matches =
    c !== undefined &&
    c['W.Median'] !== null &&
    meta.median !== null &&
    Math.abs(c['W.Median'] - meta.median) < 5e-5;
  const type = meta.var_type.slice(1);
  return (
    <Card className="mb-3" data-testid={`check-${meta.id}`}>
      <Card.Header className="d-flex justify-content-between align-items-center">
        <h2 className="h6 mb-0">{meta.name}</h2>
        {c ? matches ? <Badge bg="success">Matches</Badge> : <Badge bg="danger">Differs</Badge> : null}
      </Card.Header>
      <Card.Body>
        {calc.isError ? <ErrorText>Error: unable to calculate</ErrorText> : null}
        <Table size="sm" bordered className="w-auto">
          <caption className="caption-top">Results</caption>
          <thead>
            <HeaderRow names={['Factor', 'Calculated', 'Original']} />
          </thead>
          <tbody>
            <tr>
              <th scope="row">Type</th>
              <td>{meta.var_type}</td>
              <td>{meta.var_type}</td>
            </tr>
            <tr>
              <th scope="row">Analyte</th>
              <td>{analyte}</td>
              <td>{analyte}</td>
            </tr>
            <tr>
              <th scope="row">Matrix</th>
              <td>{meta.matrix}</td>
              <td>{meta.matrix}</td>
            </tr>
            <tr data-testid="check-results">
              <th scope="row">Results</th>
              <td>{unable ?? r4(c!['W.Median'])}</td>
              <td>{r4(meta.median)}</td>
            </tr>
            <tr>
              <th scope="row">Specs</th>
              <td>{unable ?? usedIds.join(',')}</td>
              <td>{meta.datasets.map((d) => d.bv_specification_id).join(',')}</td>
            </tr>
          </tbody>
        </Table>
        {meta.matrix_id !== null ? (
          <MatchingNames analyte={meta.analyte_id} matrix={meta.matrix_id} type={type} />
        ) : (
          <p className="small text-muted mb-0">A matrix consolidation: pooled over several matrices.</p>
        )}
      </Card.Body>
    </Card>
  );
}

function MatchingNames({ analyte, matrix, type }: { analyte: number; matrix: number; type: string }) {
  const q = useMetasByType(analyte, matrix, type);
  if (q.isPending) return <Loading />;
  if (q.error) return <ErrorText>Error: {q.error.message || 'Unknown error'}</ErrorText>;
  if (q.data.metacalculations.length === 0) return <Empty>No data found</Empty>;
  return (
    <ul className="mb-0">
      <li>
        Meta calculations for this measurand, matrix and type
        <ul>
          {q.data.metacalculations.map((m) => (
            <li key={m.id}>{m.name}</li>
          ))}
        </ul>
      </li>
    </ul>
  );
}
