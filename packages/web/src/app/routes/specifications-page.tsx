import type { Dataset } from '@bvdb/contract';
import { formatCitation, formatDateLong } from '@bvdb/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link, useNavigate, useSearchParams, type NavigateFunction } from 'react-router';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { Tabs } from '../../components/tabs';
import { ErrorText, Loading } from '../../components/state-views';
import { isStaff, useSession } from '../../lib/session';
import { useAllDatasets, useDatasetsPage } from '../../features/datasets/api/get-datasets';
import { GradeBadge } from '../../components/dataset-badges';
import { matchesSpecFilter } from '../../features/datasets/spec-filter';
import { pageFromParam, SPEC_PAGE_SIZE } from '../../features/datasets/spec-page';
import { DatabaseDownloads } from '../../components/database-downloads';
import { paths } from '../../lib/paths';

/** The dataset's reference as running text: the one Vancouver formatter of the domain. */
const citation = (d: Dataset) =>
  formatCitation({
    author: d.reference_author,
    title: d.reference_title,
    journal: d.reference_journal,
    year: d.reference_year_of_publication,
    volume: d.reference_volume,
    pages: d.reference_pages,
  });

function indexColumns(signedIn: boolean, navigate: NavigateFunction): DataTableColumn<Dataset>[] {
  return [
    {
      id: 'name',
      header: 'Measurand',
      accessorFn: (d) => d.analyte_display_name,
      sortingFn: 'text',
      cell: ({ row }) => (
        <Link to={paths.analyte(row.original.analyte_id)}>{row.original.analyte_display_name}</Link>
      ),
    },
    {
      id: 'score',
      header: 'Specification',
      accessorFn: (d) => d.total_score,
      cell: ({ row }) => (
        <span className="d-inline-flex gap-2 align-items-center">
          <GradeBadge grade={row.original.total_score} />
          <Button
            size="sm"
            variant="outline-primary"
            data-dataset-id={row.original.id}
            onClick={() => void navigate(paths.dataset(row.original.id))}
          >
            View
          </Button>
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
          <Link to={paths.analyte(row.original.analyte_id)} className="btn btn-outline-primary btn-sm">
            Measurand
          </Link>
          {signedIn ? (
            <>
              <Link to={paths.editDataset(row.original.id)} className="btn btn-outline-secondary btn-sm">
                Edit
              </Link>
              <a href={paths.copyDataset(row.original.id)} className="btn btn-outline-secondary btn-sm">
                Copy
              </a>
            </>
          ) : null}
        </span>
      ),
    },
  ];
}

const specsTableColumns = (signedIn: boolean): DataTableColumn<Dataset>[] => [
  { id: 'id', header: 'ID', accessorKey: 'id' },
  {
    id: 'measurand',
    header: 'Measurand',
    accessorFn: (d) => d.analyte_display_name,
    sortingFn: 'text',
    cell: ({ row }) => (
      <Link to={paths.analyte(row.original.analyte_id)}>{row.original.analyte_display_name}</Link>
    ),
  },
  { id: 'reference_id', header: 'Reference ID', accessorKey: 'reference_id' },
  { id: 'meta', header: 'Meta Analysis', accessorFn: (d) => (d.include_in_meta_analysis ? 'Yes' : 'No') },
  {
    id: 'updated',
    header: 'Date Updated',
    accessorFn: (d) => d.updated_at,
    cell: ({ row }) => formatDateLong(row.original.updated_at),
  },
  // Editing is for signed-in curators: an anonymous visitor is not offered a button that says no.
  ...(signedIn ? [editColumn] : []),
];

const editColumn: DataTableColumn<Dataset> = {
  id: 'edit',
  header: 'Edit',
  enableSorting: false,
  cell: ({ row }) => (
    <Link to={paths.editDataset(row.original.id)} className="btn btn-outline-secondary btn-sm">
      Edit
    </Link>
  ),
};

/**
 * All BV data: filtered, sorted and paged in the browser (spec section 2), default name descending.
 * The page is in the URL (`?page=N`, decision 013): read on arrival, written when the user pages;
 * past the last page the table is empty. The server renders page N from a one-page answer; the
 * whole list, too large to embed, comes in the browser and takes over on the same page.
 */
export function SpecificationsPage() {
  const [params, setParams] = useSearchParams();
  const page = pageFromParam(params.get('page'));
  const all = useAllDatasets();
  const firstPaint = useDatasetsPage(page);
  const session = useSession();
  const navigate = useNavigate();
  const [filter, setFilter] = useState('');
  const setPage = (p: number) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (p === 1) next.delete('page');
        else next.set('page', String(p));
        return next;
      },
      { preventScrollReset: true },
    );
  if (all.error) return <ErrorText>Error: {all.error.message}</ErrorText>;
  const preview = all.data ? null : firstPaint.data;
  if (!all.data && !preview) return <Loading />;
  const datasets = all.data?.datasets ?? preview?.datasets ?? [];
  const found = preview ? preview.total : datasets.filter((d) => matchesSpecFilter(d, filter)).length;
  return (
    <>
      <h1 className="h3">All BV Data</h1>
      <DatabaseDownloads className="mb-3" />
      <Tabs
        className="mb-3"
        tabs={[
          {
            key: 'index',
            title: 'Datasets',
            content: (
              <>
                <Form.Group className="mb-3" controlId="spec-filter" style={{ maxWidth: 360 }}>
                  <Form.Label>Filter by measurand or id</Form.Label>
                  <Form.Control
                    value={filter}
                    disabled={preview !== null}
                    onChange={(e) => {
                      setFilter(e.target.value);
                      if (page !== 1) setPage(1);
                    }}
                  />
                </Form.Group>
                <DataTable
                  caption={
                    <>
                      Total Number of BVIAC datasets found: <strong>{found}</strong>
                    </>
                  }
                  data={datasets}
                  columns={indexColumns(isStaff(session), navigate)}
                  initialSorting={[{ id: 'name', desc: true }]}
                  pageSize={SPEC_PAGE_SIZE}
                  page={page}
                  onPageChange={setPage}
                  {...(preview ? { rowCount: preview.total } : {})}
                  globalFilter={filter}
                  globalFilterFn={matchesSpecFilter}
                />
              </>
            ),
          },
          {
            key: 'table',
            title: 'Specifications table',
            content: (
              <DataTable
                caption="Specifications"
                id="specs_table"
                data={datasets}
                columns={specsTableColumns(isStaff(session))}
                pageSize={SPEC_PAGE_SIZE}
              />
            ),
          },
        ]}
      />
    </>
  );
}
