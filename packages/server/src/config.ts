import path from 'node:path';
import { z } from 'zod';

/** An unset or empty variable is absent; anything else must be valid. */
const blankIsAbsent = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalUrl = z.preprocess(blankIsAbsent, z.url().optional());

const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.preprocess(
    blankIsAbsent,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  ADMIN_EMAIL: z.preprocess(blankIsAbsent, z.email('must be an e-mail address').optional()),
  ADMIN_PASSWORD: z.preprocess(
    blankIsAbsent,
    z.string().min(8, 'must be at least 8 characters').max(128, 'must be at most 128 characters').optional(),
  ),
  CONTENT_URL: optionalUrl,
  CONTENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  CONTENT_CACHE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  DATA_USE_NOTICE: z.preprocess(blankIsAbsent, z.string().max(2000).optional()),
  CITATION: z.preprocess(blankIsAbsent, z.string().max(2000).optional()),
  /** Page ids on the content service, e.g. `about=10,eflm-wg=37,publication_structure=2,background=40,disclaimer=25`. */
  CONTENT_PAGE_IDS: z.preprocess(
    blankIsAbsent,
    z
      .string()
      .regex(/^([a-z_-]+=\d+)(,[a-z_-]+=\d+)*$/, 'must look like about=10,eflm-wg=37')
      .optional(),
  ),
  /** The disclaimer lives on another WordPress site; defaults to CONTENT_URL. */
  CONTENT_DISCLAIMER_URL: optionalUrl,
  STATS_URL: optionalUrl,
  MAILGUN_API_KEY: z.string().optional(),
  MAILGUN_DOMAIN: z.string().optional(),
  MAILGUN_LIST: z.string().optional(),
  MAILGUN_BASE_URL: optionalUrl,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ROLE: z.enum(['web', 'worker', 'all']).default('all'),
  WEB_DIST: z.string().optional(),
  SEED_DEMO: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
});

export type Config = z.output<typeof ConfigSchema> & { dataDir: string };

export class ConfigError extends Error {}

/** Parses the environment once at boot; a bad value stops the process with a message naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) };
}
