import { exportAnalyteUrl } from '@bvdb/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { ErrorText, Loading } from '../../components/state-views';
import { analytesWithCountsQuery } from '../../features/analytes/api/get-analytes';
import { RequireSignIn } from '../../components/require-sign-in';
import { manageByAnalyteQuery } from '../../features/manage/api/get-manage';
import { ManageDatasetsTable } from '../../features/manage/components/manage-datasets-table';

/** "Filter and Manage Data by Dataset" (spec section 2): choose a measurand, see all its datasets. */
export function AnalyteFilterPage() {
  return (
    <RequireSignIn>
      <h1 className="h3">Filter and Manage Data by Dataset</h1>
      <AnalyteFilter />
    </RequireSignIn>
  );
}

function AnalyteFilter() {
  const analytes = useQuery(analytesWithCountsQuery);
  const [chosen, setChosen] = useState('');
  const [managed, setManaged] = useState<number | null>(null);
  if (analytes.isPending) return <Loading />;
  if (analytes.error) {
    console.error(analytes.error);
    return <ErrorText>Error: {analytes.error.message}</ErrorText>;
  }
  return (
    <>
      <Form
        className="d-flex flex-wrap align-items-end gap-2 mb-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (chosen) setManaged(Number(chosen));
        }}
      >
        <Form.Group controlId="manage-analyte" style={{ minWidth: 280 }}>
          <Form.Label>Measurand</Form.Label>
          <Form.Select value={chosen} onChange={(e) => setChosen(e.target.value)}>
            <option value="">Choose a measurand</option>
            {analytes.data.analytes.map((a) => (
              <option key={a.id} value={a.id}>
                {a.display_name || '-'}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Button type="submit" disabled={!chosen}>
          Manage Reference Dataset
        </Button>
      </Form>
      {managed !== null ? <AnalyteDatasets id={managed} /> : null}
    </>
  );
}

function AnalyteDatasets({ id }: { id: number }) {
  const q = useQuery(manageByAnalyteQuery(id));
  if (q.isPending) return <Loading />;
  if (q.error) {
    console.error(q.error);
    return <ErrorText>Failed to load specifications</ErrorText>;
  }
  return (
    <ManageDatasetsTable
      datasets={q.data.dataset}
      exportUrl={q.data.export_url || exportAnalyteUrl(id)}
      caption="Datasets of the chosen measurand"
    />
  );
}
