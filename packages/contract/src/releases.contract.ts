import { z } from 'zod';
import { errorsFor } from './common.js';
import { defineRoute, STAFF } from './route.js';

/** `2026-11-27`, or `2026-11-27.2` for a second release that day (UTC; decision 058). */
const VERSION_PATTERN = /^[0-9]{4}-[0-9]{2}-[0-9]{2}(\.[1-9][0-9]{0,3})?$/;
/** A release file's name: letters, digits, dots, dashes and underscores (never a path). */
const FILE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export const ReleaseVersionSchema = z
  .string()
  .regex(VERSION_PATTERN, 'must be a release version such as 2026-11-27 or 2026-11-27.2');

export const ReleaseFileSchema = z.object({
  name: z.string().describe('File name, e.g. `bv_database.csv`'),
  bytes: z.number().int().describe('Size in bytes'),
  sha256: z.string().describe('SHA-256 of the file, hex (also in the release’s `SHA256SUMS`)'),
  url: z.string().describe('Where to download it (relative to the site)'),
});

/** One published release (issue 30.2): a frozen, numbered set of files. */
export const ReleaseSchema = z.object({
  version: z.string().describe('`YYYY-MM-DD` (UTC), `.2`, `.3`… for later releases of the same day'),
  published_at: z.string().describe('When the release was published (ISO 8601)'),
  notes: z
    .string()
    .describe('Release notes (Markdown): what changed since the previous release, by measurand'),
  files: z.array(ReleaseFileSchema),
});
export type Release = z.infer<typeof ReleaseSchema>;

/** A release being built, published or failed, as curators see it on `/releases`. */
export const ReleaseBuildSchema = z.object({
  version: z.string(),
  status: z.enum(['building', 'published', 'failed']),
  cause: z.enum(['curator', 'admin', 'schedule']).describe('Who asked: a role, or the monthly schedule'),
  requested_at: z.string(),
  published_at: z.string().nullable(),
  error: z.string().nullable().describe('Why a failed build failed'),
  mailing: z
    .object({
      subject: z.string(),
      text: z.string(),
      recipients: z.number().int(),
      sent: z.number().int(),
      failed: z.number().int(),
      delivery: z
        .enum(['sent', 'stored'])
        .describe('sent: through Mailgun; stored: Mailgun is not configured, the message is only kept here'),
    })
    .nullable()
    .describe('The release notes as mailed to the mailing list (null until published)'),
});
export type ReleaseBuild = z.infer<typeof ReleaseBuildSchema>;

export const v1Releases = defineRoute({
  method: 'GET',
  path: '/api/v1/releases',
  summary: 'Every published release, newest first, with its notes and files (size, SHA-256, download)',
  tags: ['v1'],
  access: 'public',
  responses: { 200: z.object({ data: z.array(ReleaseSchema) }) },
});

export const v1Release = defineRoute({
  method: 'GET',
  path: '/api/v1/releases/:version',
  summary: 'One published release',
  tags: ['v1'],
  access: 'public',
  params: z.object({ version: ReleaseVersionSchema }),
  responses: { 200: z.object({ data: ReleaseSchema }), ...errorsFor(400, 404) },
});

export const v1ReleaseFile = defineRoute({
  method: 'GET',
  path: '/api/v1/releases/:version/files/:name',
  summary: 'A file of a published release: the same bytes for ever (its SHA-256 is in the listing)',
  tags: ['v1'],
  access: 'public',
  params: z.object({
    version: ReleaseVersionSchema,
    name: z.string().regex(FILE_NAME_PATTERN, 'must be a file name of the release'),
  }),
  produces: 'application/octet-stream',
  responses: { 200: z.unknown(), ...errorsFor(400, 404) },
});

export const v1PublishRelease = defineRoute({
  method: 'POST',
  path: '/api/v1/releases',
  summary:
    'Publish a release of the published data (curators and administrators; CSRF). Answers 202 at once: the files are built in the background and the release is listed when done',
  tags: ['v1'],
  access: STAFF,
  responses: { 202: z.object({ data: ReleaseBuildSchema }), ...errorsFor(401, 403, 409) },
});

export const v1ReleaseBuilds = defineRoute({
  method: 'GET',
  path: '/api/v1/release-builds',
  summary:
    'The latest releases with their build status and the mail sent (or, without Mailgun, stored) to the mailing list (curators and administrators)',
  tags: ['v1'],
  access: STAFF,
  responses: { 200: z.object({ data: z.array(ReleaseBuildSchema) }), ...errorsFor(401, 403) },
});
