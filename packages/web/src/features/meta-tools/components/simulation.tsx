import type { MetaRecord, ValidationRow } from '@bvdb/contract';
import { formatFixed, limitsKindOf } from '@bvdb/domain';
import Table from 'react-bootstrap/Table';
import { ErrorText, Loading } from '../../../components/state-views';
import { ForestPlotSection } from '../../../components/forest-plot/forest-plot-section';
import { MetaSummary } from '../../../components/meta-summary';
import { useSession } from '../../../lib/session';
import { useSimulateMeta } from '../api/simulate-metacalculation';
import { useValidateForMeta } from '../api/validate-for-meta';
import { CalculationSteps, type Calculation } from './calculation-steps';
import { ValidationTable } from './validation-table';
import { HeaderRow } from '../../../components/header-row';

/** The ticked datasets validated, then the CVI and CVG calculated from them and previewed as the site would show them. */
export function Simulation({ ids }: { ids: number[] }) {
  const session = useSession();
  const validation = useValidateForMeta(ids, session.csrf_token);
  if (validation.isPending) return <Loading />;
  if (validation.error) return <ErrorText>Error: contact developer</ErrorText>;
  const rows = validation.data.output;
  return (
    <>
      <h2 className="h4">Validation</h2>
      <ValidationTable rows={rows} />
      {validation.data.not_found.length > 0 ? (
        <p className="text-danger">Not found: {validation.data.not_found.join(', ')}</p>
      ) : null}
      <SelectedDatasets rows={rows} />
      <Calculations rows={rows} />
    </>
  );
}

function SelectedDatasets({ rows }: { rows: ValidationRow[] }) {
  const est = (e: ValidationRow[0]['cvi']) =>
    e.cv === null
      ? 'NA'
      : `${formatFixed(e.cv, 2)}${e.ci_lower !== null && e.ci_upper !== null ? ` (${formatFixed(e.ci_lower, 2)}–${formatFixed(e.ci_upper, 2)}, ${e.ci_source})` : ''}`;
  return (
    <>
      <h2 className="h4">Selected BVIACs</h2>
      <Table bordered responsive size="sm">
        <caption className="visually-hidden">Selected datasets</caption>
        <thead>
          <HeaderRow
            names={['Dataset', 'Unique Identifier', 'Reference', 'Matrix', 'Grade', 'CVI (CI)', 'CVG (CI)']}
          />
        </thead>
        <tbody>
          {rows.map(([s]) => (
            <tr key={s.id}>
              <td>{s.id}</td>
              <td>{s.unique_identifier}</td>
              <td>
                {s.reference.id}: {s.reference.title}
              </td>
              <td>{s.matrix?.matrix_expansion ?? 'No Matrix'}</td>
              <td>{s.grade}</td>
              <td>{est(s.cvi)}</td>
              <td>{est(s.cvg)}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </>
  );
}

function useCalculation(rows: ValidationRow[], type: 'cvi' | 'cvg') {
  const session = useSession();
  const input = rows.map((r) => r[0][type].input_row);
  const q = useSimulateMeta(type, input, session.csrf_token);
  return { input, q };
}

function Calculations({ rows }: { rows: ValidationRow[] }) {
  const cvi = useCalculation(rows, 'cvi');
  const cvg = useCalculation(rows, 'cvg');
  const bothReady = cvi.q.data?.['W.Median'] != null && cvg.q.data?.['W.Median'] != null;
  return (
    <>
      <h2 className="h4 mt-4">Steps in the Calculation</h2>
      {cvi.q.isPending || cvg.q.isPending ? <Loading /> : null}
      <CalculationSteps
        title="CVI Calculation"
        type="cvi"
        rows={cvi.input}
        result={cvi.q.data}
        failed={cvi.q.isError}
      />
      <CalculationSteps
        title="CVG Calculation"
        type="cvg"
        rows={cvg.input}
        result={cvg.q.data}
        failed={cvg.q.isError}
      />
      {bothReady ? <WebsitePreview rows={rows} cvi={cvi.q.data!} cvg={cvg.q.data!} /> : null}
    </>
  );
}

/** The simulated results as the analyte page would show them. */
function WebsitePreview({ rows, cvi, cvg }: { rows: ValidationRow[]; cvi: Calculation; cvg: Calculation }) {
  const matrices = [...new Set(rows.map(([s]) => s.matrix?.matrix_expansion ?? 'No Matrix'))];
  const matrix = matrices.length === 1 ? matrices[0]! : 'Simulated (mixed matrices)';
  const now = new Date().toISOString();
  const record = (type: ':cvi' | ':cvg', r: Calculation, id: number): MetaRecord => {
    const key = type === ':cvi' ? 'cvi' : 'cvg';
    const weightOf = new Map(r.weights.map((w) => [w.ID, w.weight]));
    const used = rows.filter(([s]) => s[key].input_row.Include && weightOf.has(s[key].input_row.ID));
    return {
      id,
      name: `Simulation - ${matrix} - ${key.toUpperCase()}`,
      analyte_id: rows[0]![0].analyte.id,
      var_type: type,
      median: r['W.Median'],
      lower: r.Range_lower,
      upper: r.Range_upper,
      number_used: r.N,
      comments: 'Simulation',
      display: true,
      matrix,
      matrix_id: null,
      matrix_consolidation_id: null,
      method: r.method,
      limits: limitsKindOf(r.method),
      seed: r.seed,
      references_array: `[${[...weightOf.keys()].join(', ')}]`,
      datasets: used.map(([s]) => ({
        bv_specification_id: s.id,
        reference_id: s.reference.id,
        reference_title: s.reference.title,
        study_id: s[key].input_row.ID,
        grade: s[key].input_row.Score,
        cv: s[key].cv!,
        ci_lower: s[key].ci_lower!,
        ci_upper: s[key].ci_upper!,
        weight: weightOf.get(s[key].input_row.ID)!,
      })),
      computed_at: now,
      updated_at: now,
    };
  };
  const metas = [record(':cvi', cvi, -1), record(':cvg', cvg, -2)];
  return (
    <section className="mt-4" aria-labelledby="website-preview">
      <h2 className="h4" id="website-preview">
        How it Would Look on the Website
      </h2>
      <p className="small text-muted">
        CVI {formatFixed(cvi['W.Median']!, 1)}%, CVG {formatFixed(cvg['W.Median']!, 1)}% — a preview, not
        stored.
      </p>
      <MetaSummary metas={metas} />
      {/* The simulated studies and their pooled result, as the measurand page plots them. */}
      <ForestPlotSection metas={metas} headingLevel={3} />
    </section>
  );
}
