import type { Matrix } from '@bvdb/contract';
import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { ErrorText, Loading } from '../../components/state-views';
import { useMatrices } from '../../features/lookups/api/get-matrices';

const columns: DataTableColumn<Matrix>[] = [
  { id: 'matrix_expansion', header: 'Matrix Expansion', accessorKey: 'matrix_expansion', sortingFn: 'text' },
  {
    id: 'matrix_explanation',
    header: 'Matrix Explanation',
    accessorFn: (m) => m.matrix_explanation ?? '',
    enableSorting: false,
  },
];

export function MatricesPage() {
  const { data, error, isPending } = useMatrices();
  const [filter, setFilter] = useState('');
  return (
    <>
      <h1 className="h3">List of Matricies</h1>
      <p>
        These are the sample types (matrices) datasets are recorded for. To add a new matrix, please contact
        the administrator.
      </p>
      <Form.Group className="mb-3" controlId="matrix-filter" style={{ maxWidth: 360 }}>
        <Form.Label>Filter Matrix Expansion</Form.Label>
        <Form.Control value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="e.g. urine" />
      </Form.Group>
      {isPending ? (
        <Loading />
      ) : error ? (
        <ErrorText>Error: {error.message}</ErrorText>
      ) : (
        <DataTable
          caption="Matrices"
          data={data.matrices}
          columns={columns}
          initialSorting={[{ id: 'matrix_expansion', desc: false }]}
          columnFilters={filter ? [{ id: 'matrix_expansion', value: filter }] : []}
        />
      )}
    </>
  );
}
