import { z } from 'zod';
import {
  ErrorSchema,
  IdParamsSchema,
  RequiredVersionQuerySchema,
  errorsFor,
  IdSchema,
  PositiveInt4Schema,
} from './common.js';
import { defineRoute, STAFF } from './route.js';

export const ReferenceSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  author: z.string().nullable(),
  journal: z.string().nullable(),
  volume: z.number().int().nullable(),
  pages: z.string().nullable(),
  year_of_publication: z.number().int().nullable(),
  pubmed_link: z.string().nullable(),
  doi: z.string().nullable(),
  link: z.string().nullable(),
  link_to_spanish_database: z.number().int().describe('Shown as Article ID; 0 when none'),
  article_url: z.string().nullable(),
  article_file_name: z.string().nullable(),
  article_file_url: z
    .string()
    .nullable()
    .describe('Where the attached article PDF downloads from (null when none is attached)'),
  label: z.string().describe('Dropdown text: "First author et al. (Year) Title", missing parts left out'),
  bv_specifications_count: z
    .number()
    .int()
    .nonnegative()
    .describe('Datasets using this reference ("Used In")'),
  is_demo: z.boolean(),
  version: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Reference = z.infer<typeof ReferenceSchema>;

export const PaginationSchema = z.object({
  count: z.number().int(),
  page: z.number().int(),
  pages: z.number().int(),
  next: z.number().int().nullable(),
  prev: z.number().int().nullable(),
  from: z.number().int(),
  to: z.number().int(),
});
export type Pagination = z.infer<typeof PaginationSchema>;

export const REFERENCES_PAGE_SIZE = 10;

export const listReferences = defineRoute({
  method: 'GET',
  path: '/api/references',
  summary:
    'References. Without `page`: `{references}` (all, for dropdowns). With `page` (and optional `search`): `{data, meta.pagination}`.',
  tags: ['references'],
  access: 'public',
  query: z.object({
    page: IdSchema.optional(),
    search: z.string().max(200).optional(),
    per_page: z.coerce.number().int().min(1).max(100).optional(),
  }),
  responses: {
    200: z.union([
      z.object({ references: z.array(ReferenceSchema) }),
      z.object({ data: z.array(ReferenceSchema), meta: z.object({ pagination: PaginationSchema }) }),
    ]),
    400: ErrorSchema,
  },
});

export const getReference = defineRoute({
  method: 'GET',
  path: '/api/references/:id',
  summary: 'One reference',
  tags: ['references'],
  access: 'public',
  params: IdParamsSchema,
  responses: { 200: z.object({ reference: ReferenceSchema }), 404: ErrorSchema },
});

// ---- writes (signed-in) ----

const YEAR_MAX = 2100;
/** Optional text: absent, null or '' all mean "none" (the server stores null). */
const optionalText = (max: number, label: string) =>
  z.string().trim().max(max, `${label} must be at most ${max} characters`).nullable().optional();
const httpUrl = (label: string) =>
  z
    .string()
    .trim()
    .max(2000, `${label} must be at most 2000 characters`)
    .refine((v) => v === '' || /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(v), {
      message: `${label} must be a web address starting with http:// or https://`,
    })
    .nullable()
    .optional();

/** A DOI such as 10.1373/clinchem.2017.276741; a doi.org address or a "doi:" prefix is accepted too. */
export const DOI_PATTERN = /^10\.\d{4,9}\/\S+$/;
export function normaliseDoi(value: string): string {
  return value
    .trim()
    .replace(/^https?:\/\/(dx\.)?doi\.org\//i, '')
    .replace(/^doi:\s*/i, '');
}

export const ReferenceBodySchema = z
  .object({
    title: z.string().trim().min(1, 'Title is required').max(1000, 'Title must be at most 1000 characters'),
    author: optionalText(4000, 'Authors'),
    journal: optionalText(500, 'Journal'),
    volume: z
      .number('Volume must be a whole number')
      .int('Volume must be a whole number')
      .min(0, 'Volume must be 0 or more')
      .max(100_000, 'Volume must be at most 100000')
      .nullable()
      .optional(),
    pages: optionalText(50, 'Pages'),
    year_of_publication: z
      .number('Year of Publication must be a whole number')
      .int('Year of Publication must be a whole number')
      .min(1800, 'Year of Publication must be between 1800 and 2100')
      .max(YEAR_MAX, 'Year of Publication must be between 1800 and 2100')
      .nullable()
      .optional(),
    pubmed_link: httpUrl('Pubmed Link'),
    doi: z
      .string()
      .trim()
      .max(300, 'doi must be at most 300 characters')
      .refine((v) => v === '' || DOI_PATTERN.test(normaliseDoi(v)), {
        message: 'doi must look like 10.1234/abc (a doi.org address is accepted)',
      })
      .nullable()
      .optional(),
    link: httpUrl('Links'),
    link_to_spanish_database: z
      .number('Article ID must be a whole number')
      .int('Article ID must be a whole number')
      .min(0, 'Article ID must be 0 or more')
      .max(2_000_000_000, 'Article ID is too large')
      .optional(),
    article_url: httpUrl('Article address'),
  })
  .strict();
export type ReferenceBody = z.infer<typeof ReferenceBodySchema>;

export const UpdateReferenceBodySchema = ReferenceBodySchema.extend({
  version: PositiveInt4Schema,
}).strict();

export const createReference = defineRoute({
  method: 'POST',
  path: '/api/references',
  summary: 'Create a reference',
  tags: ['references'],
  access: STAFF,
  body: ReferenceBodySchema,
  responses: {
    201: z.object({ reference: ReferenceSchema }),
    ...errorsFor(400, 401, 403, 409),
  },
});

export const updateReference = defineRoute({
  method: 'PUT',
  path: '/api/references/:id',
  summary:
    'Edit a reference. `version` is the one the edit started from; 409 with `current` when someone saved after it',
  tags: ['references'],
  access: STAFF,
  params: IdParamsSchema,
  body: UpdateReferenceBodySchema,
  responses: {
    200: z.object({ reference: ReferenceSchema }),
    ...errorsFor(400, 401, 403, 404, 409),
  },
});

export const deleteReference = defineRoute({
  method: 'DELETE',
  path: '/api/references/:id',
  summary:
    'Delete a reference (and its file); 409 while datasets still use it. `version` (the one the person saw) is required: 409 with `current` when it changed since, 400 without it',
  tags: ['references'],
  access: STAFF,
  params: IdParamsSchema,
  query: RequiredVersionQuerySchema,
  responses: {
    200: z.object({ code: z.literal('success') }),
    ...errorsFor(400, 401, 403, 404, 409),
  },
});

/** Article files: PDF only, at most this many bytes. */
export const REFERENCE_FILE_MAX_BYTES = 20 * 1024 * 1024;

export const uploadReferenceFile = defineRoute({
  method: 'POST',
  path: '/api/references/:id/file',
  summary:
    'Attach the article PDF (multipart/form-data, one part named `file`, 20 MB at most); replaces any earlier file',
  tags: ['references'],
  access: STAFF,
  params: IdParamsSchema,
  responses: {
    200: z.object({ reference: ReferenceSchema }),
    ...errorsFor(400, 401, 403, 404, 422),
  },
});

export const deleteReferenceFile = defineRoute({
  method: 'DELETE',
  path: '/api/references/:id/file',
  summary: 'Remove the article file of a reference',
  tags: ['references'],
  access: STAFF,
  params: IdParamsSchema,
  responses: {
    200: z.object({ reference: ReferenceSchema }),
    ...errorsFor(401, 403, 404),
  },
});

export const getReferenceFile = defineRoute({
  method: 'GET',
  path: '/api/references/:id/file',
  summary: 'Download the article PDF of a reference (as an attachment)',
  tags: ['references'],
  access: 'public',
  params: IdParamsSchema,
  produces: 'application/pdf',
  responses: { 200: z.unknown().describe('The PDF'), 404: ErrorSchema },
});

export const referenceFileUrl = (id: number) => `/api/references/${id}/file`;
