import { useState } from 'react';
import Table from 'react-bootstrap/Table';
import { Empty, ErrorText, Loading } from '../../components/state-views';
import { RequireSignIn } from '../../components/require-sign-in';
import { useInputTables } from '../../features/meta-tools/api/get-input-tables';
import { MeasurandSelect } from '../../features/analytes/components/measurand-select';

/** "Input Tables" (spec section 2): the comma-separated rows each calculation receives. */
export function InputTablesPage() {
  const [analyteId, setAnalyteId] = useState<number | null>(null);
  return (
    <RequireSignIn>
      <h1 className="h3">Input Tables</h1>
      <p>
        The rows the statistics service receives for each matrix (and matrix consolidation) of a measurand:
        one per dataset, Include TRUE only when the dataset passes every rule.
      </p>
      <MeasurandSelect id="input-tables-measurand" value={analyteId} onChange={setAnalyteId} />
      {analyteId !== null ? <Tables analyteId={analyteId} /> : null}
    </RequireSignIn>
  );
}

/** Comma-separated text as a table: a row per line, the first line the header. */
export function CsvTable({ csv, caption }: { csv: string; caption: string }) {
  const [header = [], ...body] = csv
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => line.split(','));
  return (
    <Table size="sm" bordered responsive className="w-auto">
      <caption className="caption-top">{caption}</caption>
      <thead>
        <tr>
          {header.map((h, i) => (
            <th key={i} scope="col">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {body.map((cells, i) => (
          <tr key={i}>
            {cells.map((c, j) => (
              <td key={j}>{c}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function Tables({ analyteId }: { analyteId: number }) {
  const q = useInputTables(analyteId);
  if (q.isPending) return <Loading />;
  if (q.error) return <ErrorText>Error: {q.error.message}</ErrorText>;
  if (q.data.tables.length === 0) return <Empty />;
  return (
    <>
      {(
        [
          ['Within Calculation', 'within'],
          ['Between Calculation', 'between'],
        ] as const
      ).map(([title, key]) => (
        <section key={key} className="mb-4" aria-labelledby={`input-${key}`}>
          <h2 className="h4" id={`input-${key}`}>
            {title}
          </h2>
          {q.data.tables.map((t) => (
            <CsvTable
              key={`${t.label}-${key}`}
              csv={t[key]}
              caption={`${q.data.analyte.display_name} · ${t.label}`}
            />
          ))}
        </section>
      ))}
    </>
  );
}
