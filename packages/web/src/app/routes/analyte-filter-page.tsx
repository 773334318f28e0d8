import { exportAnalyteUrl } from '@bvdb/contract';
import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import { ErrorText, Loading } from '../../components/state-views';
import { useAnalytesWithCounts } from '../../features/analytes/api/get-analytes';
import { RequireSignIn } from '../../components/require-sign-in';
import { useManageByAnalyte } from '../../features/datasets/api/get-manage';
import { ManagedDatasets, ManageFilterForm } from '../../features/datasets/components/manage-filter';

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
  const analytes = useAnalytesWithCounts();
  const [chosen, setChosen] = useState('');
  if (analytes.isPending) return <Loading />;
  if (analytes.error) {
    console.error(analytes.error);
    return <ErrorText>Error: {analytes.error.message}</ErrorText>;
  }
  return (
    <ManageFilterForm
      className="d-flex flex-wrap align-items-end gap-2 mb-3"
      chosen={chosen}
      datasets={(id) => <AnalyteDatasets id={id} />}
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
    </ManageFilterForm>
  );
}

function AnalyteDatasets({ id }: { id: number }) {
  const q = useManageByAnalyte(id);
  return (
    <ManagedDatasets
      query={q}
      exportUrl={(data) => data.export_url || exportAnalyteUrl(id)}
      caption="Datasets of the chosen measurand"
      errorText="Failed to load specifications"
    />
  );
}
