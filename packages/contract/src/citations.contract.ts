import { z } from 'zod';
import { errorsFor } from './common.js';
import { ReferenceBodySchema, ReferenceSchema } from './references.contract.js';
import { defineRoute, STAFF } from './route.js';

export const CitationFormatSchema = z.enum(['ris', 'bibtex', 'nbib']);
export type CitationFormat = z.infer<typeof CitationFormatSchema>;

/** A citation file travels as text in a JSON body (the app reads the chosen file). */
export const CITATION_FILE_MAX_CHARS = 900_000;
/** References one import creates at most: a file with more is refused before it is parsed. */
export const CITATION_FILE_MAX_ENTRIES = 2000;

export const CitationDuplicateSchema = z.object({
  by: z.enum(['doi', 'pmid', 'title']),
  reference_id: z.number().int().nullable().describe('The existing reference it repeats'),
  entry: z.number().int().nullable().describe('The earlier entry of the same file it repeats (1-based)'),
});

/** As read from the file, before the form's rules (`problems` says which it breaks). */
const ReadReferenceSchema = z.object({
  title: z.string(),
  author: z.string().nullable(),
  journal: z.string().nullable(),
  volume: z.number().nullable(),
  pages: z.string().nullable(),
  year_of_publication: z.number().nullable(),
  pubmed_link: z.string().nullable(),
  doi: z.string().nullable(),
  link: z.string().nullable(),
});

export const CitationEntrySchema = z.object({
  entry: z.number().int().describe('1-based, in the order of the file'),
  reference: ReadReferenceSchema,
  pmid: z.string().nullable(),
  problems: z.array(z.object({ path: z.string(), message: z.string() })),
  duplicate: CitationDuplicateSchema.nullable(),
});
export type CitationEntry = z.infer<typeof CitationEntrySchema>;

export const previewCitationFile = defineRoute({
  method: 'POST',
  path: '/api/v1/references/import/preview',
  summary:
    'Read a RIS, BibTeX or PubMed (.nbib) file (its text, no network used): each entry as a reference, ' +
    'with the form’s validation messages and any duplicate (by DOI, PubMed id or title). Saves nothing',
  tags: ['references'],
  access: STAFF,
  body: z
    .object({
      text: z
        .string()
        .min(1, 'The file is empty')
        .max(CITATION_FILE_MAX_CHARS, 'The file is too large (900,000 characters at most): split it'),
      format: CitationFormatSchema.optional().describe('Found from the content when left out'),
    })
    .strict(),
  responses: {
    200: z.object({ format: CitationFormatSchema, entries: z.array(CitationEntrySchema) }),
    ...errorsFor(400, 401, 403),
  },
});

export const createCitationReferences = defineRoute({
  method: 'POST',
  path: '/api/v1/references/import',
  summary:
    'Create the references of a previewed citation file in one transaction: all or none; ' +
    '409 when one repeats an existing reference (DOI, PubMed id or title)',
  tags: ['references'],
  access: STAFF,
  body: z
    .object({
      references: z
        .array(ReferenceBodySchema)
        .min(1, 'Choose at least one reference')
        .max(CITATION_FILE_MAX_ENTRIES),
    })
    .strict(),
  responses: {
    201: z.object({ references: z.array(ReferenceSchema) }),
    ...errorsFor(400, 401, 403, 409),
  },
});
