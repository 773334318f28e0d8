import type { ApplicationsRow } from '@bvdb/contract';
import { formatFixed } from '@bvdb/domain';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { paths } from '../../../lib/paths';

type Value = ApplicationsRow['aps']['bias'];
type Estimate = NonNullable<ApplicationsRow['cvi']>;

const LEVEL = { minimum: 'minimum', desirable: 'desirable', optimal: 'optimal' } as const;

/** A signed number as people write it: a true minus sign. */
const num = (v: number, decimals: number) => formatFixed(v, decimals).replace(/^-/, '−');

/** "2.9–4.1", or "−13.5 to −13.2" where a dash would read as a minus. */
const span = (lower: number, upper: number, decimals: number) =>
  lower < 0 || upper < 0
    ? `${num(lower, decimals)} to ${num(upper, decimals)}`
    : `${num(lower, decimals)}–${num(upper, decimals)}`;

/** What the limits are, short: "(CI)" for a 95 % CI, "(range)" for the range of the studies. */
const LIMITS_SHORT = { '95 % CI': 'CI', range: 'range' } as const;
const LIMITS_TITLE = {
  '95 % CI': "over the estimates' 95 % confidence limits",
  range: 'over the range of the study estimates',
} as const;

/**
 * A value and, in its own element, the range that follows from the estimates' limits, labelled by
 * what the limits are (issue 32.5); a missing value is "—" with why.
 */
export function ValueCell({ v, decimals = 1 }: { v: Value; decimals?: number }) {
  if (v.value === null)
    return (
      <span className="wb-missing">
        — <small className="text-body-secondary">({v.why})</small>
      </span>
    );
  return (
    <span className="wb-cell">
      <span className="wb-point">{num(v.value, decimals)}</span>
      {v.range ? (
        <small
          className="wb-range d-block text-body-secondary"
          data-limits={v.range.limits}
          title={LIMITS_TITLE[v.range.limits]}
        >
          {span(v.range.lower, v.range.upper, decimals)} ({LIMITS_SHORT[v.range.limits]})
        </small>
      ) : null}
    </span>
  );
}

function EstimateCell({ e, what }: { e: Estimate | null; what: 'CVI' | 'CVG' }) {
  if (!e)
    return (
      <span className="wb-missing">
        — <small className="text-body-secondary">(no {what} estimate)</small>
      </span>
    );
  return (
    <span className="wb-cell">
      <span className="wb-point">{num(e.median, 1)}</span>
      <small className="wb-limits d-block text-body-secondary">
        {e.lower !== null && e.upper !== null
          ? `${span(e.lower, e.upper, 1)} (${e.limits ? LIMITS_SHORT[e.limits] : 'limits'}), `
          : 'no limits, '}
        N = {e.number_used}
      </small>
    </span>
  );
}

const sortValue = (v: Value) => v.value ?? undefined;

function valueColumn(
  id: string,
  header: string,
  pick: (r: ApplicationsRow) => Value,
  decimals = 1,
): DataTableColumn<ApplicationsRow> {
  return {
    id,
    header,
    accessorFn: (r) => sortValue(pick(r)),
    sortUndefined: 'last',
    cell: ({ row }) => <ValueCell v={pick(row.original)} decimals={decimals} />,
  };
}

export function applicationsColumns(level: keyof typeof LEVEL): DataTableColumn<ApplicationsRow>[] {
  const l = LEVEL[level];
  return [
    {
      id: 'name',
      header: 'Measurand',
      accessorFn: (r) => r.display_name,
      sortingFn: 'text',
      cell: ({ row }) => (
        <>
          <Link to={paths.analyte(row.original.measurand_id)} className="fw-semibold">
            {row.original.display_name}
          </Link>
          {row.original.population ? (
            // Every row says whose estimates it shows (issue 47.3).
            <small className="d-block text-body-secondary" data-testid="row-population">
              {row.original.population.sentence}
            </small>
          ) : null}
        </>
      ),
    },
    { id: 'matrix', header: 'Matrix', accessorFn: (r) => r.matrix, sortingFn: 'text' },
    {
      id: 'cvi',
      header: 'CVI %',
      accessorFn: (r) => r.cvi?.median,
      sortUndefined: 'last',
      cell: ({ row }) => <EstimateCell e={row.original.cvi} what="CVI" />,
    },
    {
      id: 'cvg',
      header: 'CVG %',
      accessorFn: (r) => r.cvg?.median,
      sortUndefined: 'last',
      cell: ({ row }) => <EstimateCell e={row.original.cvg} what="CVG" />,
    },
    valueColumn('cva', `CVA % (${l})`, (r) => r.aps.imprecision),
    valueColumn('bias', `Bias % (${l})`, (r) => r.aps.bias),
    valueColumn('tea', `TEa % (${l})`, (r) => r.aps.total_error),
    valueColumn('mau', `MAU % (${l})`, (r) => r.aps.mau),
    valueColumn('rcv_up', 'RCV up %', (r) => r.rcv.up),
    valueColumn('rcv_down', 'RCV down %', (r) => r.rcv.down),
    {
      id: 'rcv_cva',
      header: 'RCV uses CVA %',
      accessorFn: (r) => r.rcv.cva ?? undefined,
      sortUndefined: 'last',
      cell: ({ row }) => {
        const { cva, cva_source } = row.original.rcv;
        if (cva === null) return '—';
        return (
          <span className="wb-cell">
            <span className="wb-point">{num(cva, 1)}</span>
            <small className="d-block text-body-secondary" data-cva-source={cva_source}>
              {cva_source === 'user' ? 'yours' : 'desirable: 0.5 × CVI'}
            </small>
          </span>
        );
      },
    },
    valueColumn('ii', 'II', (r) => r.ii, 2),
  ];
}

/** Accent- and case-insensitive, anywhere in the name: "creat" finds Creatinine. */
const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

export const matchesName = (r: ApplicationsRow, filter: string) =>
  fold(r.display_name).includes(fold(filter.trim()));

/**
 * The orders a phone offers in a select (the card layout has no header row to click): a column and
 * its direction, as the headers' sort buttons set them.
 */
export const PHONE_SORTS = [
  ['name', false, 'Measurand (A–Z)'],
  ['cvi', true, 'CVI (largest first)'],
  ['cvg', true, 'CVG (largest first)'],
  ['tea', true, 'TEa (largest first)'],
  ['rcv_up', true, 'RCV up (largest first)'],
  ['ii', false, 'II (smallest first)'],
] as const;

/** The summary table: sortable by every column, filtered by name, a card per row on a phone. */
export function ApplicationsTable({
  rows,
  level,
  filter,
  caption,
  sort = 'name',
}: {
  rows: ApplicationsRow[];
  level: keyof typeof LEVEL;
  filter: string;
  caption: string;
  /** The order chosen on a phone (PHONE_SORTS); the headers change it further. */
  sort?: string;
}) {
  const [, desc] = PHONE_SORTS.find(([id]) => id === sort) ?? PHONE_SORTS[0];
  return (
    <div className="applications-table">
      <DataTable
        key={sort}
        initialSorting={sort === 'name' ? [] : [{ id: sort, desc }]}
        id="applications"
        caption={caption}
        data={rows}
        columns={applicationsColumns(level)}
        globalFilter={filter}
        globalFilterFn={matchesName}
        empty="No measurand matches the filter"
      />
    </div>
  );
}
