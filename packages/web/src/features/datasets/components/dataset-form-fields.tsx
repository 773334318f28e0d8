import type { ReactNode } from 'react';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import { datasetFieldLabel } from '@bvdb/contract';
import { useFormContext, type FieldPath } from 'react-hook-form';
import type { DatasetFormValues } from '../dataset-form-values';

type Name = FieldPath<DatasetFormValues>;

const idOf = (name: string) => `dataset-${name.replace(/_/g, '-')}`;

function useField(name: Name) {
  const {
    register,
    formState: { errors },
  } = useFormContext<DatasetFormValues>();
  const error = (errors[name as keyof typeof errors] as { message?: string } | undefined)?.message;
  return { register: register(name), error, id: idOf(name) };
}

function Shell({
  id,
  label,
  md,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  md: number;
  hint?: string | undefined;
  error: string | undefined;
  children: ReactNode;
}) {
  return (
    <Form.Group as={Col} md={md} className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      {children}
      {hint ? (
        <Form.Text id={`${id}-hint`} muted>
          {hint}
        </Form.Text>
      ) : null}
      <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
    </Form.Group>
  );
}

/** A number input: '' is "not filled in"; the contract says what is allowed. */
export function NumberField({ name, md = 3, hint }: { name: Name; md?: number; hint?: string }) {
  const { register, error, id } = useField(name);
  return (
    <Shell id={id} label={datasetFieldLabel(name)} md={md} hint={hint} error={error}>
      <Form.Control
        type="number"
        step="any"
        min={0}
        inputMode="decimal"
        isInvalid={error !== undefined}
        aria-describedby={hint ? `${id}-hint` : undefined}
        {...register}
      />
    </Shell>
  );
}

export function TextField({
  name,
  md = 6,
  hint,
  textarea = false,
  placeholder,
}: {
  name: Name;
  md?: number;
  hint?: string;
  textarea?: boolean;
  placeholder?: string;
}) {
  const { register, error, id } = useField(name);
  return (
    <Shell id={id} label={datasetFieldLabel(name)} md={md} hint={hint} error={error}>
      <Form.Control
        {...(textarea ? { as: 'textarea' as const, rows: 2 } : { type: 'text' })}
        isInvalid={error !== undefined}
        aria-describedby={hint ? `${id}-hint` : undefined}
        placeholder={placeholder}
        {...register}
      />
    </Shell>
  );
}

export interface Option {
  value: string | number;
  label: string;
}

export function SelectField({
  name,
  options,
  md = 6,
  placeholder,
  hint,
}: {
  name: Name;
  options: readonly Option[];
  md?: number;
  /** The first, empty choice ("none" or "choose one"); absent when a value is always set. */
  placeholder?: string;
  hint?: string;
}) {
  const { register, error, id } = useField(name);
  return (
    <Shell id={id} label={datasetFieldLabel(name)} md={md} hint={hint} error={error}>
      <Form.Select
        isInvalid={error !== undefined}
        aria-describedby={hint ? `${id}-hint` : undefined}
        {...register}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={String(o.value)}>
            {o.label}
          </option>
        ))}
      </Form.Select>
    </Shell>
  );
}

/** Several SelectFields of one width and one placeholder, in order. */
export function SelectFields({
  md,
  placeholder,
  placeholderOf,
  hintOf,
  fields,
}: {
  md: number;
  placeholder: string;
  /** A field's own placeholder (a draft's "Choose one"), else `placeholder`. */
  placeholderOf?: (name: Name) => string | undefined;
  hintOf?: (name: Name) => string | undefined;
  fields: { name: Name; options: readonly Option[] }[];
}) {
  return fields.map((f) => {
    const hint = hintOf?.(f.name);
    return (
      <SelectField
        key={f.name}
        md={md}
        placeholder={placeholderOf?.(f.name) ?? placeholder}
        {...(hint ? { hint } : {})}
        {...f}
      />
    );
  });
}

export function FlagField({ name }: { name: Name }) {
  const { register, id } = useField(name);
  return <Form.Check type="switch" id={id} label={datasetFieldLabel(name)} className="mb-2" {...register} />;
}
