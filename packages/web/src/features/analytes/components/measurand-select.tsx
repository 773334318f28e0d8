import Form from 'react-bootstrap/Form';
import { ErrorText, Loading } from '../../../components/state-views';
import { useAnalytesWithCounts } from '../api/get-analytes';

/** A measurand dropdown (those with datasets), as on the manage screens. */
export function MeasurandSelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: number | null;
  onChange: (id: number | null) => void;
}) {
  const analytes = useAnalytesWithCounts();
  if (analytes.isPending) return <Loading />;
  if (analytes.error) return <ErrorText>Error: {analytes.error.message}</ErrorText>;
  return (
    <Form.Group controlId={id} className="mb-3" style={{ maxWidth: 420 }}>
      <Form.Label>Measurand</Form.Label>
      <Form.Select
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}
      >
        <option value="">Choose a measurand</option>
        {analytes.data.analytes
          .filter((a) => a.bv_specifications_count > 0)
          .map((a) => (
            <option key={a.id} value={a.id}>
              {a.display_name || '-'}
            </option>
          ))}
      </Form.Select>
    </Form.Group>
  );
}
