import { QUALITY_ITEMS } from '@bvdb/domain';
import { z } from 'zod';
import { errorsFor, IdParamsSchema, isoDateSchema, PositiveInt4Schema } from './common.js';
import { ADMINS, ANY_ROLE, defineRoute, STAFF } from './route.js';

const ITEM_KEYS = QUALITY_ITEMS.map((i) => i.key) as [string, ...string[]];
export const QualityItemKeySchema = z.enum(ITEM_KEYS);

/** The 14 items' grades as stored (every item present). */
export const GradeSetSchema = z.record(z.string(), z.string());
/** A comment per item (items without one are left out). */
export const CommentSetSchema = z.record(z.string(), z.string());

export const AppraisalSlotSchema = z.enum(['A', 'B', 'third']);
export type AppraisalSlot = z.infer<typeof AppraisalSlotSchema>;
export const RoundStateSchema = z.enum(['unassigned', 'waiting', 'disputed', 'final']);
export type RoundState = z.infer<typeof RoundStateSchema>;

const DatasetBriefSchema = z.object({
  id: z.number().int(),
  unique_identifier: z.string(),
  analyte_id: z.number().int(),
  analyte: z.string(),
  matrix: z.string().nullable(),
});

const ReferenceBriefSchema = z.object({
  id: z.number().int(),
  title: z.string().nullable(),
  author: z.string().nullable(),
  journal: z.string().nullable(),
  year_of_publication: z.number().int().nullable(),
  doi: z.string().nullable(),
  pubmed_link: z.string().nullable(),
  file_url: z.string().nullable().describe('The article file (PDF) when one is stored'),
});

/** What the assessor of one appraisal sees: the dataset, the paper, and only their own grades. */
export const MyAppraisalSchema = z.object({
  id: z.number().int(),
  round_id: z.number().int(),
  slot: AppraisalSlotSchema,
  version: z.number().int().describe('Send it back with the submission; 409 when it changed'),
  status: z.enum(['waiting', 'submitted']),
  assigned_at: z.string(),
  submitted_at: z.string().nullable(),
  round_state: RoundStateSchema,
  dataset: DatasetBriefSchema,
  reference: ReferenceBriefSchema,
  grades: GradeSetSchema.nullable().describe('Your own grades, once submitted'),
  comments: CommentSetSchema.nullable(),
  disputed_items: z
    .array(QualityItemKeySchema)
    .describe('Third assessor only: the items A and B graded differently'),
  others: z
    .array(z.object({ slot: AppraisalSlotSchema, grades: GradeSetSchema, comments: CommentSetSchema }))
    .describe('Third assessor only: the two first appraisals, both submitted. Empty for A and B'),
});
export type MyAppraisal = z.infer<typeof MyAppraisalSchema>;

export const listMyAppraisals = defineRoute({
  method: 'GET',
  path: '/api/appraisals/mine',
  summary: "The caller's appraisals: waiting ones first, then the submitted ones",
  tags: ['appraisals'],
  access: ANY_ROLE,
  responses: { 200: z.object({ data: z.array(MyAppraisalSchema) }), ...errorsFor(401, 403) },
});

export const getMyAppraisal = defineRoute({
  method: 'GET',
  path: '/api/appraisals/:id',
  summary: 'One appraisal of the caller (403 when it is assigned to someone else)',
  tags: ['appraisals'],
  access: ANY_ROLE,
  params: IdParamsSchema,
  responses: { 200: MyAppraisalSchema, ...errorsFor(400, 401, 403, 404) },
});

const gradeInput = z.string().max(8);
const commentInput = z.string().max(4000);
export const SubmitAppraisalBodySchema = z
  .object({
    version: PositiveInt4Schema,
    grades: z.partialRecord(QualityItemKeySchema, gradeInput),
    comments: z.partialRecord(QualityItemKeySchema, commentInput).optional(),
  })
  .strict();
export type SubmitAppraisalBody = z.infer<typeof SubmitAppraisalBodySchema>;

export const submitAppraisal = defineRoute({
  method: 'PUT',
  path: '/api/appraisals/:id',
  summary:
    'Submit an appraisal: A and B grade all 14 items, the third assessor the disputed ones. 422 names ' +
    'an item whose grade is not allowed; 403 when not assigned to the caller; 409 when already submitted or changed',
  tags: ['appraisals'],
  access: ANY_ROLE,
  params: IdParamsSchema,
  body: SubmitAppraisalBodySchema,
  responses: { 200: MyAppraisalSchema, ...errorsFor(400, 401, 403, 404, 409, 422) },
});

export const BoardAssessorSchema = z.object({
  slot: AppraisalSlotSchema,
  appraisal_id: z.number().int(),
  user_id: z.number().int(),
  email: z.string(),
  name: z.string().nullable(),
  assigned_at: z.string(),
  submitted_at: z.string().nullable(),
});

export const BoardRowSchema = z.object({
  round_id: z.number().int(),
  version: z.number().int(),
  state: RoundStateSchema,
  waiting_for: z.array(AppraisalSlotSchema).describe('Assigned slots not yet submitted'),
  opened_at: z.string(),
  state_changed_at: z.string(),
  age_days: z.number().int().describe('Whole days in the present state'),
  finalized_at: z.string().nullable(),
  dataset: DatasetBriefSchema,
  reference_title: z.string().nullable(),
  entered_by: z.number().int().nullable().describe('Who entered the dataset (from the audit trail)'),
  assessors: z.array(BoardAssessorSchema),
  disputed_items: z.array(QualityItemKeySchema).describe('Once both first appraisals are in'),
});
export type BoardRow = z.infer<typeof BoardRowSchema>;

export const AssessorOptionSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string().nullable(),
  role: z.string(),
});

export const getAppraisalBoard = defineRoute({
  method: 'GET',
  path: '/api/appraisal_rounds',
  summary:
    "The curators' board: open rounds by state (unassigned, waiting, disputed) and the final ones, with ages; and who may be assigned. No grades before a round is final",
  tags: ['appraisals'],
  access: STAFF,
  query: z.object({ state: RoundStateSchema.optional() }).strict(),
  responses: {
    200: z.object({ data: z.array(BoardRowSchema), assessors: z.array(AssessorOptionSchema) }),
    ...errorsFor(400, 401, 403),
  },
});

export const openAppraisal = defineRoute({
  method: 'POST',
  path: '/api/bv_specifications/:id/appraisal',
  summary:
    'Send a dataset to appraisal: a new round, unassigned. Its present grades stay in the meta-analyses until the new ones are final. 409 when a round is open',
  tags: ['appraisals'],
  access: STAFF,
  params: IdParamsSchema,
  responses: { 201: BoardRowSchema, ...errorsFor(400, 401, 403, 404, 409) },
});

export const AssignAssessorBodySchema = z
  .object({
    version: PositiveInt4Schema.describe("The round's version you saw"),
    slot: AppraisalSlotSchema,
    assessor_id: PositiveInt4Schema,
  })
  .strict();
export type AssignAssessorBody = z.infer<typeof AssignAssessorBodySchema>;

export const assignAssessor = defineRoute({
  method: 'PUT',
  path: '/api/appraisal_rounds/:id/assessors',
  summary:
    'Assign (or reassign) the assessor of a slot: A or B while the round is open, the third once it is disputed. ' +
    'A submitted appraisal is kept: its slot cannot be reassigned (409). Never the one who entered the dataset while another assessor is available (422)',
  tags: ['appraisals'],
  access: STAFF,
  params: IdParamsSchema,
  body: AssignAssessorBodySchema,
  responses: { 200: BoardRowSchema, ...errorsFor(400, 401, 403, 404, 409, 422) },
});

const DateSchema = isoDateSchema('must be a date YYYY-MM-DD');

export const AgreementItemSchema = z.object({
  key: QualityItemKeySchema,
  number: z.number().int(),
  label: z.string(),
  pairs: z.number().int().describe('First appraisals (A and B) compared'),
  agreed_share: z.number().nullable().describe('Share of pairs with the same grade (null without pairs)'),
  kappa: z.number().nullable().describe("Cohen's kappa (null without pairs or when undefined)"),
});

export const getAgreement = defineRoute({
  method: 'GET',
  path: '/api/appraisal_agreement',
  summary:
    "Agreement of the first two appraisals per BIVAC item over rounds whose second appraisal came in within the period: share agreed and Cohen's kappa (administrators)",
  tags: ['appraisals'],
  access: ADMINS,
  query: z.object({ from: DateSchema.optional(), to: DateSchema.optional() }).strict(),
  responses: {
    200: z.object({
      from: z.string().nullable(),
      to: z.string().nullable(),
      rounds: z.number().int(),
      items: z.array(AgreementItemSchema),
    }),
    ...errorsFor(400, 401, 403),
  },
});
