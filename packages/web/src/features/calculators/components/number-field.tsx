import Form from 'react-bootstrap/Form';

interface Props {
  controlId: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  className?: string;
  min?: number;
  step: number;
}

/** A labelled `type="number"` input holding its text as typed (parsed later by toNumberOrZero). */
export function NumberField({ controlId, label, value, onChange, className, min, step }: Props) {
  return (
    <Form.Group className={className} controlId={controlId}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type="number"
        min={min}
        step={step}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </Form.Group>
  );
}
