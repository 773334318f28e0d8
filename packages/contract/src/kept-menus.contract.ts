import { APS_LEVEL_NAMES } from '@bvdb/domain';
import { z } from 'zod';
import { PopulationSchema } from './applications.contract.js';
import { ErrorSchema, errorsFor, IdSchema, PositiveInt4Schema } from './common.js';
import { FacetQuerySchema } from './facets.contract.js';
import {
  MENU_MAX_TESTS,
  MenuJsonBodySchema,
  MenuResponseSchema,
  MenuTestInputSchema,
} from './menu.contract.js';
import { PaginationSchema } from './references.contract.js';
import { ANY_ROLE, defineRoute } from './route.js';

/**
 * A test menu kept to open again (issue 32.4, decision 064): in its link (anyone) or as a named menu
 * of a signed-in user. The values the sheet showed are kept with it; opening it again recomputes the
 * sheet on today's data and lists what changed since.
 */

/** A link menu (no owner) not opened for this many months is deleted. */
export const LINK_MENU_RETENTION_MONTHS = 13;

/** The link's id: 128 random bits or more, base64url. */
export const MenuIdParamsSchema = z.object({
  id: z.string().max(100).describe('The menu’s link id (base64url, 22 characters)'),
});

const NameSchema = z
  .string()
  .trim()
  .min(1, 'name must not be empty')
  .max(200, 'name must be at most 200 characters');

export const SaveMenuBodySchema = MenuJsonBodySchema.extend({
  tests: z
    .array(MenuTestInputSchema)
    .min(1, 'has no tests')
    .max(MENU_MAX_TESTS, `at most ${MENU_MAX_TESTS} tests`)
    .describe(
      'The lines as resolved: a chosen candidate is the line with `code` = the measurand id and `matrix` = its matrix',
    ),
  name: NameSchema.optional().describe('Signed-in users only: the name the menu is listed under'),
})
  // A population (decision 101): the menu is kept, and opened again, judged for the facets, as
  // POST /api/v1/menu?facet.… judges it; none: the global estimates.
  .extend(FacetQuerySchema.shape)
  .strict();
export type SaveMenuBody = z.infer<typeof SaveMenuBodySchema>;
/** As a client sends it (`facet.*` a string or an array). */
export type SaveMenuBodyIn = z.input<typeof SaveMenuBodySchema>;

const Judgement = z.enum(['optimal', 'desirable', 'minimum', 'none']).nullable();
const Measures = <T extends z.ZodTypeAny>(t: T) =>
  z.object({ imprecision: t, bias: t, total_error: t, mau: t });
const Levels = <T extends z.ZodTypeAny>(t: T) => z.object({ optimal: t, desirable: t, minimum: t });
const KeptEstimateSchema = z.object({
  estimate_id: z.number().int().nullable(),
  version: z.number().int().nullable(),
  median: z.number(),
  lower: z.number().nullable(),
  upper: z.number().nullable(),
  n: z.number().int().nullable(),
});

/** One test's values as kept: what a change would move. */
export const MenuKeptTestSchema = z.object({
  line: z.number().int(),
  label: z.string(),
  match: z
    .object({ measurand_id: z.number().int(), display_name: z.string(), matrix: z.string() })
    .nullable(),
  cvi: KeptEstimateSchema.nullable(),
  cvg: KeptEstimateSchema.nullable(),
  specs: Levels(Measures(z.number().nullable())).nullable(),
  aps_met: Measures(Judgement).nullable(),
  sigma: Levels(z.number().nullable()).nullable(),
  rcv: z.object({ up: z.number(), down: z.number() }).nullable(),
  ii: z.number().nullable(),
  ii_with_cva: z.number().nullable(),
  prri_useful: z.boolean().nullable(),
});

export const MenuChangeSchema = z.object({
  line: z.number().int(),
  test: z.string().describe('The test as the lab named it (and the measurand when named otherwise)'),
  kind: z.enum(['match', 'estimate', 'specification', 'judgement', 'sigma', 'rcv', 'ii', 'prri']),
  what: z.string().describe('What changed, in words'),
  before: z.string().describe('As kept, as the sheet shows it'),
  now: z.string().describe('Today'),
});
export type MenuChange = z.infer<typeof MenuChangeSchema>;

export const KeptMenuSchema = z.object({
  id: z.string(),
  url: z.string().describe('The page that opens the menu again'),
  name: z.string().nullable(),
  owned: z.boolean().describe('A signed-in user’s named menu (false: a link menu)'),
  mine: z.boolean().describe('The caller owns it (may rename, review, delete)'),
  tests: z.number().int(),
  level: z.enum(APS_LEVEL_NAMES),
  probability: z.number(),
  kept_at: z.string().describe('When the values were kept (saved, or last marked as reviewed)'),
  opened_at: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  version: z.number().int().describe('Send it back on PUT: a stale one answers 409'),
  population: PopulationSchema.nullable().describe(
    'The population every test is judged for when the menu is opened (decision 101: kept with its facet.*); null: the global estimates',
  ),
  expires_at: z
    .string()
    .nullable()
    .describe(`A link menu is deleted ${LINK_MENU_RETENTION_MONTHS} months after it was last opened`),
});
export type KeptMenu = z.infer<typeof KeptMenuSchema>;

export const saveMenu = defineRoute({
  method: 'POST',
  path: '/api/v1/menus',
  summary:
    'Keep a test menu to open again: JSON `{tests, level?, probability?, name?, "facet.*"?}` (the lines as resolved). ' +
    'With `facet.*` (the names and values of POST /api/v1/menu?facet.…; an unknown value is a 400 naming the allowed ones) ' +
    'the menu is kept for that population: its values are kept, and it is opened again, judged for it. ' +
    'Anonymous: a link menu; signed in: the user’s menu, which may be named. Needs the CSRF token of GET /api/session. ' +
    `The values the sheet shows today are kept with it. At most ${MENU_MAX_TESTS} tests`,
  tags: ['v1'],
  access: 'public',
  body: SaveMenuBodySchema,
  responses: { 201: KeptMenuSchema, ...errorsFor(400, 403, 413, 422, 429) },
});

export const KeptMenuResponseSchema = z.object({
  menu: KeptMenuSchema,
  lines: z.array(MenuTestInputSchema).describe('The lines as kept'),
  sheet: MenuResponseSchema.describe('Recomputed on today’s data'),
  kept: z.array(MenuKeptTestSchema).describe('The values kept with the menu'),
  changes: z.array(MenuChangeSchema).describe('Kept → today, per test; empty when nothing changed'),
});
export type KeptMenuResponse = z.infer<typeof KeptMenuResponseSchema>;

export const getKeptMenu = defineRoute({
  method: 'GET',
  path: '/api/v1/menus/:id',
  summary:
    'Open a kept menu: the lines, the sheet recomputed on today’s data and `changes` since its values were kept. ' +
    'A menu kept for a population (`menu.population`) is judged for it, every test saying so, and compared with the values kept for it. ' +
    '`format=xlsx`: the sheet as a workbook naming the date the menu was kept. 404 for an unknown id',
  tags: ['v1'],
  access: 'public',
  params: MenuIdParamsSchema,
  query: z.object({ format: z.enum(['json', 'xlsx']).default('json') }),
  responses: { 200: KeptMenuResponseSchema, ...errorsFor(400, 404) },
});

export const listMyMenus = defineRoute({
  method: 'GET',
  path: '/api/v1/menus',
  summary: 'The signed-in user’s kept menus, the last changed first, paged',
  tags: ['v1'],
  access: ANY_ROLE,
  query: z.object({
    page: IdSchema.default(1),
    per_page: z.coerce.number().int().min(1).max(100).default(20),
  }),
  responses: {
    200: z.object({ data: z.array(KeptMenuSchema), meta: z.object({ pagination: PaginationSchema }) }),
    ...errorsFor(400, 401),
  },
});

export const UpdateMenuBodySchema = z
  .object({
    version: PositiveInt4Schema.describe('The version you saw: a stale one answers 409'),
    name: NameSchema.nullable().optional().describe('A new name; null takes it away'),
    review: z
      .boolean()
      .optional()
      .describe('true: keep today’s values (mark as reviewed); the next opening compares with them'),
  })
  // Any facet.* key sent replaces the menu's population with the facets sent (all empty: the global
  // estimates) and keeps today's values for it (decision 101).
  .extend(FacetQuerySchema.shape)
  .strict();
export type UpdateMenuBody = z.infer<typeof UpdateMenuBodySchema>;
export type UpdateMenuBodyIn = z.input<typeof UpdateMenuBodySchema>;

export const updateMenu = defineRoute({
  method: 'PUT',
  path: '/api/v1/menus/:id',
  summary:
    'Rename a kept menu or mark it as reviewed (keep today’s values). Any `facet.*` key sent changes its population to the facets sent ' +
    '(all empty: the global estimates) and keeps today’s values for it. Its owner only; a link menu cannot be changed. 409 on a stale version',
  tags: ['v1'],
  access: ANY_ROLE,
  params: MenuIdParamsSchema,
  body: UpdateMenuBodySchema,
  responses: { 200: KeptMenuSchema, ...errorsFor(400, 401, 403, 404, 409) },
});

export const CopyMenuBodySchema = z
  .object({ name: NameSchema.describe('The name the copy is listed under in “My menus”') })
  // Without facet.* the copy keeps the original's population; with any facet.* key it is judged for
  // the facets sent (all empty: the global estimates) and keeps today's values for them (decision 101).
  .extend(FacetQuerySchema.shape)
  .strict();
export type CopyMenuBody = z.infer<typeof CopyMenuBodySchema>;
export type CopyMenuBodyIn = z.input<typeof CopyMenuBodySchema>;

export const copyMenu = defineRoute({
  method: 'POST',
  path: '/api/v1/menus/:id/copies',
  summary:
    'Save a kept menu you opened from its link (a link menu, or someone’s named menu) as your own named menu. ' +
    'The copy keeps the lines, the population and the values kept with the original, and their date: it says what changed since the original was kept. ' +
    'With any `facet.*` key the copy is judged for the facets sent instead (all empty: the global estimates), its values kept today. ' +
    'The original and its link are unchanged. 404 for an unknown id',
  tags: ['v1'],
  access: ANY_ROLE,
  params: MenuIdParamsSchema,
  body: CopyMenuBodySchema,
  responses: { 201: KeptMenuSchema, ...errorsFor(400, 401, 403, 404, 429) },
});

export const deleteMenu = defineRoute({
  method: 'DELETE',
  path: '/api/v1/menus/:id',
  summary: 'Delete a kept menu: its owner, or an administrator (who may also delete link menus)',
  tags: ['v1'],
  access: ANY_ROLE,
  params: MenuIdParamsSchema,
  responses: { 200: z.object({ code: z.literal('success') }), 401: ErrorSchema, ...errorsFor(403, 404) },
});
