import { useState } from 'react';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import { ErrorText, Loading } from '../../components/state-views';
import { PlainAccordion, PlainAccordionItem } from '../../components/plain-accordion';
import { useAnalytesWithCounts } from '../../features/analytes/api/get-analytes';
import { useDatasetsByMeasurand } from '../../features/datasets/api/get-datasets';
import { GradeBadge } from '../../components/dataset-badges';
import { TilesGrid } from '../../features/datasets/components/tiles-grid';
import { DatabaseDownloads } from '../../components/database-downloads';
import { groupByLetter, INDEX_LETTERS, letterSectionId } from '../../lib/alphabet-index';
import { paths } from '../../lib/paths';

/**
 * The A–Z index: a link per letter to its section (plain fragment links: they work before the app's
 * code runs and with the keyboard); letters with no measurand are shown but not links.
 */
function AlphabetIndex({ present }: { present: Set<string> }) {
  return (
    <nav aria-label="Measurands A to Z" className="mb-2 d-print-none">
      <ul className="list-inline mb-0 d-flex flex-wrap gap-1 az-index">
        {INDEX_LETTERS.map((letter) => (
          <li key={letter} className="list-inline-item m-0">
            {present.has(letter) ? (
              <a
                href={`#${letterSectionId(letter)}`}
                className="btn btn-sm btn-outline-primary"
                aria-label={letter === '#' ? 'Other (not A to Z)' : letter}
                onClick={(e) => {
                  // Move the focus with the view, so the next Tab continues from that section.
                  const target = document.getElementById(letterSectionId(letter));
                  if (!target) return;
                  e.preventDefault();
                  target.scrollIntoView();
                  target.focus({ preventScroll: true });
                  window.history.replaceState(window.history.state, '', `#${letterSectionId(letter)}`);
                }}
              >
                {letter}
              </a>
            ) : (
              <span className="btn btn-sm border text-body-secondary pe-none" aria-hidden="true">
                {letter}
              </span>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function ByMeasurandPage() {
  const analytes = useAnalytesWithCounts();
  const grouped = useDatasetsByMeasurand();
  const [view, setView] = useState<'cards' | 'tiles'>('cards');
  const [filter, setFilter] = useState('');
  // The references open under a measurand (any number at once).
  const [opened, setOpened] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) =>
    setOpened((o) => {
      const next = new Set(o);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  if (analytes.isPending || grouped.isPending) return <Loading />;
  if (analytes.error || grouped.error)
    return <ErrorText>Error: {(analytes.error ?? grouped.error)!.message}</ErrorText>;
  const list = analytes.data.analytes.filter((a) =>
    a.display_name.toLowerCase().includes(filter.trim().toLowerCase()),
  );
  const groups = groupByLetter(list, (a) => a.display_name);
  return (
    <>
      <h1 className="h3">By Measurand</h1>
      <DatabaseDownloads className="mb-3" />
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
        <>
          <AlphabetIndex present={new Set(groups.map(([letter]) => letter))} />
          {groups.map(([letter, items]) => (
            <section key={letter} aria-labelledby={letterSectionId(letter)}>
              <h2 id={letterSectionId(letter)} className="h5 border-bottom pb-1 mt-3" tabIndex={-1}>
                {letter === '#' ? 'Other' : letter}
              </h2>
              {items.map((a) => {
                const specs = grouped.data.datasets[a.display_name] ?? [];
                return (
                  <Card key={a.id} className="mb-3">
                    <Card.Header className="d-flex justify-content-between align-items-center">
                      <h3 className="h6 mb-0">
                        <Link to={paths.analyte(a.id)}>{a.display_name}</Link>
                      </h3>
                      <span>There are: {a.bv_specifications_count} Records</span>
                    </Card.Header>
                    {specs.length > 0 ? (
                      <PlainAccordion flush>
                        {specs.map((d) => (
                          <PlainAccordionItem
                            key={d.id}
                            as="h4"
                            header={d.reference_title}
                            open={opened.has(d.id)}
                            onToggle={() => toggle(d.id)}
                          >
                            <p className="mb-1">
                              Grade <GradeBadge grade={d.total_score} /> · CVI {d.estimates_of_cvi ?? 'N/A'}%
                              · CVG {d.estimates_of_cvg ?? 'N/A'}% ·{' '}
                              {d.matrix?.matrix_expansion ?? 'No Matrix'}
                            </p>
                            <Link to={paths.dataset(d.id)}>View dataset {d.unique_identifier}</Link>
                          </PlainAccordionItem>
                        ))}
                      </PlainAccordion>
                    ) : null}
                  </Card>
                );
              })}
            </section>
          ))}
        </>
      )}
    </>
  );
}
