import { DATASET_MESSAGES } from '@bvdb/contract';
import { and, count, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  analytes,
  bvSpecifications,
  metaCalculations,
  metaRecomputeRequests,
  references,
} from '../../db/schema.js';
import { createSignedInTestApp, type SignedIn } from '../../test/sign-in.js';
import type { TestContext } from '../../test/test-app.js';

let ctx: TestContext;
let s: SignedIn;
let analyteId: number;
let referenceId: number;

beforeAll(async () => {
  ({ ctx, s } = await createSignedInTestApp());
  const [a] = await ctx.database.db.select().from(analytes).limit(1);
  const [r] = await ctx.database.db.select().from(references).limit(1);
  analyteId = a!.id;
  referenceId = r!.id;
});
afterAll(async () => ctx.close());

const GRADES_A = Object.fromEntries(
  [
    'scale',
    'study_population',
    'samples',
    'measurand',
    'pre_analytical',
    'replicate_analysis',
    'steady_state',
    'outlier_analysis',
    'normality',
    'variance_homogeneity',
    'anova',
    'ci',
    'number_of_results',
    'concentrations',
  ].map((k) => [k, 'A']),
);

const valid = (over: Record<string, unknown> = {}) => ({
  analyte_id: analyteId,
  reference_id: referenceId,
  unique_identifier: `  TEST-${Math.random().toString(36).slice(2, 8)}  `,
  matrix_id: 1,
  ...GRADES_A,
  scoring_comment: '',
  age_min: 20,
  age_max: 60,
  age_mean: '',
  age_sd: null,
  state_of_well_being_id: 1,
  disease_state_ids: [],
  ethnicity_id: 6,
  study_duration: 10,
  study_duration_units: 'Week',
  number_of_subjects: 20,
  number_of_males: 10,
  number_of_females: 10,
  number_of_subjects_included_in_bv_estimation: 18,
  samples_per: 1,
  interval_units: 'Week',
  sampling_times_start_time: '07:00',
  sampling_times_end_time: '09:00',
  average_number_of_samples_used_for_bv_estimation: 8,
  average_number_of_replicates: 2,
  preanalytical_issues: '',
  estimates_of_cvi: 5.5,
  reported_cvi_lower_confidence_interval: null,
  reported_cvi_upper_confidence_interval: null,
  estimates_of_cvg: 12,
  reported_cvg_lower_confidence_interval: 10,
  reported_cvg_upper_confidence_interval: 15,
  analytical_cv: 2,
  concentration_mean: 140,
  concentration_min: '',
  concentration_max: '',
  concentration_sd: '',
  concentration_standard_unit_mean: '',
  concentration_standard_unit_min: '',
  concentration_standard_unit_max: '',
  concentration_standard_unit_sd: '',
  snomed_ct: '',
  npu: '',
  loinc: '',
  healthy: 1,
  adult: 1,
  weekly_samplings: 1,
  review: 0,
  published: 1,
  include_in_meta_analysis: 0,
  sex_for_meta_analysis: 'Mixed',
  comment: 'Created by a test',
  ...over,
});

interface Form {
  id: number;
  version: number;
  bv_specification: Record<string, unknown>;
}
interface ErrorBody {
  message: string;
  fields?: { path: string; message: string }[];
  current?: Form;
}

const post = (body: unknown, headers: Record<string, string> = s.headers) =>
  ctx.app.inject({ method: 'POST', url: '/bv_specifications', payload: body as object, headers });
const put = (id: number, body: unknown) =>
  ctx.app.inject({
    method: 'PUT',
    url: `/bv_specifications/${id}`,
    payload: body as object,
    headers: s.headers,
  });
const form = async (id: number) =>
  (
    await ctx.app.inject({ url: `/api/bv_specifications/${id}/form`, headers: { cookie: s.cookie } })
  ).json<Form>();
const countSpecs = async () => (await ctx.database.db.select({ n: count() }).from(bvSpecifications))[0]!.n;

async function create(over: Record<string, unknown> = {}): Promise<{ id: number; version: number }> {
  const res = await post({ bv_specification: valid(over) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ dataset: { id: number; version: number } }>().dataset;
}

/** The message of one field, from a 400/422 answer. */
const fieldMessage = (body: ErrorBody, field: string) =>
  body.fields?.find((f) => f.path === `body.bv_specification.${field}`)?.message;

describe('access', () => {
  it('anonymous 401, signed in without the CSRF header 403, nothing stored', async () => {
    const before = await countSpecs();
    expect((await post({ bv_specification: valid() }, {})).statusCode).toBe(401);
    expect((await post({ bv_specification: valid() }, { cookie: s.cookie })).statusCode).toBe(403);
    expect((await ctx.app.inject({ url: '/api/bv_specifications/1/form' })).statusCode).toBe(401);
    expect(
      (await ctx.app.inject({ method: 'PUT', url: '/bv_specifications/1', payload: {} })).statusCode,
    ).toBe(401);
    expect(
      (await ctx.app.inject({ method: 'DELETE', url: '/api/bv_specifications/1?version=1' })).statusCode,
    ).toBe(401);
    expect(
      (
        await ctx.app.inject({
          method: 'DELETE',
          url: '/api/bv_specifications/1?version=1',
          headers: { cookie: s.cookie },
        })
      ).statusCode,
    ).toBe(403);
    expect(await countSpecs()).toBe(before);
  });
});

describe('POST /bv_specifications', () => {
  it('creates a dataset visible in the read API, with a trimmed identifier and an audit entry', async () => {
    const res = await post({
      bv_specification: valid({ unique_identifier: '  NEW-1  ', disease_state_ids: [] }),
    });
    expect(res.statusCode).toBe(201);
    const { dataset } = res.json<{ dataset: Record<string, unknown> & { id: number } }>();
    expect(dataset).toMatchObject({
      unique_identifier: 'NEW-1',
      analyte_id: analyteId,
      reference_id: referenceId,
      age_mean: null,
      concentration_min: null,
      healthy: 1,
      include_in_meta_analysis: 0,
      sampling_interval: '1 per week',
      version: 1,
      is_demo: false,
    });
    // The CI of the CVI is calculated from the design when the paper gives none.
    expect(dataset.calculated_within_bv_lower_ci).toEqual(expect.any(Number));

    const read = await ctx.app.inject({ url: `/api/bv_specifications/${dataset.id}` });
    expect(read.statusCode).toBe(200);
    expect(read.json<{ dataset: { unique_identifier: string } }>().dataset.unique_identifier).toBe('NEW-1');

    const history = await ctx.app.inject({
      url: `/api/audit/bv_specification/${dataset.id}`,
      headers: { cookie: s.cookie },
    });
    const entries = history.json<{
      data: { action: string; user_email: string; after: Record<string, unknown> }[];
    }>().data;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'create', user_email: 'admin@example.org' });
    expect(entries[0]!.after.unique_identifier).toBe('NEW-1');
  });

  it('records the evidence class: direct ANOVA when not given, another class when entered, edited back (decision 099)', async () => {
    const plain = await create();
    expect((await form(plain.id)).bv_specification.evidence_class).toBe('direct-anova');
    const blank = await create({ evidence_class: '' });
    expect((await form(blank.id)).bv_specification.evidence_class).toBe('direct-anova');

    const res = await post({ bv_specification: valid({ evidence_class: 'direct-bayesian' }) });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<{ dataset: { id: number; evidence_class: string } }>().dataset;
    expect(created.evidence_class).toBe('direct-bayesian');
    const f = await form(created.id);
    const edited = await put(created.id, {
      bv_specification: { ...f.bv_specification, evidence_class: 'indirect' },
      version: f.version,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const read = await ctx.app.inject({ url: `/api/bv_specifications/${created.id}` });
    expect(read.json<{ dataset: { evidence_class: string } }>().dataset.evidence_class).toBe('indirect');
    const [row] = await ctx.database.db
      .select({ evidenceClass: bvSpecifications.evidenceClass })
      .from(bvSpecifications)
      .where(eq(bvSpecifications.id, created.id));
    expect(row!.evidenceClass).toBe('indirect');
  });

  it('refuses an evidence class that is not one of the three, naming them', async () => {
    const before = await countSpecs();
    const res = await post({ bv_specification: valid({ evidence_class: 'bayesian' }) });
    expect(res.statusCode).toBe(400);
    expect(fieldMessage(res.json<ErrorBody>(), 'evidence_class')).toBe(
      'Must be one of: direct-anova, direct-bayesian, indirect.',
    );
    expect(await countSpecs()).toBe(before);
  });

  it('accepts true/false flags and stores them as 0/1 (decision 001)', async () => {
    const d = await create({ healthy: true, published: false });
    const f = await form(d.id);
    expect(f.bv_specification).toMatchObject({ healthy: 1, published: 0 });
  });

  it('stores a <script> tag as the literal text', async () => {
    const text = '<script>alert("x")</script> & <b>bold</b>';
    const d = await create({ comment: text, unique_identifier: '<script>1</script>' });
    const read = await ctx.app.inject({ url: `/api/bv_specifications/${d.id}` });
    expect(read.json<{ dataset: { comment: string; unique_identifier: string } }>().dataset).toMatchObject({
      comment: text,
      unique_identifier: '<script>1</script>',
    });
    expect(read.headers['content-type']).toContain('application/json');
  });

  it.each([
    ['reference_id', { reference_id: null }, DATASET_MESSAGES.reference],
    ['reference_id', { reference_id: '' }, DATASET_MESSAGES.reference],
    ['unique_identifier', { unique_identifier: '   ' }, DATASET_MESSAGES.uniqueIdentifier],
    ['matrix_id', { matrix_id: null }, DATASET_MESSAGES.matrix],
    ['age_min', { age_min: -1 }, DATASET_MESSAGES.nonNegative],
    ['estimates_of_cvi', { estimates_of_cvi: -0.1 }, DATASET_MESSAGES.nonNegative],
    ['number_of_subjects', { number_of_subjects: 'twenty' }, DATASET_MESSAGES.nonNegative],
    ['concentration_sd', { concentration_sd: -5 }, DATASET_MESSAGES.nonNegative],
    [
      'disease_state_ids',
      { state_of_well_being_id: 2, disease_state_ids: [] },
      DATASET_MESSAGES.diseaseStates,
    ],
    [
      'sampling_times_end_time',
      { sampling_times_start_time: '07:00', sampling_times_end_time: '' },
      DATASET_MESSAGES.samplingTimes,
    ],
    [
      'sampling_times_start_time',
      { sampling_times_start_time: null, sampling_times_end_time: '08:00' },
      DATASET_MESSAGES.samplingTimes,
    ],
    ['scale', { scale: 'C' }, 'QI1 Scale: grade C is not allowed (allowed: A, B, NA).'],
    [
      'variance_homogeneity',
      { variance_homogeneity: 'B' },
      'QI10 Variance Homogeneity: grade B is not allowed (allowed: A, C, NA).',
    ],
    ['ci', { ci: 'D' }, 'QI12 Confidence Limits: grade D is not allowed (allowed: A, C, NA).'],
    ['healthy', { healthy: 2 }, 'Must be 0 or 1.'],
    [
      'interval_units',
      { interval_units: 'Fortnight' },
      'Must be one of: Week, Month, Day, Hour, Year, Other.',
    ],
  ])('400 on %s with the message of the spec, nothing stored', async (field, over, message) => {
    const before = await countSpecs();
    const res = await post({ bv_specification: valid(over) });
    expect(res.statusCode).toBe(400);
    expect(fieldMessage(res.json<ErrorBody>(), field)).toBe(message);
    expect(await countSpecs()).toBe(before);
  });

  it('reports every field message at once, the cross-field rules included', async () => {
    const res = await post({
      bv_specification: valid({
        reference_id: null,
        age_max: -3,
        state_of_well_being_id: 2,
        disease_state_ids: [],
        sampling_times_start_time: '',
      }),
    });
    const body = res.json<ErrorBody>();
    expect(fieldMessage(body, 'reference_id')).toBe(DATASET_MESSAGES.reference);
    expect(fieldMessage(body, 'age_max')).toBe(DATASET_MESSAGES.nonNegative);
    expect(fieldMessage(body, 'disease_state_ids')).toBe(DATASET_MESSAGES.diseaseStates);
    expect(fieldMessage(body, 'sampling_times_start_time')).toBe(DATASET_MESSAGES.samplingTimes);
  });

  it('400 on unknown fields, at the top and inside the payload', async () => {
    const before = await countSpecs();
    const inner = await post({ bv_specification: valid({ is_demo: true }) });
    expect(inner.statusCode).toBe(400);
    expect(inner.json<ErrorBody>().message).toContain('is_demo');
    const outer = await post({ bv_specification: valid(), extra: 1 });
    expect(outer.statusCode).toBe(400);
    expect(await countSpecs()).toBe(before);
  });

  it('400 on a body that is not the payload, 413 on one past the body limit', async () => {
    expect((await post({})).statusCode).toBe(400);
    expect((await post({ bv_specification: 'x' })).statusCode).toBe(400);
    const huge = await post({ bv_specification: valid({ comment: 'x'.repeat(1_100_000) }) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json<{ message: string }>().message).toBe('The request body is too large (1 MB at most)');
    const long = await post({ bv_specification: valid({ comment: 'x'.repeat(5000) }) });
    expect(long.statusCode).toBe(400);
    expect(fieldMessage(long.json<ErrorBody>(), 'comment')).toBe('Must be at most 4000 characters.');
  });

  it.each([
    ['reference_id', { reference_id: 999_999 }],
    ['analyte_id', { analyte_id: 999_999 }],
    ['matrix_id', { matrix_id: 999 }],
    ['unit_id', { unit_id: 999_999 }],
    ['ethnicity_id', { ethnicity_id: 99 }],
    ['state_of_well_being_id', { state_of_well_being_id: 99 }],
    ['disease_state_ids', { state_of_well_being_id: 2, disease_state_ids: [1, 999] }],
    ['overall_principle_method_id', { overall_principle_method_id: 999_999 }],
  ])('422 with a field message on an unknown %s, nothing stored', async (field, over) => {
    const before = await countSpecs();
    const res = await post({ bv_specification: valid(over) });
    expect(res.statusCode).toBe(422);
    expect(fieldMessage(res.json<ErrorBody>(), field)).toMatch(/^There is no .* with id/);
    expect(await countSpecs()).toBe(before);
  });

  it('a copy saved with the Unique Identifier of its source (same reference and measurand) is 422, nothing stored', async () => {
    await create({ unique_identifier: 'COPY-SRC-1' });
    const before = await countSpecs();
    const res = await post({ bv_specification: valid({ unique_identifier: ' copy-src-1 ' }) });
    expect(res.statusCode).toBe(422);
    expect(fieldMessage(res.json<ErrorBody>(), 'unique_identifier')).toMatch(
      /^Dataset \d+ of this reference and measurand already has the Unique Identifier "copy-src-1"; give this dataset its own\.$/,
    );
    expect(await countSpecs()).toBe(before);
    // Its own identifier saves; so does the same identifier for another measurand.
    await create({ unique_identifier: 'COPY-SRC-1 (copy)' });
    const [other] = await ctx.database.db
      .select({ id: analytes.id })
      .from(analytes)
      .where(ne(analytes.id, analyteId))
      .limit(1);
    await create({ unique_identifier: 'COPY-SRC-1', analyte_id: other!.id });
  });

  it("an edit may keep its own Unique Identifier but not take another dataset's", async () => {
    const a = await create({ unique_identifier: 'EDIT-UID-A' });
    const b = await create({ unique_identifier: 'EDIT-UID-B' });
    const keep = await put(a.id, {
      version: a.version,
      bv_specification: valid({ unique_identifier: 'EDIT-UID-A' }),
    });
    expect(keep.statusCode, keep.body).toBe(200);
    const take = await put(b.id, {
      version: b.version,
      bv_specification: valid({ unique_identifier: 'EDIT-UID-A' }),
    });
    expect(take.statusCode).toBe(422);
  });

  it('stores the disease states of a Non-healthy population', async () => {
    const d = await create({ state_of_well_being_id: 2, disease_state_ids: [3, 1, 3], healthy: 0 });
    const read = await ctx.app.inject({ url: `/api/bv_specifications/${d.id}` });
    expect(
      read.json<{ dataset: { disease_states: { id: number }[] } }>().dataset.disease_states.map((x) => x.id),
    ).toEqual([1, 3]);
  });
});

describe('GET form, PUT and DELETE', () => {
  it('the form holds the editable values and the version', async () => {
    const d = await create({ unique_identifier: 'FORM-1', age_mean: 33.5 });
    const f = await form(d.id);
    expect(f).toMatchObject({ id: d.id, version: 1 });
    expect(f.bv_specification).toMatchObject({ unique_identifier: 'FORM-1', age_mean: 33.5, scale: 'A' });
    expect(
      (await ctx.app.inject({ url: '/api/bv_specifications/999999/form', headers: { cookie: s.cookie } }))
        .statusCode,
    ).toBe(404);
  });

  it('an edit with the current version saves, bumps the version and is audited with the changed fields', async () => {
    const d = await create({ unique_identifier: 'EDIT-1' });
    const res = await put(d.id, {
      bv_specification: valid({ unique_identifier: 'EDIT-1b', age_min: 25 }),
      version: 1,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ dataset: { version: number; unique_identifier: string } }>().dataset).toMatchObject({
      version: 2,
      unique_identifier: 'EDIT-1b',
    });
    const history = (
      await ctx.app.inject({ url: `/api/audit/bv_specification/${d.id}`, headers: { cookie: s.cookie } })
    ).json<{ data: { action: string; changed: string[] }[] }>().data;
    expect(history[0]!.action).toBe('update');
    expect(history[0]!.changed).toEqual(expect.arrayContaining(['unique_identifier', 'age_min']));
  });

  it('a stale version is 409 with the current values, and nothing is overwritten', async () => {
    const d = await create({ unique_identifier: 'CONFLICT-1' });
    const first = await put(d.id, { bv_specification: valid({ unique_identifier: 'FIRST' }), version: 1 });
    expect(first.statusCode).toBe(200);
    const second = await put(d.id, { bv_specification: valid({ unique_identifier: 'SECOND' }), version: 1 });
    expect(second.statusCode).toBe(409);
    const body = second.json<ErrorBody>();
    expect(body.current).toMatchObject({
      id: d.id,
      version: 2,
      bv_specification: { unique_identifier: 'FIRST' },
    });
    expect((await form(d.id)).bv_specification.unique_identifier).toBe('FIRST');
  });

  it('an edit with bad input is 400/422 and changes nothing', async () => {
    const d = await create({ unique_identifier: 'BAD-EDIT' });
    expect((await put(d.id, { bv_specification: valid({ age_min: -1 }), version: 1 })).statusCode).toBe(400);
    expect((await put(d.id, { bv_specification: valid({ matrix_id: 999 }), version: 1 })).statusCode).toBe(
      422,
    );
    expect((await put(d.id, { bv_specification: valid() })).statusCode).toBe(400);
    expect((await put(999_999, { bv_specification: valid(), version: 1 })).statusCode).toBe(404);
    expect(await form(d.id)).toMatchObject({
      version: 1,
      bv_specification: { unique_identifier: 'BAD-EDIT' },
    });
  });

  it('delete needs the current version; then the dataset is gone and the deletion is audited', async () => {
    const d = await create({ unique_identifier: 'DELETE-1' });
    const del = (version: number | string) =>
      ctx.app.inject({
        method: 'DELETE',
        url: `/api/bv_specifications/${d.id}?version=${version}`,
        headers: s.headers,
      });
    expect((await del('')).statusCode).toBe(400);
    expect((await del(7)).statusCode).toBe(409);
    expect((await del(1)).statusCode).toBe(200);
    expect((await ctx.app.inject({ url: `/api/bv_specifications/${d.id}` })).statusCode).toBe(404);
    expect((await del(1)).statusCode).toBe(404);
    const history = (
      await ctx.app.inject({ url: `/api/audit/bv_specification/${d.id}`, headers: { cookie: s.cookie } })
    ).json<{ data: { action: string }[] }>().data;
    expect(history.map((h) => h.action)).toEqual(['delete', 'create']);
  });
});

describe('meta-analyses follow the datasets', () => {
  /** The CVI result of a measurand's matrix: how many datasets it used. */
  async function cviUsed(aId: number, matrixId: number): Promise<number> {
    // Read once the recompute worker has drained what the writes asked for (decision 048).
    await ctx.app.deps.recompute.settle();
    const [m] = await ctx.database.db
      .select({ n: metaCalculations.numberUsed })
      .from(metaCalculations)
      .where(
        and(
          eq(metaCalculations.analyteId, aId),
          eq(metaCalculations.matrixId, matrixId),
          eq(metaCalculations.varType, ':cvi'),
        ),
      );
    return m?.n ?? 0;
  }

  it('excluding, including, creating and deleting a dataset recompute its measurand', async () => {
    const [included] = await ctx.database.db
      .select()
      .from(bvSpecifications)
      .where(and(eq(bvSpecifications.includeInMetaAnalysis, true), eq(bvSpecifications.isDemo, true)))
      .limit(1);
    const spec = included!;
    const before = await cviUsed(spec.analyteId, spec.matrixId);
    expect(before).toBeGreaterThan(0);

    const f = await form(spec.id);
    const excluded = await put(spec.id, {
      bv_specification: { ...f.bv_specification, include_in_meta_analysis: 0 },
      version: f.version,
    });
    expect(excluded.statusCode, excluded.body).toBe(200);
    expect(await cviUsed(spec.analyteId, spec.matrixId)).toBe(before - 1);

    const again = await form(spec.id);
    await put(spec.id, {
      bv_specification: { ...again.bv_specification, include_in_meta_analysis: 1 },
      version: again.version,
    });
    expect(await cviUsed(spec.analyteId, spec.matrixId)).toBe(before);

    // A new included dataset with a CI joins the result; deleting it takes it out again.
    // (a study of its own: the meta-analysis counts one estimate per reference)
    const [ownReference] = await ctx.database.db
      .insert(references)
      .values({ title: 'A study of its own' })
      .returning();
    const extra = await create({
      reference_id: ownReference!.id,
      analyte_id: spec.analyteId,
      matrix_id: spec.matrixId,
      include_in_meta_analysis: 1,
      reported_cvi_lower_confidence_interval: 4,
      reported_cvi_upper_confidence_interval: 7,
    });
    expect(await cviUsed(spec.analyteId, spec.matrixId)).toBe(before + 1);
    const gone = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/bv_specifications/${extra.id}?version=${extra.version}`,
      headers: s.headers,
    });
    expect(gone.statusCode).toBe(200);
    expect(await cviUsed(spec.analyteId, spec.matrixId)).toBe(before);
  });

  it('a save asks through the door with its cause, and only the worker changes the result', async () => {
    const [included] = await ctx.database.db
      .select()
      .from(bvSpecifications)
      .where(and(eq(bvSpecifications.includeInMetaAnalysis, true), eq(bvSpecifications.isDemo, true)))
      .limit(1);
    const spec = included!;
    const before = await cviUsed(spec.analyteId, spec.matrixId);
    const f = await form(spec.id);
    const saved = await put(spec.id, {
      bv_specification: { ...f.bv_specification, include_in_meta_analysis: 0 },
      version: f.version,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // Committed with the save: the request and why (the dataset, by the role of who saved it).
    expect(await ctx.database.db.select().from(metaRecomputeRequests)).toEqual([
      expect.objectContaining({
        analyteId: spec.analyteId,
        causeKind: 'dataset',
        causeDatasetId: spec.id,
        causeRole: 'admin',
      }),
    ]);
    // No inline recompute: the stored result is the old one until the worker drains the request.
    const [stored] = await ctx.database.db
      .select({ n: metaCalculations.numberUsed })
      .from(metaCalculations)
      .where(
        and(
          eq(metaCalculations.analyteId, spec.analyteId),
          eq(metaCalculations.matrixId, spec.matrixId),
          eq(metaCalculations.varType, ':cvi'),
        ),
      );
    expect(stored!.n).toBe(before);
    expect(await cviUsed(spec.analyteId, spec.matrixId)).toBe(before - 1);
    expect(await ctx.database.db.select().from(metaRecomputeRequests)).toEqual([]);
    const again = await form(spec.id);
    await put(spec.id, {
      bv_specification: { ...again.bv_specification, include_in_meta_analysis: 1 },
      version: again.version,
    });
    expect(await cviUsed(spec.analyteId, spec.matrixId)).toBe(before);
  });
});
