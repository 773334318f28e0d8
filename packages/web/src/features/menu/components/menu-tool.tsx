import type { MenuResponse, MenuTestInput, MenuTestResult } from '@bvdb/contract';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Loading } from '../../../components/state-views';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import {
  downloadMenuSheet,
  postMenu,
  uploadMenu,
  type MenuChoices,
  type MenuLevel,
  type MenuPopulation,
} from '../api/create-menu';
import { KeepMenu } from './keep-menu';
import { MenuSheet } from './menu-sheet';

const LEVELS: [MenuLevel, string][] = [
  ['optimal', 'Optimal'],
  ['desirable', 'Desirable'],
  ['minimum', 'Minimum'],
];
const PROBABILITIES = [0.9, 0.95, 0.99];

// Loaded when asked for (issue 47.3): the population's fields and the lookups they list.
const PopulationChooser = lazy(() => import('../../../components/population-chooser'));

const candidateValue = (c: { measurand_id: number; matrix: string }) => `${c.measurand_id}\u0001${c.matrix}`;

/** One line that is not matched: why, and a choice of the candidates (nothing is guessed). */
function Resolve({ t, onChoose }: { t: MenuTestResult; onChoose: (id: number, matrix: string) => void }) {
  const id = `resolve-${t.line}`;
  return (
    <li className="mb-2" data-line={t.line}>
      <Form.Label htmlFor={id} className="mb-1">
        Line {t.line}: <strong>{t.input.name ?? t.input.code}</strong>
        {t.input.matrix ? ` (${t.input.matrix})` : ''} — {t.status}: {t.why}
      </Form.Label>
      {t.candidates.length > 0 ? (
        <Form.Select
          id={id}
          size="sm"
          defaultValue=""
          onChange={(e) => {
            const c = t.candidates.find((x) => candidateValue(x) === e.target.value);
            if (c) onChoose(c.measurand_id, c.matrix);
          }}
        >
          <option value="">Choose the measurand…</option>
          {t.candidates.map((c) => (
            <option key={candidateValue(c)} value={candidateValue(c)}>
              {c.display_name} — {c.matrix}
            </option>
          ))}
        </Form.Select>
      ) : (
        <p className="small text-body-secondary mb-0">
          {/has no estimate yet$/.test(t.why ?? '')
            ? 'Nothing to choose: the test is recognised, but there is no estimate to judge it against yet.'
            : 'No candidate: correct the name or code in the file.'}
        </p>
      )}
      {t.candidates_total > t.candidates.length ? (
        <p className="small text-body-secondary mb-0">
          and {t.candidates_total - t.candidates.length} more: give the line a code to tell them apart.
        </p>
      ) : null}
    </li>
  );
}

/**
 * "Your test menu" (issue 32.2–3): upload a menu, resolve the lines that match no measurand or
 * several by choosing a candidate, and read, print or download the sheet. The page holds the menu;
 * each change posts it again (the server stores nothing).
 */
export function MenuTool() {
  const [file, setFile] = useState<File | null>(null);
  const [choices, setChoices] = useState<MenuChoices>({ level: 'desirable', probability: 0.95 });
  // A population (issue 47.3): sent as facet.* with each judging; a kept menu keeps the one its
  // sheet was judged for (decision 101).
  const [population, setPopulation] = useState<MenuPopulation>({});
  const [choosing, setChoosing] = useState(false);
  const [answer, setAnswer] = useState<MenuResponse | null>(null);
  const [tests, setTests] = useState<MenuTestInput[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** The lines are numbered 1…n by the server, the same when the menu is posted again as JSON. */
  const keep = (a: MenuResponse) => {
    setAnswer(a);
    setTests(a.tests.map((t) => t.input));
  };
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!file) return;
    void run(async () => {
      keep(await uploadMenu(file, choices, population));
    });
  };
  const again = (next: MenuTestInput[], nextChoices: MenuChoices, nextPopulation = population) =>
    void run(async () => keep(await postMenu(next, nextChoices, nextPopulation)));
  const choose = (index: number, id: number, matrix: string) => {
    const next = tests.map((t, i) => (i === index ? { ...t, code: String(id), matrix } : t));
    again(next, choices);
  };
  const choosePopulation = (next: MenuPopulation) => {
    setPopulation(next);
    if (answer) again(tests, choices, next);
  };
  const setChoice = (c: Partial<MenuChoices>) => {
    const next = { ...choices, ...c };
    setChoices(next);
    if (answer) again(tests, next);
  };
  const open = answer?.tests.map((t, i) => ({ t, i })).filter(({ t }) => t.status !== 'matched') ?? [];

  return (
    <>
      <Form onSubmit={submit} className="d-print-none mb-3" aria-label="Upload a test menu">
        <p>
          One row per test: its name (or an alternative name) or a code (LOINC, NPU, SNOMED CT or the
          measurand id), optionally the matrix and unit, and your analytical CV and bias in % (optionally your
          total error). Start from the template:{' '}
          <a href="/api/v1/menu/menu_template.csv" download>
            CSV
          </a>{' '}
          or{' '}
          <a href="/api/v1/menu/menu_template.xlsx" download>
            xlsx
          </a>
          . Nothing you upload is stored unless you keep the menu.
        </p>
        <Form.Group className="mb-2" controlId="menu-file">
          <Form.Label>Menu file (CSV or .xlsx; at most 1,000 tests)</Form.Label>
          <Form.Control
            type="file"
            accept=".csv,.txt,.xlsx,text/csv"
            onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)}
          />
        </Form.Group>
        <div className="d-flex flex-wrap gap-3 align-items-end">
          <Form.Group controlId="menu-level">
            <Form.Label>APS level shown</Form.Label>
            <Form.Select
              value={choices.level}
              onChange={(e) => setChoice({ level: e.target.value as MenuLevel })}
            >
              {LEVELS.map(([l, label]) => (
                <option key={l} value={l}>
                  {label}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          <Form.Group controlId="menu-probability">
            <Form.Label>RCV probability (either direction)</Form.Label>
            <Form.Select
              value={String(choices.probability)}
              onChange={(e) => setChoice({ probability: Number(e.target.value) })}
            >
              {PROBABILITIES.map((p) => (
                <option key={p} value={String(p)}>
                  {p * 100} %
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          <Button type="submit" disabled={!file || busy}>
            {busy ? 'Working…' : 'Judge the menu'}
          </Button>
        </div>
        <div className="mt-2">
          {choosing ? (
            <Suspense fallback={<Loading />}>
              <PopulationChooser idPrefix="menu" value={population} onChange={choosePopulation} />
            </Suspense>
          ) : (
            <Button variant="outline-secondary" size="sm" onClick={() => setChoosing(true)}>
              Choose a population…
            </Button>
          )}
        </div>
      </Form>
      {error ? (
        <Alert variant="danger" role="alert">
          {error}
        </Alert>
      ) : null}
      {answer ? (
        <>
          {open.length > 0 ? (
            <section className="d-print-none mb-3" aria-labelledby="menu-resolve">
              <h2 className="h5" id="menu-resolve">
                {open.length} {open.length === 1 ? 'test needs' : 'tests need'} a measurand
              </h2>
              <ul className="list-unstyled">
                {open.map(({ t, i }) => (
                  <Resolve key={t.line} t={t} onChoose={(id, matrix) => choose(i, id, matrix)} />
                ))}
              </ul>
            </section>
          ) : null}
          <div className="d-flex flex-wrap gap-2 mb-2 d-print-none">
            <Button
              variant="outline-primary"
              size="sm"
              onClick={() => void run(() => downloadMenuSheet(tests, choices, population))}
            >
              Download the sheet (xlsx)
            </Button>
            <Button variant="outline-secondary" size="sm" onClick={() => window.print()}>
              Print
            </Button>
          </div>
          <KeepMenu
            key={JSON.stringify([tests, choices, answer.population?.key])}
            tests={tests}
            choices={choices}
            population={answer.population}
          />
          <MenuSheet answer={answer} />
        </>
      ) : null}
    </>
  );
}
