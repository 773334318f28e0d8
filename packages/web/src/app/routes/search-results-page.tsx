import { useQuery } from '@tanstack/react-query';
import Accordion from 'react-bootstrap/Accordion';
import { Link, useSearchParams } from 'react-router';
import { ErrorText, Loading } from '../../components/state-views';
import { searchAnalytesQuery } from '../../features/search/api/search-analytes';

/** Measurand search results: one accordion item per measurand; the only one opens by itself. */
export function SearchResultsPage() {
  const [params] = useSearchParams();
  const query = params.get('query') ?? '';
  const { data, error, isPending } = useQuery(searchAnalytesQuery(query));
  return (
    <>
      <h1 className="h3">Search results</h1>
      {isPending ? (
        <Loading />
      ) : error ? (
        <ErrorText>Error: {error.message}</ErrorText>
      ) : data.analytes.length === 0 ? (
        <p className="my-3">
          No Results found
          {query ? ` for "${query}"` : ''}
        </p>
      ) : (
        <Accordion defaultActiveKey={data.analytes.length === 1 ? String(data.analytes[0]!.id) : undefined}>
          {data.analytes.map((a) => (
            <Accordion.Item eventKey={String(a.id)} key={a.id}>
              <Accordion.Header as="h2">{a.display_name}</Accordion.Header>
              <Accordion.Body>
                <dl className="row mb-2">
                  <dt className="col-sm-3">Full name</dt>
                  <dd className="col-sm-9">{a.full_name}</dd>
                  <dt className="col-sm-3">Alternative names</dt>
                  <dd className="col-sm-9">
                    {a.alternate_names.length ? a.alternate_names.join(', ') : 'No Alternative'}
                  </dd>
                  <dt className="col-sm-3">Datasets</dt>
                  <dd className="col-sm-9">{a.bv_specifications_count}</dd>
                </dl>
                <Link to={`/analytes/${a.id}`} className="btn btn-primary btn-sm">
                  Open {a.display_name}
                </Link>
              </Accordion.Body>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
    </>
  );
}
