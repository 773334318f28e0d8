import type { MetaListItemSchema } from '@bvdb/contract';
import { formatDateDmy, formatMetaValue } from '@bvdb/domain';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import type { z } from 'zod';
import { ErrorText, Loading } from '../../components/state-views';
import { useHeadlineMetas } from '../../features/meta-results/api/list-headline-metas';
import { useMetaList } from '../../features/meta-results/api/list-metas';
import { HeaderRow } from '../../components/header-row';
import { DatabaseDownloads } from '../../components/database-downloads';
import { estimatePermalinkPath } from '../../lib/estimate-permalink';
import { paths } from '../../lib/paths';

type MetaListItem = z.infer<typeof MetaListItemSchema>;

const typeOf = (m: MetaListItem) => (m.var_type === ':cvi' ? 'CVI' : 'CVG');

/** What Low and High are, for a cell's title (the live table's nine cells keep their text). */
const limitsTitle = (m: MetaListItem, end: 'Lower' | 'Upper'): string | undefined =>
  m.limits === null
    ? undefined
    : `${end} limit of the ${m.limits === '95 % CI' ? '95 % CI' : 'range of the studies'}`;

/**
 * One result as a row: the same nine cells in both tables as the live list has (scripts read them by
 * position and by count, issue 42.11); what Low and High are is in their `title` and the legend.
 */
function MetaRow({ m }: { m: MetaListItem }) {
  return (
    <tr data-meta-id={m.id}>
      <td data-label="ID">{m.id}</td>
      <td data-label="Marker">
        <Link to={paths.analyte(m.analyte_id)}>{m.analyte_display_name}</Link>
      </td>
      <td data-label="Matrix">{m.matrix}</td>
      <td data-label="BV">{m.var_type === ':cvi' ? 'Within-subject' : 'Between-subject'}</td>
      <td data-label="Median">{formatMetaValue(m.median)}</td>
      <td data-label="Low" title={limitsTitle(m, 'Lower')}>
        {formatMetaValue(m.lower)}
      </td>
      <td data-label="High" title={limitsTitle(m, 'Upper')}>
        {formatMetaValue(m.upper)}
      </td>
      <td data-label="Date">{formatDateDmy(m.updated_at)}</td>
      <td data-label="Tools">
        <Link
          to={estimatePermalinkPath(m.analyte_id, m.matrix, typeOf(m))}
          className="btn btn-outline-primary btn-sm"
          aria-label={`View ${m.analyte_display_name} ${m.matrix} ${typeOf(m)}`}
        >
          View
        </Link>
      </td>
    </tr>
  );
}

const HEADERS = ['ID', 'Marker', 'Matrix', 'BV', 'Median', 'Low', 'High', 'Date', 'Tools'];

/** The legend under a table: how many rows' Low–High are a 95 % CI and how many a range (issue 42.11). */
function LimitsLegend({ rows, testId }: { rows: MetaListItem[]; testId: string }) {
  const ci = rows.filter((m) => m.limits === '95 % CI').length;
  const range = rows.filter((m) => m.limits === 'range').length;
  return (
    <p className="small text-muted" data-testid={`${testId}-legend`}>
      Low and High are the 95 % CI of the weighted median when it rests on more than 10 studies (or on one
      study with its own CI), otherwise the range of the studies ({ci} {ci === 1 ? 'row' : 'rows'} 95 % CI,{' '}
      {range} {range === 1 ? 'row' : 'rows'} range); each Low and High cell's title says which.
    </p>
  );
}

function MetaTable({ caption, rows, testId }: { caption: string; rows: MetaListItem[]; testId: string }) {
  return (
    <>
      <Table
        striped
        bordered
        responsive
        size="sm"
        className="align-middle table-stack-phone"
        data-testid={testId}
      >
        <caption className="caption-top">{caption}</caption>
        <thead>
          <HeaderRow names={HEADERS} />
        </thead>
        <tbody>
          {rows.map((m) => (
            <MetaRow key={m.id} m={m} />
          ))}
        </tbody>
      </Table>
      <LimitsLegend rows={rows} testId={testId} />
    </>
  );
}

/**
 * Every displayed meta-analysis result (the spec), split as the live list is (issue 27.1): the main
 * table holds the displayed estimates, one row per measurand and type in the headline matrix (what
 * `/api/meta_calculations` answers, decision 007); the other matrices' results follow in "Other
 * matrices". Nine cells a row as the live table (issue 42.11): what Low–High is (a 95 % CI or the range of
 * the studies, issue 27.7) is in the legend under each table and in the Low and High cells' titles.
 */
export function MetaListPage() {
  const all = useMetaList();
  const headline = useHeadlineMetas();
  const error = all.error ?? headline.error;
  const headlineIds = new Set(headline.data?.data.flatMap((e) => e.metas.map((m) => m.id)) ?? []);
  const main = all.data?.data.filter((m) => headlineIds.has(m.id)) ?? [];
  const others = all.data?.data.filter((m) => !headlineIds.has(m.id)) ?? [];
  return (
    <>
      <h1 className="h3">List of BV estimates</h1>
      <DatabaseDownloads className="mb-3" />
      {error ? (
        <ErrorText>An error occurred while fetching meta calculations.</ErrorText>
      ) : !all.data || !headline.data ? (
        <Loading />
      ) : all.data.data.length === 0 ? (
        <p>No meta calculations available</p>
      ) : (
        <>
          <MetaTable
            testId="meta-list-main"
            caption={`Displayed estimates (${main.length}): for each measurand its headline matrix, weighted median CV (%) with its lower (Low) and upper (High) limit`}
            rows={main}
          />
          {others.length > 0 ? (
            <section aria-labelledby="other-matrices">
              <h2 className="h5" id="other-matrices">
                Other matrices
              </h2>
              <MetaTable
                testId="meta-list-other"
                caption={`Results in the other matrices (${others.length})`}
                rows={others}
              />
            </section>
          ) : null}
        </>
      )}
    </>
  );
}
