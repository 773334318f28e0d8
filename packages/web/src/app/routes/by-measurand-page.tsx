import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import Accordion from 'react-bootstrap/Accordion';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import { ErrorText, Loading } from '../../components/state-views';
import { analytesWithCountsQuery } from '../../features/analytes/api/get-analytes';
import { datasetsByMeasurandQuery } from '../../features/specifications/api/get-datasets';
import { GradeBadge } from '../../components/dataset-badges';
import { TilesGrid } from '../../features/specifications/components/tiles-grid';

export function ByMeasurandPage() {
  const analytes = useQuery(analytesWithCountsQuery);
  const grouped = useQuery(datasetsByMeasurandQuery);
  const [view, setView] = useState<'cards' | 'tiles'>('cards');
  const [filter, setFilter] = useState('');
  if (analytes.isPending || grouped.isPending) return <Loading />;
  if (analytes.error || grouped.error)
    return <ErrorText>Error: {(analytes.error ?? grouped.error)!.message}</ErrorText>;
  const list = analytes.data.analytes.filter((a) =>
    a.display_name.toLowerCase().includes(filter.trim().toLowerCase()),
  );
  return (
    <>
      <h1 className="h3">By Measurand</h1>
      <div className="d-flex flex-wrap gap-3 align-items-end mb-3">
        <Form.Group controlId="measurand-filter">
          <Form.Label>Filter measurands</Form.Label>
          <Form.Control value={filter} onChange={(e) => setFilter(e.target.value)} />
        </Form.Group>
        <div role="group" aria-label="View" className="btn-group">
          <button
            type="button"
            className={`btn btn-outline-primary${view === 'cards' ? ' active' : ''}`}
            aria-pressed={view === 'cards'}
            onClick={() => setView('cards')}
          >
            Cards
          </button>
          <button
            type="button"
            className={`btn btn-outline-primary${view === 'tiles' ? ' active' : ''}`}
            aria-pressed={view === 'tiles'}
            onClick={() => setView('tiles')}
          >
            Tiles
          </button>
        </div>
      </div>
      {list.length === 0 ? <p>No results available</p> : null}
      {view === 'tiles' ? (
        <TilesGrid
          items={list.map((a) => ({
            id: a.id,
            name: a.display_name,
            bv_specifications_count: a.bv_specifications_count,
          }))}
        />
      ) : (
        list.map((a) => {
          const specs = grouped.data.datasets[a.display_name] ?? [];
          return (
            <Card key={a.id} className="mb-3">
              <Card.Header className="d-flex justify-content-between align-items-center">
                <h2 className="h6 mb-0">
                  <Link to={`/analytes/${a.id}`}>{a.display_name}</Link>
                </h2>
                <span>There are: {a.bv_specifications_count} Records</span>
              </Card.Header>
              {specs.length > 0 ? (
                <Accordion flush alwaysOpen>
                  {specs.map((d) => (
                    <Accordion.Item eventKey={String(d.id)} key={d.id}>
                      <Accordion.Header as="h3">{d.reference_title}</Accordion.Header>
                      <Accordion.Body>
                        <p className="mb-1">
                          Grade <GradeBadge grade={d.total_score} /> · CVI {d.estimates_of_cvi ?? 'N/A'}% ·
                          CVG {d.estimates_of_cvg ?? 'N/A'}% · {d.matrix?.matrix_expansion ?? 'No Matrix'}
                        </p>
                        <Link to={`/bv_specifications/${d.id}`}>View dataset {d.unique_identifier}</Link>
                      </Accordion.Body>
                    </Accordion.Item>
                  ))}
                </Accordion>
              ) : null}
            </Card>
          );
        })
      )}
    </>
  );
}
