import {
  ReferenceBodySchema,
  REFERENCE_FILE_MAX_BYTES,
  type Reference,
  type ReferenceBody,
} from '@bvdb/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { z } from 'zod';

/** What the inputs hold: text. */
const FormValuesSchema = z.object({
  title: z.string(),
  author: z.string(),
  journal: z.string(),
  volume: z.string(),
  pages: z.string(),
  year_of_publication: z.string(),
  pubmed_link: z.string(),
  doi: z.string(),
  link: z.string(),
  link_to_spanish_database: z.string(),
  article_url: z.string(),
});
export type ReferenceFormValues = z.infer<typeof FormValuesSchema>;

/** '' is "none"; anything else must be a whole number (the contract says which). */
const wholeOrNull = (v: string) => (v.trim() === '' ? null : Number(v));

/** The form's text turned into the contract's request body, then checked by the contract's own schema. */
const ReferenceFormSchema = FormValuesSchema.transform((v): z.input<typeof ReferenceBodySchema> => ({
  ...v,
  volume: wholeOrNull(v.volume),
  year_of_publication: wholeOrNull(v.year_of_publication),
  link_to_spanish_database: wholeOrNull(v.link_to_spanish_database) ?? 0,
})).pipe(ReferenceBodySchema);

export const emptyReferenceValues: ReferenceFormValues = {
  title: '',
  author: '',
  journal: '',
  volume: '',
  pages: '',
  year_of_publication: '',
  pubmed_link: '',
  doi: '',
  link: '',
  link_to_spanish_database: '0',
  article_url: '',
};

export function valuesOf(r: Reference): ReferenceFormValues {
  const s = (v: string | number | null) => (v === null ? '' : String(v));
  return {
    title: r.title,
    author: s(r.author),
    journal: s(r.journal),
    volume: s(r.volume),
    pages: s(r.pages),
    year_of_publication: s(r.year_of_publication),
    pubmed_link: s(r.pubmed_link),
    doi: s(r.doi),
    link: s(r.link),
    link_to_spanish_database: String(r.link_to_spanish_database),
    article_url: s(r.article_url),
  };
}

function Field({
  id,
  label,
  error,
  register,
  type = 'text',
  hint,
  md = 6,
  as,
}: {
  id: string;
  label: string;
  error: string | undefined;
  register: UseFormRegisterReturn;
  type?: string;
  hint?: string;
  md?: number;
  as?: 'textarea';
}) {
  return (
    <Form.Group as={Col} md={md} className="mb-3" controlId={`reference-${id}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type={type}
        {...(as ? { as, rows: 2 } : {})}
        isInvalid={error !== undefined}
        aria-describedby={hint ? `reference-${id}-hint` : undefined}
        {...register}
      />
      {hint ? (
        <Form.Text id={`reference-${id}-hint`} muted>
          {hint}
        </Form.Text>
      ) : null}
      <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
    </Form.Group>
  );
}

/**
 * The reference form of "Enter New Reference" and "Edit Reference": the contract's rules run in the
 * browser first (same messages as the server's), the server has the last word.
 */
export function ReferenceForm({
  initial,
  resetKey,
  submitLabel,
  onSubmit,
  currentFileName,
  message,
  extraActions,
}: {
  initial: ReferenceFormValues;
  /** Changing it reloads `initial` into the form (after a conflict). */
  resetKey: string | number;
  submitLabel: string;
  onSubmit: (body: ReferenceBody, file: File | null) => Promise<void>;
  currentFileName?: string | null;
  message?: ReactNode;
  extraActions?: ReactNode;
}) {
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ReferenceFormValues, unknown, ReferenceBody>({
    resolver: zodResolver(ReferenceFormSchema),
    defaultValues: initial,
  });
  const bind = (name: keyof ReferenceFormValues) => ({
    error: errors[name]?.message,
    register: register(name),
  });
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => reset(initial), [resetKey]);

  return (
    <Form
      noValidate
      onSubmit={(e) => {
        void handleSubmit((body) => onSubmit(body, file))(e);
      }}
    >
      {message}
      <Row>
        <Field id="title" label="Title" md={12} as="textarea" {...bind('title')} />
        <Field
          id="author"
          label="Authors"
          md={12}
          {...bind('author')}
          hint="Comma-separated, e.g. Aarsand AK, Røraas T"
        />
        <Field id="journal" label="Journal" {...bind('journal')} />
        <Field id="year" label="Year of Publication" md={2} type="number" {...bind('year_of_publication')} />
        <Field id="volume" label="Volume" md={2} type="number" {...bind('volume')} />
        <Field id="pages" label="Pages" md={2} {...bind('pages')} />
        <Field id="doi" label="doi" {...bind('doi')} hint="e.g. 10.1373/clinchem.2017.276741" />
        <Field id="pubmed" label="Pubmed Link" type="url" {...bind('pubmed_link')} />
        <Field id="link" label="Links" type="url" {...bind('link')} />
        <Field id="article-url" label="Article address" type="url" {...bind('article_url')} />
        <Field
          id="article-id"
          label="Article ID"
          md={3}
          type="number"
          {...bind('link_to_spanish_database')}
        />
        <Form.Group as={Col} md={9} className="mb-3" controlId="reference-file">
          <Form.Label>Article file (PDF, 20 MB at most)</Form.Label>
          <Form.Control
            type="file"
            accept="application/pdf,.pdf"
            isInvalid={fileError !== null}
            aria-describedby="reference-file-hint"
            onChange={(e) => {
              const chosen = (e.target as HTMLInputElement).files?.[0] ?? null;
              setFileError(
                chosen && chosen.size > REFERENCE_FILE_MAX_BYTES
                  ? 'The file is too large (20 MB at most)'
                  : null,
              );
              setFile(chosen);
            }}
          />
          <Form.Text id="reference-file-hint" muted>
            {currentFileName
              ? `Current file: ${currentFileName}. A new file replaces it.`
              : 'No file attached.'}
          </Form.Text>
          <Form.Control.Feedback type="invalid">{fileError}</Form.Control.Feedback>
        </Form.Group>
      </Row>
      <div className="d-flex gap-2">
        <Button type="submit" disabled={isSubmitting || fileError !== null}>
          {isSubmitting ? 'Saving...' : submitLabel}
        </Button>
        {extraActions}
      </div>
    </Form>
  );
}

export const ConflictAlert = ({ text }: { text: string }) => (
  <Alert variant="warning" role="alert">
    {text}
  </Alert>
);
