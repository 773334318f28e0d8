import type { Dataset } from '@bvdb/contract';
import { formatDateLong } from '@bvdb/domain';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { Link } from 'react-router';
import { DataTable } from '../../components/data-table';
import { ErrorText, Loading } from '../../components/state-views';
import { useSession } from '../../lib/session';
import { allDatasetsQuery } from '../../features/specifications/api/get-datasets';
import { GradeBadge } from '../../components/dataset-badges';
import { matchesSpecFilter } from '../../features/specifications/spec-filter';

const citation = (d: Dataset) =>
  `${d.reference_author} (${d.reference_year_of_publication ?? 'n.d.'}) ${d.reference_title}. ${d.reference_journal} ${d.reference_volume}:${d.reference_pages}`;

function indexColumns(signedIn: boolean): ColumnDef<Dataset, unknown>[] {
  return [
    { id: 'name', header: 'Measurand', accessorFn: (d) => d.analyte_display_name, sortingFn: 'text' },
    {
      id: 'score',
      header: 'Specification',
      accessorFn: (d) => d.total_score,
      cell: ({ row }) => (
        <span className="d-inline-flex gap-2 align-items-center">
          <GradeBadge grade={row.original.total_score} />
          <Link
            to={`/bv_specifications/${row.original.id}`}
            className="btn btn-outline-primary btn-sm"
            aria-label={`View dataset ${row.original.id}`}
          >
            View
          </Link>
        </span>
      ),
    },
    { id: 'reference', header: 'Reference', accessorFn: citation, enableSorting: false },
    {
      id: 'tools',
      header: 'Tools',
      enableSorting: false,
      cell: ({ row }) => (
        <span className="d-inline-flex gap-1 flex-wrap">
          <Link to={`/analytes/${row.original.analyte_id}`} className="btn btn-outline-secondary btn-sm">
            Measurand
          </Link>
          {signedIn ? (
            <>
              <Link
                to={`/bv_specifications/${row.original.id}/edit`}
                className="btn btn-outline-secondary btn-sm"
              >
                Edit
              </Link>
              <a
                href={`/bv_specifications/${row.original.id}/copy`}
                className="btn btn-outline-secondary btn-sm"
              >
                Copy
              </a>
            </>
          ) : null}
        </span>
      ),
    },
  ];
}

const specsTableColumns: ColumnDef<Dataset, unknown>[] = [
  { id: 'id', header: 'ID', accessorKey: 'id' },
  { id: 'measurand', header: 'Measurand', accessorFn: (d) => d.analyte_display_name, sortingFn: 'text' },
  { id: 'reference_id', header: 'Reference ID', accessorKey: 'reference_id' },
  { id: 'meta', header: 'Meta Analysis', accessorFn: (d) => (d.include_in_meta_analysis ? 'Yes' : 'No') },
  {
    id: 'updated',
    header: 'Date Updated',
    accessorFn: (d) => d.updated_at,
    cell: ({ row }) => formatDateLong(row.original.updated_at),
  },
  {
    id: 'edit',
    header: 'Edit',
    enableSorting: false,
    cell: ({ row }) => (
      <Link to={`/bv_specifications/${row.original.id}/edit`} className="btn btn-outline-secondary btn-sm">
        Edit
      </Link>
    ),
  },
];

/** All BV data: filtered, sorted and paged in the browser (spec section 2), default name descending. */
export function SpecificationsPage() {
  const { data, error, isPending } = useQuery(allDatasetsQuery);
  const session = useSession();
  const [filter, setFilter] = useState('');
  if (isPending) return <Loading />;
  if (error) return <ErrorText>Error: {error.message}</ErrorText>;
  return (
    <>
      <h1 className="h3">All BV Data</h1>
      <Tabs defaultActiveKey="index" className="mb-3" mountOnEnter unmountOnExit>
        <Tab eventKey="index" title="Datasets">
          <Form.Group className="mb-3" controlId="spec-filter" style={{ maxWidth: 360 }}>
            <Form.Label>Filter by measurand or id</Form.Label>
            <Form.Control value={filter} onChange={(e) => setFilter(e.target.value)} />
          </Form.Group>
          <DataTable
            caption={
              <>
                Total Number of BVIAC datasets found:{' '}
                <strong>{data.datasets.filter((d) => matchesSpecFilter(d, filter)).length}</strong>
              </>
            }
            data={data.datasets}
            columns={indexColumns(session.user !== null)}
            initialSorting={[{ id: 'name', desc: true }]}
            pageSize={10}
            globalFilter={filter}
            globalFilterFn={matchesSpecFilter}
          />
        </Tab>
        <Tab eventKey="table" title="Specifications table">
          <DataTable
            caption="Specifications"
            id="specs_table"
            data={data.datasets}
            columns={specsTableColumns}
            pageSize={10}
          />
        </Tab>
      </Tabs>
    </>
  );
}
