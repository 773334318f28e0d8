import Form from 'react-bootstrap/Form';

interface FieldProps {
  controlId: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  className?: string;
  min?: number;
  step?: number;
}

/** A labelled `type="number"` input holding its text as typed (parsed later by toNumberOrZero). */
export function NumberField({ controlId, label, value, onChange, className, min, step = 0.1 }: FieldProps) {
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

/** A row of NumberFields (step 0.1 unless given) sharing a class; each one's id is `${idPrefix}-${name}`. */
export function NumberFields({
  idPrefix,
  className,
  fields,
  step,
}: {
  idPrefix: string;
  className: string;
  step?: number;
  fields: (Pick<FieldProps, 'label' | 'value' | 'onChange' | 'min'> & { name: string })[];
}) {
  return fields.map(({ name, ...field }) => (
    <NumberField key={name} className={className} controlId={`${idPrefix}-${name}`} step={step} {...field} />
  ));
}
