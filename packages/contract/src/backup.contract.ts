import { z } from 'zod';
import { errorsFor } from './common.js';
import { ADMINS, defineRoute } from './route.js';

/** The largest whole-database file an upload may carry (a 100× demo export is about 40 MB). */
export const DATABASE_IMPORT_MAX_BYTES = 96 * 1024 * 1024;

export const ImportModeSchema = z.enum(['new', 'replace', 'merge']);
export type ImportMode = z.infer<typeof ImportModeSchema>;

/**
 * What a replace may do only when the request names it (issue 43.2): remove the importing
 * administrator's own account, or delete appraisals that were submitted.
 */
export const ImportConsequenceSchema = z.enum(['delete_own_account', 'delete_submitted_appraisals']);
export type ImportConsequence = z.infer<typeof ImportConsequenceSchema>;

const flag = z
  .enum(['0', '1', 'true', 'false'])
  .optional()
  .transform((v) => v === '1' || v === 'true');

export const ImportSummarySchema = z.object({
  format_version: z.number().int(),
  scope: z.enum(['published', 'all', 'full']),
  exported_at: z.string().nullable(),
  tables: z.array(
    z.object({
      name: z.string(),
      rows: z.number().int(),
      overwritten: z.array(z.number().int()).describe('Ids a merge overwrites (or would overwrite)'),
    }),
  ),
  existing: z.object({ analytes: z.number(), references: z.number(), bv_specifications: z.number() }),
  written: z.boolean().describe('false for a preview (dry_run)'),
  import_ms: z.number(),
  recompute: z.object({ measurands: z.number(), ms: z.number() }).optional(),
  withheld: z
    .record(z.string(), z.number().int())
    .optional()
    .describe(
      'Rows per table the file left out: a backup made by an assessor of an open appraisal round (decision 038). Such a file is merged only',
    ),
  deletes: z
    .array(z.object({ name: z.string(), rows: z.number().int() }))
    .optional()
    .describe(
      'The rows the import deletes (a preview: would delete), table by table: every row of a table a ' +
        'replace empties, and kept rows (appraisal rounds, say) whose parent the file does not bring back',
    ),
  backup_file: z
    .string()
    .optional()
    .describe('A replace: the complete backup saved first, a file name in DATA_DIR/backups'),
  consequences: z
    .array(z.object({ code: ImportConsequenceSchema, message: z.string() }))
    .optional()
    .describe(
      'What this import does that is refused unless named in `confirm`: it removes your own account, ' +
        'or deletes submitted appraisals (a preview lists them; the import asks for them)',
    ),
  returned_to_final: z
    .number()
    .int()
    .optional()
    .describe('Datasets "in appraisal" left without a round, returned to final'),
});
export type ImportSummary = z.infer<typeof ImportSummarySchema>;

export const importDatabase = defineRoute({
  method: 'POST',
  path: '/api/v1/admin/import',
  summary:
    'Administrators: load a whole-database file (multipart/form-data, one part named `file`, from ' +
    '`/export/bv_database.json`) in one transaction. `dry_run=1` previews it; `mode=new` refuses a ' +
    'database that holds records, `replace` replaces them, `merge` overwrites records with the same ids. ' +
    'A replace keeps the tables the file leaves out (`clear_absent=1` empties them), first saves the ' +
    'database as a complete backup (`backup_file`), and never leaves no active administrator (422). ' +
    'An import that removes your own account or deletes submitted appraisals is refused (422) unless ' +
    '`confirm` names each (`confirm=delete_own_account,delete_submitted_appraisals`; the preview lists ' +
    'them in `consequences`). ' +
    'One import at a time: another one running is a 409',
  tags: ['imports'],
  access: ADMINS,
  query: z.object({
    mode: ImportModeSchema.default('new'),
    dry_run: flag,
    recompute: flag,
    clear_absent: flag.describe('A replace also empties the tables the file leaves out'),
    confirm: z
      .string()
      .max(200)
      .optional()
      .transform((v) => (v ? v.split(',').map((c) => c.trim()) : []))
      .pipe(z.array(ImportConsequenceSchema))
      .describe('Comma-separated consequences you accept: delete_own_account, delete_submitted_appraisals'),
  }),
  responses: { 200: ImportSummarySchema, ...errorsFor(400, 401, 403, 409, 413, 422) },
});
