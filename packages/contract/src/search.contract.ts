import { z } from 'zod';
import { ErrorSchema, errorsFor, IdSchema } from './common.js';
import { AnalyteWithCountSchema } from './analytes.contract.js';
import { defineRoute } from './route.js';

export const SuggestionSchema = z.object({ id: z.number().int(), display_name: z.string() });
export type Suggestion = z.infer<typeof SuggestionSchema>;

const query = z.string().trim().max(200, 'query must be at most 200 characters');

export const autocomplete = defineRoute({
  method: 'GET',
  path: '/autocomplete',
  summary: 'Measurand suggestions by name, full name, alternate names and codes',
  tags: ['search'],
  access: 'public',
  query: z.object({ query: query.default('') }),
  responses: { 200: z.array(SuggestionSchema), 400: ErrorSchema },
});

export const searchByAnalyte = defineRoute({
  method: 'GET',
  path: '/api/search/by_analyte',
  summary: 'Measurand search. `format=html` (or a browser) is redirected to the results page.',
  tags: ['search'],
  access: 'public',
  query: z.object({ query: query.default(''), format: z.enum(['html', 'json']).optional() }),
  responses: {
    200: z.object({ query: z.string(), analytes: z.array(AnalyteWithCountSchema) }),
    302: z.null(),
    400: ErrorSchema,
  },
});

export const searchById = defineRoute({
  method: 'GET',
  path: '/api/search/by_id',
  summary: 'One measurand by id. A browser is redirected to the measurand page.',
  tags: ['search'],
  access: 'public',
  query: z.object({ query: IdSchema, format: z.enum(['html', 'json']).optional() }),
  responses: {
    200: z.object({ analyte: AnalyteWithCountSchema }),
    302: z.null(),
    ...errorsFor(400, 404),
  },
});
