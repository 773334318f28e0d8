import { z } from 'zod';
import { ErrorSchema, IdParamsSchema } from './common.js';
import { defineRoute } from './route.js';

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
  label: z.string().describe('Dropdown text: "Author (year) Title"'),
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
    page: z.coerce.number().int().positive().optional(),
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
