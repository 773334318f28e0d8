import { DATASET_FIELD_LABELS, type DatasetInput } from '@bvdb/contract';
import {
  EVIDENCE_CLASS_LABELS,
  EVIDENCE_CLASSES,
  INTERVAL_UNITS,
  NON_HEALTHY_STATE_ID,
  QUALITY_ITEMS,
  SEXES_FOR_META_ANALYSIS,
  unitSymbol,
} from '@bvdb/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { type UseQueryResult } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { FormProvider, useForm, useFormContext, type UseFormSetError } from 'react-hook-form';
import { ErrorText, Loading } from '../../../components/state-views';
import { ApiError } from '../../../lib/api-client';
import {
  useAnalyteOptions,
  useLookups,
  useReferenceOptions,
  type ReferenceOption,
} from '../api/get-form-options';
import { ReferencePicker } from './reference-picker';
import {
  FlagField,
  NumberField,
  SelectField,
  SelectFields,
  TextField,
  type Option,
} from './dataset-form-fields';
import { DatasetFormInputSchema, type DatasetFormValues } from '../dataset-form-values';

const UNIT_OPTIONS: Option[] = INTERVAL_UNITS.map((u) => ({ value: u, label: u }));
const EVIDENCE_OPTIONS: Option[] = EVIDENCE_CLASSES.map((c) => ({
  value: c,
  label: EVIDENCE_CLASS_LABELS[c][0]!.toUpperCase() + EVIDENCE_CLASS_LABELS[c].slice(1),
}));
const SEX_OPTIONS: Option[] = SEXES_FOR_META_ANALYSIS.map((s) => ({ value: s, label: s }));

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card className="mb-3">
      <Card.Header as="h2" className="h6 mb-0">
        {title}
      </Card.Header>
      <Card.Body>
        <Row>{children}</Row>
      </Card.Body>
    </Card>
  );
}

/** The reference picker (searchable by author, year, title); on a failed load it is replaced by the red text of spec section 8. */
function ReferenceSelect({ references }: { references: UseQueryResult<ReferenceOption[]> }) {
  if (references.error) {
    const err = references.error;
    return (
      <Col md={6} className="mb-3">
        <p className="text-danger mb-0" role="alert">
          {err instanceof ApiError
            ? `Failed to load references: ${err.statusText}`
            : 'Unknown error while fetching references.'}
        </p>
      </Col>
    );
  }
  return <ReferencePicker id="dataset-reference-id" options={references.data ?? []} />;
}

/** Shown only for a Non-healthy population (spec section 4). */
function DiseasePicker({ diseases }: { diseases: Option[] }) {
  const {
    register,
    watch,
    formState: { errors },
  } = useFormContext<DatasetFormValues>();
  if (Number(watch('state_of_well_being_id')) !== NON_HEALTHY_STATE_ID) return null;
  const error = errors.disease_state_ids?.message;
  return (
    <Col md={12} className="mb-3">
      <fieldset aria-describedby={error ? 'dataset-disease-states-error' : undefined}>
        <legend className="form-label fs-6">{DATASET_FIELD_LABELS.disease_state_ids}</legend>
        <div className="d-flex flex-wrap gap-3">
          {diseases.map((d) => (
            <Form.Check
              key={d.value}
              id={`dataset-disease-${d.value}`}
              type="checkbox"
              label={d.label}
              value={String(d.value)}
              isInvalid={error !== undefined}
              {...register('disease_state_ids')}
            />
          ))}
        </div>
        {error ? (
          <div id="dataset-disease-states-error" className="invalid-feedback d-block">
            {error}
          </div>
        ) : null}
      </fieldset>
    </Col>
  );
}

/** Field messages of a 400/422 answer, shown on their fields (paths like body.bv_specification.age_min). */
export function showServerFieldErrors(err: unknown, setError: UseFormSetError<DatasetFormValues>): void {
  if (!(err instanceof ApiError)) return;
  const fields = (err.body as { fields?: { path: string; message: string }[] } | undefined)?.fields ?? [];
  for (const f of fields) {
    const name = f.path.replace(/^body\.bv_specification\./, '').split('.')[0];
    if (name && name !== f.path) setError(name as keyof DatasetFormValues, { message: f.message });
  }
}

/**
 * What a draft from the estimation report leaves to the curator (issue 42.4): the fields the estimator
 * did not assess start empty and must be chosen before saving; the grades it computed are drafts.
 */
export interface DraftMarks {
  mustChoose: readonly string[];
  drafted: readonly string[];
}

/** The message on a field a draft left empty. */
export const NOT_ASSESSED_MESSAGE = 'Not assessed by the estimator: choose one before saving.';

/**
 * The dataset form of "Enter New BIVAC Dataset", edit and copy. The contract's schema runs in the
 * browser first (same messages as the server's); the server has the last word.
 */
export function DatasetForm({
  initial,
  resetKey,
  submitLabel,
  onSubmit,
  message,
  extraActions,
  draftMarks,
}: {
  initial: DatasetFormValues;
  /** Changing it loads `initial` into the form again (after a save, or to take someone else's version). */
  resetKey: string | number;
  submitLabel: string;
  onSubmit: (values: DatasetInput, setError: UseFormSetError<DatasetFormValues>) => Promise<void>;
  message?: ReactNode;
  extraActions?: ReactNode;
  draftMarks?: DraftMarks;
}) {
  const mustChoose = (name: string) => draftMarks?.mustChoose.includes(name) ?? false;
  const drafted = (name: string) => draftMarks?.drafted.includes(name) ?? false;
  const form = useForm<DatasetFormValues, unknown, DatasetInput>({
    resolver: zodResolver(DatasetFormInputSchema),
    defaultValues: initial,
  });
  const { handleSubmit, reset, setError, formState } = form;
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => reset(initial), [resetKey]);
  // The form is long: an outcome (success, failure, conflict) is brought into view where it shows.
  const messageRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message) messageRef.current?.scrollIntoView?.({ block: 'start' });
  }, [message]);
  const lookups = useLookups();
  const analytes = useAnalyteOptions();
  const references = useReferenceOptions();
  // The selects render once their options are there: a select drawn before its options would show
  // the placeholder while the form holds (and would send) the default. One observer of the reference
  // list only: a second one mounting later would refetch a failed list and loop through "pending".
  if (lookups.isPending || analytes.isPending || references.isPending) return <Loading />;
  if (lookups.error) return <ErrorText>Error: {lookups.error.message}</ErrorText>;
  if (analytes.error) return <ErrorText>Error: {analytes.error.message}</ErrorText>;
  const l = lookups.data;
  const opts = <T,>(list: T[] | undefined, f: (t: T) => Option) => (list ?? []).map(f);
  const unitOptions = opts(l?.units, (u) => ({ value: u.id, label: unitSymbol(u.name) }));

  return (
    <FormProvider {...form}>
      <Form
        noValidate
        aria-label={submitLabel}
        onSubmit={(e) => {
          // A draft's unassessed fields are chosen by the curator, never saved as they started.
          const empty = (draftMarks?.mustChoose ?? []).filter(
            (name) => String(form.getValues(name as keyof DatasetFormValues) ?? '').trim() === '',
          );
          if (empty.length > 0) {
            e.preventDefault();
            empty.forEach((name, i) =>
              setError(
                name as keyof DatasetFormValues,
                { message: NOT_ASSESSED_MESSAGE },
                { shouldFocus: i === 0 },
              ),
            );
            return;
          }
          void handleSubmit((values) => onSubmit(values, setError))(e);
        }}
      >
        <div ref={messageRef}>{message}</div>
        {Object.keys(formState.errors).length > 0 ? (
          <p className="text-danger" role="alert">
            Please correct the fields marked in red.
          </p>
        ) : null}
        <Section title="Dataset">
          <SelectField
            name="analyte_id"
            placeholder="Choose a measurand"
            options={opts(analytes.data.analytes, (a) => ({ value: a.id, label: a.display_name }))}
          />
          <ReferenceSelect references={references} />
          <TextField name="unique_identifier" />
          <SelectField
            name="matrix_id"
            placeholder="Choose a matrix"
            options={opts(l?.matrices, (m) => ({ value: m.id, label: m.matrix_expansion }))}
          />
        </Section>

        <Section title="Population">
          <SelectFields
            md={4}
            placeholder="Not defined"
            placeholderOf={(name) => (mustChoose(name) ? 'Choose one' : undefined)}
            hintOf={(name) => (mustChoose(name) ? 'Not assessed by the estimator: choose one.' : undefined)}
            fields={[
              {
                name: 'state_of_well_being_id',
                options: opts(l?.states_of_well_being, (s) => ({
                  value: s.id,
                  label: s.state_of_well_being_descriptor_expansion,
                })),
              },
              {
                name: 'ethnicity_id',
                options: opts(l?.ethnicities, (e) => ({ value: e.id, label: e.ethnicity_expansion })),
              },
              { name: 'sex_for_meta_analysis', options: SEX_OPTIONS },
            ]}
          />
          <DiseasePicker diseases={opts(l?.diseases, (d) => ({ value: d.id, label: d.item_type }))} />
          <NumberField name="number_of_subjects" />
          <NumberField name="number_of_males" />
          <NumberField name="number_of_females" />
          <NumberField name="number_of_subjects_included_in_bv_estimation" />
          <NumberField name="age_min" />
          <NumberField name="age_max" />
          <NumberField name="age_mean" />
          <NumberField name="age_sd" />
        </Section>

        <Section title="Study Design and Sampling">
          <NumberField name="study_duration" />
          <SelectField name="study_duration_units" md={3} options={UNIT_OPTIONS} />
          <NumberField name="samples_per" />
          <SelectField name="interval_units" md={3} options={UNIT_OPTIONS} />
          <TextField name="sampling_times_start_time" md={3} hint="Format like 07:00" />
          <TextField name="sampling_times_end_time" md={3} hint="Format like 07:00" />
          <NumberField name="average_number_of_samples_used_for_bv_estimation" />
          <NumberField name="average_number_of_replicates" />
          <TextField name="preanalytical_issues" md={12} textarea />
        </Section>

        <Section title="Estimates">
          <NumberField name="estimates_of_cvi" md={4} />
          <NumberField name="reported_cvi_lower_confidence_interval" md={4} />
          <NumberField name="reported_cvi_upper_confidence_interval" md={4} />
          <NumberField name="estimates_of_cvg" md={4} />
          <NumberField name="reported_cvg_lower_confidence_interval" md={4} />
          <NumberField name="reported_cvg_upper_confidence_interval" md={4} />
          <NumberField name="analytical_cv" md={4} />
          <SelectField
            name="evidence_class"
            md={8}
            options={EVIDENCE_OPTIONS}
            hint="Only direct ANOVA studies enter the global estimate; the others are shown under the evidence facet."
          />
        </Section>

        <Section title="Units and Concentrations">
          <SelectFields
            md={4}
            placeholder="None"
            fields={[
              { name: 'unit_id', options: unitOptions },
              { name: 'second_unit_id', options: unitOptions },
              {
                name: 'overall_principle_method_id',
                options: opts(l?.methods, (m) => ({ value: m.id, label: m.name })),
              },
            ]}
          />
          <TextField name="standard_unit_for_reporting_of_analyte" />
          <TextField name="second_standard_unit" />
          <NumberField name="concentration_mean" />
          <NumberField name="concentration_min" />
          <NumberField name="concentration_max" />
          <NumberField name="concentration_sd" />
          <NumberField name="concentration_standard_unit_mean" />
          <NumberField name="concentration_standard_unit_min" />
          <NumberField name="concentration_standard_unit_max" />
          <NumberField name="concentration_standard_unit_sd" />
        </Section>

        <Section title="BIVAC Scores">
          {QUALITY_ITEMS.map((item) => (
            <SelectField
              key={item.key}
              name={item.key}
              md={3}
              options={item.allowedGrades.map((g) => ({ value: g, label: g }))}
              {...(mustChoose(item.key)
                ? { placeholder: 'Choose a grade', hint: 'Not assessed by the estimator: choose one.' }
                : drafted(item.key)
                  ? { hint: 'Draft from the estimation report: check it.' }
                  : {})}
            />
          ))}
          <TextField name="scoring_comment" md={12} textarea />
        </Section>

        <Section title="Coding">
          <Col md={4} className="mb-3">
            <FlagField name="healthy" />
            <FlagField name="adult" />
            <FlagField name="weekly_samplings" />
            <Form.Text muted>At most 2 samples per week, down to 1 per month.</Form.Text>
          </Col>
          <Col md={4} className="mb-3">
            <FlagField name="review" />
            <FlagField name="published" />
            <FlagField name="include_in_meta_analysis" />
          </Col>
          <Col md={4} />
          <TextField name="snomed_ct" md={4} />
          <TextField name="npu" md={4} />
          <TextField name="loinc" md={4} />
          <TextField name="comment" md={12} textarea />
        </Section>

        <div className="d-flex gap-2 mb-4">
          <Button type="submit" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? 'Saving...' : submitLabel}
          </Button>
          {extraActions}
        </div>
      </Form>
    </FormProvider>
  );
}
