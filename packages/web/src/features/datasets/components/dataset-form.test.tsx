import { DATASET_MESSAGES, type DatasetInput, type DatasetValues } from '@bvdb/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { analyteOptionsQuery, lookupsQuery, referenceOptionsQuery } from '../api/get-form-options';
import { DatasetForm } from './dataset-form';
import { MemoryRouter } from 'react-router';
import { sessionQuery } from '../../../lib/session';
import { CreateDataset } from './create-dataset';
import { DatasetFormInputSchema, DEFAULT_DATASET_VALUES } from '../dataset-form-values';

const LOOKUPS = {
  matrices: [{ id: 1, matrix_expansion: 'Serum', matrix_explanation: null }],
  states_of_well_being: [
    {
      id: 1,
      state_of_well_being_descriptor_expansion: 'Healthy',
      state_of_well_being_descriptor_explanation: null,
    },
    {
      id: 2,
      state_of_well_being_descriptor_expansion: 'Non-healthy',
      state_of_well_being_descriptor_explanation: null,
    },
  ],
  diseases: [
    { id: 1, item_type: 'Heart disease' },
    { id: 2, item_type: 'Chronic kidney disease' },
  ],
  ethnicities: [{ id: 6, ethnicity_expansion: 'Caucasian' }],
  units: [{ id: 1, name: 'mmol/L' }],
  methods: [],
};

function renderForm(opts: { references?: 'ok' | 'none' } = {}) {
  const client = formClient(opts);
  const onSubmit = vi.fn<(values: DatasetInput) => Promise<void>>(async () => undefined);
  render(
    <QueryClientProvider client={client}>
      <DatasetForm initial={DEFAULT_DATASET_VALUES} resetKey="t" submitLabel="Submit" onSubmit={onSubmit} />
    </QueryClientProvider>,
  );
  return { onSubmit };
}

function formClient(opts: { references?: 'ok' | 'none' } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(lookupsQuery.queryKey, LOOKUPS);
  client.setQueryData(analyteOptionsQuery.queryKey, {
    analytes: [
      {
        id: 7,
        display_name: 'Sodium',
        full_name: 'Sodium',
        alternate_names: [],
        loinc: null,
        npu: null,
        snomed_ct: null,
        default: false,
        display_data: true,
        is_demo: true,
        created_at: '',
        updated_at: '',
        bv_specifications_count: 1,
      },
    ],
  });
  if (opts.references !== 'none') {
    client.setQueryData(referenceOptionsQuery.queryKey, [
      {
        id: 2,
        label: 'Roe et al. (2018) Sodium in sweat',
        search: 'Roe R, Fox F 2018 Sodium in sweat Clin Chem',
      },
      {
        id: 3,
        label: 'Doe (2020) A study',
        search: 'Doe J, Røraas T 2020 A study of creatinine Ann Clin Biochem',
      },
    ]);
  }
  return client;
}

const submit = () => userEvent.click(screen.getByRole('button', { name: 'Submit' }));

afterEach(() => vi.unstubAllGlobals());

// Typed one key at a time through a large form: seconds per test on a loaded machine.
describe('DatasetForm', { timeout: 20_000 }, () => {
  it('starts from the defaults of spec section 4', () => {
    renderForm();
    expect(screen.getByLabelText('QI1 Scale')).toHaveProperty('value', 'A');
    expect(screen.getByLabelText('QI14 Concentrations')).toHaveProperty('value', 'A');
    expect(screen.getByLabelText('State of Well Being')).toHaveProperty('value', '1');
    expect(screen.getByLabelText('Ethnicity')).toHaveProperty('value', '6');
    expect(screen.getByLabelText('Interval Units')).toHaveProperty('value', 'Week');
    expect(screen.getByLabelText('Study Duration Units')).toHaveProperty('value', 'Week');
    expect(screen.getByLabelText('Sex for Meta-Analysis')).toHaveProperty('value', 'Males');
    expect(screen.getByLabelText('Published')).toHaveProperty('checked', false);
    // Decision 099: a direct study analysed by ANOVA unless the curator records otherwise.
    expect(screen.getByLabelText('Evidence Class')).toHaveProperty('value', 'direct-anova');
    // QI10 allows only A, C and NA.
    const qi10 = screen.getByLabelText('QI10 Variance Homogeneity');
    expect([...qi10.querySelectorAll('option')].map((o) => o.value)).toEqual(['A', 'C', 'NA']);
  });

  it('shows the required-field and number messages, and sends nothing', async () => {
    const { onSubmit } = renderForm();
    await userEvent.type(screen.getByLabelText('Age Min'), '-2');
    await submit();
    expect(await screen.findByText(DATASET_MESSAGES.reference)).toBeTruthy();
    expect(screen.getByText(DATASET_MESSAGES.uniqueIdentifier)).toBeTruthy();
    expect(screen.getByText(DATASET_MESSAGES.matrix)).toBeTruthy();
    expect(screen.getByText(DATASET_MESSAGES.nonNegative)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('shows the disease picker only for a Non-healthy population and requires a disease there', async () => {
    const { onSubmit } = renderForm();
    expect(screen.queryByText('Disease States')).toBeNull();
    await userEvent.selectOptions(screen.getByLabelText('State of Well Being'), '2');
    expect(screen.getByText('Disease States')).toBeTruthy();
    await submit();
    expect(await screen.findByText(DATASET_MESSAGES.diseaseStates)).toBeTruthy();
    await userEvent.selectOptions(screen.getByLabelText('State of Well Being'), '1');
    expect(screen.queryByText('Disease States')).toBeNull();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('needs both sampling times or neither', async () => {
    renderForm();
    await userEvent.type(screen.getByLabelText('Sampling Start Time'), '07:00');
    await submit();
    expect(await screen.findByText(DATASET_MESSAGES.samplingTimes)).toBeTruthy();
  });

  it('sends the payload: numbers, nulls for blanks, 0/1 flags, disease ids of a Non-healthy population', async () => {
    const { onSubmit } = renderForm();
    await userEvent.selectOptions(screen.getByLabelText('Measurand'), '7');
    await userEvent.type(screen.getByRole('combobox', { name: 'Reference' }), 'doe 2020');
    await userEvent.click(screen.getByRole('option', { name: 'Doe (2020) A study' }));
    await userEvent.type(screen.getByLabelText('Unique Identifier'), '  ID-1 ');
    await userEvent.selectOptions(screen.getByLabelText('Matrix'), '1');
    await userEvent.selectOptions(screen.getByLabelText('State of Well Being'), '2');
    await userEvent.click(screen.getByLabelText('Chronic kidney disease'));
    await userEvent.type(screen.getByLabelText('Estimate of CVI (%)'), '5.5');
    await userEvent.click(screen.getByLabelText('Published'));
    await userEvent.selectOptions(screen.getByLabelText('Evidence Class'), 'direct-bayesian');
    await submit();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({
      analyte_id: 7,
      reference_id: 3,
      unique_identifier: 'ID-1',
      matrix_id: 1,
      state_of_well_being_id: 2,
      disease_state_ids: [2],
      estimates_of_cvi: 5.5,
      age_min: null,
      published: 1,
      healthy: 0,
      scale: 'A',
      interval_units: 'Week',
      evidence_class: 'direct-bayesian',
    });
  }, 20_000); // many fields typed one key at a time: slow on a loaded machine

  it('finds the reference by any author, the year or words of the title, by keyboard too', async () => {
    renderForm();
    const box = screen.getByRole('combobox', { name: 'Reference' });
    const list = () => within(screen.getByRole('listbox', { name: 'References', hidden: true }));
    const names = () =>
      list()
        .queryAllByRole('option', { hidden: true })
        .map((o) => o.textContent);
    await userEvent.type(box, 'roraas');
    expect(names()).toEqual(['Doe (2020) A study']);
    await userEvent.clear(box);
    await userEvent.type(box, '2018');
    expect(names()).toEqual(['Roe et al. (2018) Sodium in sweat']);
    await userEvent.clear(box);
    await userEvent.type(box, 'sweat sodium');
    expect(names()).toEqual(['Roe et al. (2018) Sodium in sweat']);
    await userEvent.clear(box);
    await userEvent.type(box, 'nothing like it');
    expect(names()).toEqual(['No reference matches']);
    await userEvent.clear(box);
    await userEvent.type(box, 'study');
    expect(box.getAttribute('aria-expanded')).toBe('true');
    await userEvent.keyboard('{ArrowDown}');
    expect(box.getAttribute('aria-activedescendant')).toBe(list().getByRole('option').id);
    await userEvent.keyboard('{Enter}');
    expect(box).toHaveProperty('value', 'Doe (2020) A study');
    expect(box.getAttribute('aria-expanded')).toBe('false');
  });

  it('replaces the reference dropdown with red text when the list fails to load', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}', { status: 503, statusText: 'Service Unavailable' })),
    );
    renderForm({ references: 'none' });
    expect(await screen.findByText('Failed to load references: Service Unavailable')).toBeTruthy();
    expect(screen.queryByLabelText('Reference')).toBeNull();
  });
});

describe('copying a dataset', () => {
  const source = DatasetFormInputSchema.parse({
    ...DEFAULT_DATASET_VALUES,
    analyte_id: '7',
    reference_id: '3',
    unique_identifier: 'NA-2020-1',
    matrix_id: '1',
  }) as unknown as DatasetValues;

  function renderCopy() {
    const client = formClient();
    client.setQueryData(sessionQuery.queryKey, { user: null, user_id: 1, csrf_token: 't' });
    const fetch = vi.fn(
      async () =>
        new Response(JSON.stringify({ dataset: { id: 99, unique_identifier: 'NA-2020-1 (copy)' } }), {
          status: 201,
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetch);
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <CreateDataset from={{ id: 5, version: 1, updated_at: '', bv_specification: source }} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    return { fetch };
  }

  it("says a copy needs its own Unique Identifier, and sends nothing while it keeps the source's", async () => {
    const { fetch } = renderCopy();
    expect(screen.getByLabelText('Unique Identifier')).toHaveProperty('value', 'NA-2020-1');
    await submit();
    expect(
      await screen.findByText(
        'A copy needs its own Unique Identifier: "NA-2020-1" is the one of the dataset it was copied from (same reference and measurand).',
      ),
    ).toBeTruthy();
    expect(screen.getByLabelText('Unique Identifier').className).toContain('is-invalid');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('a changed case or spaces is still the same identifier; its own one is sent', async () => {
    const { fetch } = renderCopy();
    const uid = screen.getByLabelText('Unique Identifier');
    await userEvent.clear(uid);
    await userEvent.type(uid, ' na-2020-1 ');
    await submit();
    expect(await screen.findByText(/A copy needs its own Unique Identifier/)).toBeTruthy();
    await userEvent.clear(uid);
    await userEvent.type(uid, 'NA-2020-1 (copy)');
    await submit();
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
  });
});
