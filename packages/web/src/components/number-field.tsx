import Form from 'react-bootstrap/Form';

/**
 * A labelled numeric input whose text the caller keeps (so an empty or half-typed entry stays as
 * typed): the calculators' CVI, CVG, CVA and result boxes.
 */
export function NumberField({
  id,
  label,
  value,
  onChange,
  className,
  min = 0,
  step = 0.1,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (text: string) => void;
  className?: string;
  /** 0 unless given; null for a box that takes any number (a result) */
  min?: number | null;
  step?: number;
}) {
  return (
    <Form.Group className={className} controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type="number"
        min={min ?? undefined}
        step={step}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </Form.Group>
  );
}
