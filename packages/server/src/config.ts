import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';

/** An unset or empty variable is absent; anything else must be valid. */
const blankIsAbsent = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalUrl = z.preprocess(blankIsAbsent, z.url().optional());

/** Names proxy-addr (Fastify) understands for the private and loopback ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(item: string): boolean {
  if (PROXY_RANGE_NAMES.has(item)) return true;
  const [address = '', prefix, ...rest] = item.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Which X-Forwarded-For entries to believe: `false` (none: the client is the socket's peer), a
 * number of proxy hops in front of the server, or the proxies' addresses. A bare `true` would let
 * any client name its own address and escape the rate limit and the sign-in lock, so it is refused
 * (docs/decisions/005-trust-proxy.md).
 */
function parseTrustProxy(value: string, ctx: z.RefinementCtx): false | number | string[] {
  const v = value.trim().toLowerCase();
  if (v === 'false' || v === '0') return false;
  if (v === 'true') {
    ctx.addIssue({
      code: 'custom',
      message:
        "`true` would trust a client's own X-Forwarded-For header; set the number of proxies in front of " +
        'bvdb (e.g. 1) or their addresses (e.g. 127.0.0.1,10.0.0.0/8)',
    });
    return z.NEVER;
  }
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops > 10) ctx.addIssue({ code: 'custom', message: 'must be at most 10 proxy hops' });
    return hops;
  }
  const items = value.split(',').map((i) => i.trim());
  const bad = items.filter((i) => !isAddressOrRange(i));
  if (bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `must be false, a number of proxy hops or a comma-separated list of proxy addresses or CIDR ranges; not an address: ${bad.map((b) => JSON.stringify(b)).join(', ')}`,
    });
    return z.NEVER;
  }
  return items;
}

/**
 * Passwords that were once printed in `.env.example` (and so are public): a start with one of them
 * would create a guessable administrator or database login, so it stops naming the variable.
 */
export const SAMPLE_PASSWORDS: readonly string[] = ['change-me-too', 'change-me-to-a-long-random-string'];
const notSample = (value: string) => !SAMPLE_PASSWORDS.includes(value);
const SAMPLE_MESSAGE = 'is the public sample value of .env.example: choose a password of your own';

/**
 * Why a postgres:// URL can never connect, or undefined. A password with `/ @ : # ?` written into
 * the URL unencoded turns into a host, a port, a path or a fragment; such a URL is a configuration
 * error (exit 78 at once), not a server that does not answer yet (retried, then 75).
 */
export function databaseUrlProblem(url: string): string | undefined {
  const advice =
    'percent-encode the password in the URL, or leave it out of the URL and set PGPASSWORD (any characters)';
  let u: URL;
  let hostname: string;
  try {
    u = new URL(url);
    hostname = u.hostname;
  } catch {
    // `postgres://user@/db?host=/run/postgresql` (a socket): valid for the driver, which reads it
    // with a dummy host in the same way.
    try {
      u = new URL(url.replace('@/', '@dummy-host/'));
      hostname = '';
    } catch {
      return `is not a valid URL (${advice})`;
    }
  }
  if (!hostname && !u.searchParams.get('host')) return 'names no host (postgres://user@host:5432/database)';
  if (u.hash) return `holds a "#" (${advice})`;
  // Neither the path nor a parameter is quoted back: either may hold part of a password.
  const database = u.pathname.slice(1);
  if (database.includes('/') || database.includes('@'))
    return `has a database name holding "/" or "@": a password holds "/" (${advice})`;
  if ([...u.searchParams.keys()].some((k) => !/^[a-z_]+$/.test(k)))
    return `has a parameter after "?" that is not a name: a password holds "?" (${advice})`;
  if (SAMPLE_PASSWORDS.includes(safeDecode(u.password))) return `its password ${SAMPLE_MESSAGE}`;
  return undefined;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

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
      .superRefine((url, ctx) => {
        const problem = databaseUrlProblem(url);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
  ),
  /**
   * The password of DATABASE_URL's user when the URL carries none: any characters, no encoding
   * (the app percent-encodes it into the URL it connects with). libpq's own variable, so psql and
   * pg_dump read it too.
   */
  PGPASSWORD: z.preprocess(blankIsAbsent, z.string().max(1000).refine(notSample, SAMPLE_MESSAGE).optional()),
  DATABASE_WAIT_SECONDS: z.coerce.number().min(0).max(3600).default(60),
  ADMIN_EMAIL: z.preprocess(blankIsAbsent, z.email('must be an e-mail address').optional()),
  ADMIN_PASSWORD: z.preprocess(
    blankIsAbsent,
    z
      .string()
      .min(8, 'must be at least 8 characters')
      .max(128, 'must be at most 128 characters')
      .refine(notSample, SAMPLE_MESSAGE)
      .optional(),
  ),
  CONTENT_URL: optionalUrl,
  CONTENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  CONTENT_CACHE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  DATA_USE_NOTICE: z.preprocess(blankIsAbsent, z.string().max(2000).optional()),
  CITATION: z.preprocess(blankIsAbsent, z.string().max(2000).optional()),
  /** The terms the data are offered under, carried by every export (default: the spec's data-use terms). */
  DATA_LICENCE: z.preprocess(blankIsAbsent, z.string().max(2000).optional()),
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
  /** Sender of the appraisal e-mails; defaults to `bvdb <noreply@MAILGUN_DOMAIN>`. */
  MAIL_FROM: z.preprocess(blankIsAbsent, z.string().max(300).optional()),
  /** The site's public address, for links in e-mails (e.g. https://biologicalvariation.eu). */
  PUBLIC_URL: optionalUrl,
  /** New datasets entered through the form start "in appraisal" (decision 008). */
  APPRAISE_NEW_DATASETS: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ROLE: z.enum(['web', 'worker', 'all']).default('all'),
  WEB_DIST: z.string().optional(),
  SEED_DEMO: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  /**
   * Published datasets kept in memory for public one-record and page reads (decision 033): about
   * 3 KB each, so the default holds 100× the demo catalogue in ~80 MB. 0 keeps none.
   */
  READ_CACHE_ROWS: z.coerce.number().int().min(0).default(25_000),
  /**
   * Fill those rows in the background after a start and after a change, from the first anonymous
   * read on (decision 049), so a first-time page finds them in memory. The fill takes at most a third of the event loop.
   */
  READ_CACHE_PREFILL: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  /**
   * At a start, `/readyz` waits at most this long (seconds) for those rows to be kept, filled at
   * full pace meanwhile, so the first pages a load balancer sends are answered from memory (decision
   * 072). 0: ready at once, the fill at its resting pace.
   */
  WARM_UP_READY_SECONDS: z.coerce.number().min(0).max(3600).default(120),
  /**
   * Most bytes per second all downloads together (article PDFs, spreadsheet exports) are sent at
   * (MB, 10^6 bytes; 0: unpaced; decision 035), after two seconds' worth at once. Sending bytes takes
   * the event loop's core (about 1% of its reads per MB/s, measured), so the total is bounded, not
   * each download: many parallel downloads share it and reads keep the core.
   */
  DOWNLOADS_MB_PER_SECOND: z.coerce.number().min(0).max(100_000).default(5),
  TRUST_PROXY: z.preprocess(blankIsAbsent, z.string().default('false').transform(parseTrustProxy)),
  /** Cheap reads (cached, or one record by id), per client address: a bulk consumer's full pass fits. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(30_000),
  RATE_LIMIT_HEAVY_PER_MINUTE: z.coerce.number().int().positive().default(60),
  RATE_LIMIT_WRITE_PER_MINUTE: z.coerce.number().int().positive().default(120),
  RATE_LIMIT_SIGN_IN_PER_MINUTE: z.coerce.number().int().positive().default(10),
  /**
   * Estimations one client address runs at once; one more answers 429
   * with Retry-After at once, while other addresses are served (decision 086).
   */
  RATE_LIMIT_CONCURRENT_COMPUTATIONS: z.coerce.number().int().min(1).max(100).default(1),
  /** `GET /metrics` in Prometheus text format (lib/metrics.ts); off: the path is unknown (404). */
  METRICS: z
    .enum(['on', 'off', 'true', 'false', '1', '0'])
    .default('off')
    .transform((v) => v === 'on' || v === 'true' || v === '1'),
  /** When set, `/metrics` answers only `Authorization: Bearer <token>` (401 otherwise). */
  METRICS_TOKEN: z.preprocess(
    blankIsAbsent,
    z
      .string()
      .min(16, 'must be at least 16 characters')
      .max(256, 'must be at most 256 characters')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
      .optional(),
  ),
  /**
   * On SIGTERM, how long `/readyz` answers 503 while every other request is still served, so a load
   * balancer stops sending new ones before the server closes (decision 045).
   */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(120).default(5),
});

export type Config = z.output<typeof ConfigSchema> & { dataDir: string };
/** The variables the schema reads (every key is one environment variable). */
export type ConfigInput = z.input<typeof ConfigSchema>;

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

/** TRUST_PROXY in the form Fastify's types take (it does hop counts at run time, its types do not). */
export function trustProxyOption(
  config: Config,
): false | string[] | ((address: string, hop: number) => boolean) {
  const trust = config.TRUST_PROXY;
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}
