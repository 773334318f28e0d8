import type { IndirectMethodResult, IndirectResponse } from '@bvdb/contract';
import { formatFixed } from '@bvdb/domain';
import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { RatioHistogram } from './ratio-histogram';
import { methodName, reportCsv, strataLabel } from './report-csv';

const f1 = (v: number | null | undefined) => (v === null || v === undefined ? '—' : formatFixed(v, 1));
const f2 = (v: number | null | undefined) => (v === null || v === undefined ? '—' : formatFixed(v, 2));
const n = (v: number) => v.toLocaleString('en');

function download(r: IndirectResponse, fileName: string) {
  const url = URL.createObjectURL(new Blob([reportCsv(r)], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `${fileName.replace(/\.[^.]+$/, '')}-indirect-report.csv`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function MethodSection({ m, r }: { m: IndirectMethodResult; r: IndirectResponse }) {
  const p = Math.round(r.options.probability * 100);
  return (
    <section className="mb-4" aria-label={methodName(m.method)}>
      <h3 className="h6">{methodName(m.method)}</h3>
      <p className="small text-body-secondary mb-1">{m.source}</p>
      <div className="row g-3">
        <div className="col-12 col-lg-6">
          <Table size="sm" className="mb-2">
            <tbody>
              <tr>
                <th scope="row">Pairs used</th>
                <td>{n(m.pairs_used)}</td>
              </tr>
              {m.steps.map((s) => (
                <tr key={s.step}>
                  <th scope="row" className="fw-normal">
                    − {s.step}
                  </th>
                  <td>
                    {n(s.removed)} removed, {n(s.remaining)} left
                  </td>
                </tr>
              ))}
              <tr>
                <th scope="row">CV_total</th>
                <td>{f2(m.cv_total)} %</td>
              </tr>
              <tr>
                <th scope="row">CVI (95 % interval)</th>
                <td data-testid={`cvi-${m.method}`}>
                  {m.cvi === null
                    ? 'needs the CVA'
                    : `${f2(m.cvi)} % (${f2(m.cvi_interval?.low)}–${f2(m.cvi_interval?.high)})`}
                </td>
              </tr>
              <tr>
                <th scope="row">RCV, model ({p} %)</th>
                <td>
                  +{f1(m.rcv_model.up)} % / −{f1(m.rcv_model.down)} %
                </td>
              </tr>
              <tr>
                <th scope="row">RCV, formula with this CVI</th>
                <td>{m.rcv_formula ? `+${f1(m.rcv_formula.up)} % / −${f1(m.rcv_formula.down)} %` : '—'}</td>
              </tr>
            </tbody>
          </Table>
          {m.note ? <p className="small">{m.note}</p> : null}
        </div>
        <div className="col-12 col-lg-6">
          <RatioHistogram m={m} label={methodName(m.method)} />
        </div>
      </div>
    </section>
  );
}

/** What the server answered: counts and summaries only (decision 095). */
export function IndirectReport({
  r,
  fileName,
  saveForm,
}: {
  r: IndirectResponse;
  fileName: string;
  saveForm: ReactNode;
}) {
  const cols = Object.entries(r.input.columns).filter(([, h]) => h !== null);
  return (
    <div className="mt-4" aria-live="polite">
      <h2 className="h5">
        Result
        {r.measurand ? (
          <>
            : <Link to={paths.analyte(r.measurand.id)}>{r.measurand.name}</Link>
          </>
        ) : null}
      </h2>
      <p className="small">
        Read {n(r.input.rows)} rows ({r.input.format.toUpperCase()}
        {r.input.unit ? `, ${r.input.unit}` : ''}); columns: {cols.map(([c, h]) => `${c} “${h}”`).join(', ')}.{' '}
        {n(r.all.pairing.results)} results of {n(r.all.pairing.patients)} patients gave{' '}
        {n(r.all.pairing.pairs)} pairs {r.options.min_days}–{r.options.max_days} days apart
        {r.all.pairing.dropped_duplicate_times > 0
          ? `; ${n(r.all.pairing.dropped_duplicate_times)} results sharing a time with another of the same patient were dropped`
          : ''}
        .
      </p>
      {r.input.steps.length + r.all.pairing.steps.length > 0 ? (
        <ul className="small">
          {[...r.input.steps, ...r.all.pairing.steps]
            .filter((s) => s.removed > 0)
            .map((s) => (
              <li key={s.step}>
                {s.step}: {n(s.removed)} left out
              </li>
            ))}
        </ul>
      ) : null}
      {r.input.notes.map((note) => (
        <p key={note} className="small text-body-secondary">
          {note}
        </p>
      ))}
      <div className="d-flex flex-wrap gap-2 mb-3">
        <Button variant="outline-primary" size="sm" onClick={() => download(r, fileName)}>
          Download report (CSV)
        </Button>
        {saveForm}
      </div>
      <h2 className="h5">Beside bvdb&apos;s estimate</h2>
      {r.published ? (
        // One card per method on a phone (table-stack-phone): every number on screen, none sideways.
        <div>
          <Table size="sm" className="table-stack-phone" data-testid="comparison">
            <caption className="small">
              bvdb&apos;s CVI for {r.measurand?.name}, {r.published.matrix}: {f2(r.published.median)} % (
              {f2(r.published.lower)}–{f2(r.published.upper)}), RCV with the CVA given.
            </caption>
            <thead>
              <tr>
                <th scope="col">Method</th>
                <th scope="col">Local CVI</th>
                <th scope="col">bvdb CVI</th>
                <th scope="col">Local ÷ bvdb</th>
                <th scope="col">Inside bvdb&apos;s interval</th>
                <th scope="col">RCV, local CVI</th>
                <th scope="col">RCV, bvdb CVI</th>
              </tr>
            </thead>
            <tbody>
              {r.comparison.map((c) => (
                <tr key={c.method}>
                  <th scope="row">{methodName(c.method)}</th>
                  <td data-label="Local CVI" data-testid={`local-cvi-${c.method}`}>
                    {c.local_cvi === null ? '—' : `${f2(c.local_cvi)} %`}
                  </td>
                  <td data-label="bvdb CVI" data-testid="published-cvi">
                    {f2(r.published!.median)} %
                  </td>
                  <td data-label="Local ÷ bvdb">{f2(c.ratio)}</td>
                  <td data-label="Inside bvdb's interval">
                    {c.inside === null ? '—' : c.inside ? 'yes' : 'no'}
                  </td>
                  <td data-label="RCV, local CVI">
                    {c.rcv_local ? `+${f1(c.rcv_local.up)} / −${f1(c.rcv_local.down)} %` : '—'}
                  </td>
                  <td data-label="RCV, bvdb CVI">
                    {c.rcv_published ? `+${f1(c.rcv_published.up)} / −${f1(c.rcv_published.down)} %` : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      ) : (
        <p className="small">
          {r.measurand
            ? `bvdb has no CVI for ${r.measurand.name} in this matrix yet.`
            : 'Choose the measurand to see bvdb’s estimate beside the local one.'}
        </p>
      )}
      <h2 className="h5 mt-3">By method</h2>
      {r.all.methods.map((m) => (
        <MethodSection key={m.method} m={m} r={r} />
      ))}
      {r.strata.length > 0 ? (
        <>
          <h2 className="h5">Strata</h2>
          <div>
            <Table size="sm" className="table-stack-phone">
              <thead>
                <tr>
                  <th scope="col">Stratum</th>
                  <th scope="col">Patients</th>
                  <th scope="col">Pairs</th>
                  {r.all.methods.map((m) => (
                    <th key={m.method} scope="col">
                      {methodName(m.method)}: CVI (CV_total)
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {r.strata.map((s) => (
                  <tr key={JSON.stringify(s.key)}>
                    <th scope="row">{strataLabel(s.key)}</th>
                    <td data-label="Patients">{n(s.pairing.patients)}</td>
                    <td data-label="Pairs">{n(s.pairing.pairs)}</td>
                    {r.all.methods.map((m) => {
                      const sm = s.methods.find((x) => x.method === m.method);
                      return (
                        <td key={m.method} data-label={`${methodName(m.method)}: CVI (CV_total)`}>
                          {sm ? `${f2(sm.cvi)} (${f2(sm.cv_total)}) %` : (s.note ?? '—')}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </Table>
          </div>
        </>
      ) : null}
    </div>
  );
}
