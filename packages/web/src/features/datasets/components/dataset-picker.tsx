import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Empty, ErrorText, Loading } from '../../../components/state-views';
import { useManageByAnalyte } from '../api/get-manage';

/** The measurand's datasets as checkboxes; submitting hands the ticked ids on. */
export function DatasetPicker({
  analyteId,
  onSimulate,
}: {
  analyteId: number;
  onSimulate: (ids: number[]) => void;
}) {
  const q = useManageByAnalyte(analyteId);
  const [ticked, setTicked] = useState<Set<number>>(new Set());
  if (q.isPending) return <Loading />;
  if (q.error) return <ErrorText>Failed to load specifications</ErrorText>;
  const datasets = q.data.dataset;
  if (datasets.length === 0) return <Empty>No Data found in database</Empty>;
  const toggle = (id: number) =>
    setTicked((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <Form
      onSubmit={(e) => {
        e.preventDefault();
        onSimulate([...ticked].sort((a, b) => a - b));
      }}
    >
      <fieldset className="mb-2">
        <legend className="h6">Datasets</legend>
        <div className="d-flex gap-2 mb-2">
          <Button
            size="sm"
            variant="outline-secondary"
            onClick={() =>
              setTicked(new Set(datasets.filter((d) => d.include_in_meta_analysis).map((d) => d.id)))
            }
          >
            Tick those included in meta-analysis
          </Button>
          <Button size="sm" variant="outline-secondary" onClick={() => setTicked(new Set())}>
            Clear
          </Button>
        </div>
        {datasets.map((d) => (
          <Form.Check
            key={d.id}
            id={`sim-ds-${d.id}`}
            checked={ticked.has(d.id)}
            onChange={() => toggle(d.id)}
            label={`${d.id} · ${d.matrix?.matrix_expansion ?? 'No Matrix'} · grade ${d.total_score} · CVI ${d.estimates_of_cvi ?? 'NA'} · CVG ${d.estimates_of_cvg ?? 'NA'} · ${d.reference.title}`}
          />
        ))}
      </fieldset>
      <Button type="submit" disabled={ticked.size === 0} className="mb-4">
        Simulate
      </Button>
    </Form>
  );
}
