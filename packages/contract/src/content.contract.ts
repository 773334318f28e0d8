import { z } from 'zod';
import { ErrorSchema, errorsFor, PositiveInt4Schema } from './common.js';
import { defineRoute, STAFF } from './route.js';

export const CONTENT_SLUGS = [
  'about',
  'eflm-wg',
  'publication_structure',
  'background',
  'disclaimer',
] as const;
export const ContentSlugSchema = z.enum(CONTENT_SLUGS);
export type ContentSlug = z.infer<typeof ContentSlugSchema>;

/** The WordPress REST shape (`title.rendered`, `content.rendered`), whichever source is behind. */
export const ContentPageSchema = z.object({
  id: z.number().int(),
  slug: ContentSlugSchema,
  title: z.object({ rendered: z.string() }),
  content: z.object({ rendered: z.string().describe('Sanitised HTML') }),
  source: z.enum(['builtin', 'remote', 'remote-cache']),
  markdown: z.string().nullable().describe('The editable source of a built-in page'),
  version: z.number().int().nullable(),
  updated_at: z.string().nullable(),
});
export type ContentPage = z.infer<typeof ContentPageSchema>;

export const getContentPage = defineRoute({
  method: 'GET',
  path: '/api/content/:slug',
  summary: 'A static page (About, Publications, How to Write a Paper on BV, Background, Disclaimer)',
  tags: ['content'],
  access: 'public',
  params: z.object({ slug: ContentSlugSchema }),
  responses: { 200: ContentPageSchema, 400: ErrorSchema, 502: ErrorSchema },
});

export const UpdateContentBodySchema = z
  .object({
    title: z.string().trim().min(1, 'Title is required').max(200),
    markdown: z.string().max(100_000, 'The page is too long (100000 characters at most)'),
    version: PositiveInt4Schema,
  })
  .strict();

export const updateContentPage = defineRoute({
  method: 'PUT',
  path: '/api/content/:slug',
  summary: 'Edit a built-in page (Markdown); 409 when someone else saved it first',
  tags: ['content'],
  access: STAFF,
  params: z.object({ slug: ContentSlugSchema }),
  body: UpdateContentBodySchema,
  responses: {
    200: ContentPageSchema,
    ...errorsFor(400, 401, 403, 409),
  },
});
