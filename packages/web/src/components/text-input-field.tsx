import Form from 'react-bootstrap/Form';

/** A labelled input in a `mb-3` group whose text is kept by the caller (sign-in and password forms). */
export function TextInputField({
  controlId,
  label,
  value,
  onChange,
  type,
  autoComplete,
  minLength,
  maxLength,
}: {
  controlId: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  type: 'email' | 'password';
  autoComplete: string;
  minLength?: number;
  maxLength?: number;
}) {
  return (
    <Form.Group className="mb-3" controlId={controlId}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type={type}
        autoComplete={autoComplete}
        required
        minLength={minLength}
        maxLength={maxLength}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </Form.Group>
  );
}
