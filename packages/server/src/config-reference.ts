import { loadConfig, type ConfigInput } from './config.js';

/** One row of the settings reference: what the README's table says about a variable. */
export interface SettingDoc {
  /** As written in the environment (the schema's default, verified by config-reference.test.ts); `—`: none. */
  default: string;
  meaning: string;
}

/**
 * Every variable the config schema reads, with its default and meaning. Typed by the schema's keys,
 * so a new setting does not compile until it is documented here; the README's table is generated
 * from this (`npm run settings:docs`) and a test fails when the two differ, or when the code reads
 * a variable listed nowhere.
 */
export const SETTINGS: Record<keyof ConfigInput, SettingDoc> = {
  PORT: { default: '3000', meaning: 'HTTP port' },
  HOST: { default: '127.0.0.1', meaning: 'interface to listen on (`0.0.0.0` in a container)' },
  NODE_ENV: {
    default: 'production',
    meaning:
      '`development`, `production` or `test`, accepted because tools set it; bvdb behaves the same under each (anything else stops the start)',
  },
  ROLE: {
    default: 'all',
    meaning:
      'what this process runs: `all` (HTTP server and the recompute worker), `web` (HTTP only; scale these out) or `worker` (the recompute worker and the session purge only, no port). `--role=` on the command line wins',
  },
  DATA_DIR: {
    default: './data',
    meaning:
      'folder of the embedded database (PGlite) and of `file-cache/`, copies of the article PDFs for downloads and the kept whole-catalogue files. One process at a time: a second one on the same folder exits with code 75 and a message. Created with its parents when missing; one that cannot be created or written (a read-only mount, a wrong owner, a path under a file) stops the start (exit 78)',
  },
  DATABASE_URL: {
    default: '—',
    meaning:
      '`postgres://user@host:5432/db`: use a PostgreSQL server instead of the embedded database; migrations run at start (one process at a time, under an advisory lock) or with `npm run migrate`. Give the password as `PGPASSWORD` (any characters), or percent-encoded in the URL. A URL that can never connect (no host, a password with `/ @ : # ?` written unencoded) stops the start at once (exit 78)',
  },
  PGPASSWORD: {
    default: '—',
    meaning:
      "with `DATABASE_URL`: the password of the URL's user when the URL carries none, as written (any characters: bvdb percent-encodes it into the URL it connects with; compose passes `POSTGRES_PASSWORD` this way). libpq's own variable, so `psql` and `pg_dump` read it too. The sample value of `.env.example` before 1.1.0 is refused (exit 78)",
  },
  DATABASE_WAIT_SECONDS: {
    default: '60',
    meaning:
      'with `DATABASE_URL`: how long a start waits for a PostgreSQL server that does not answer yet, trying again with growing pauses (0.5 s doubling to 8 s) and logging the URL without its password; then it exits with code 75. Once running, a lost connection fails only the request in flight (503 with `Retry-After`, `/readyz` 503 while the database is away) and later requests work again as soon as it is back',
  },
  ADMIN_EMAIL: { default: '—', meaning: "the first administrator's e-mail (`admin@example.org` when unset)" },
  ADMIN_PASSWORD: {
    default: '—',
    meaning:
      "the first administrator's password (8–128 characters), used only to create that account when it does not exist yet (it never changes an existing one). When unset a random one is made: shown once on the console when stdout is a terminal, otherwise written to `DATA_DIR/admin-password.txt` (owner-only) and the log says where. The sample value of `.env.example` before 1.1.0 (`change-me-too`) is refused (exit 78)",
  },
  SEED_DEMO: { default: 'true', meaning: 'seed the demo content on first start' },
  CONTENT_URL: { default: '—', meaning: 'a WordPress site whose REST API serves the static pages' },
  CONTENT_TIMEOUT_MS: {
    default: '5000',
    meaning: 'time allowed for one content page, body included (at most 2 MiB); slower counts as a failure',
  },
  CONTENT_CACHE_SECONDS: {
    default: '60',
    meaning: 'how long a content page fetched from `CONTENT_URL` is served before it is fetched again',
  },
  CONTENT_PAGE_IDS: {
    default: '—',
    meaning:
      'page ids on the content service, e.g. `about=10,eflm-wg=37,publication_structure=2,background=40,disclaimer=25`',
  },
  CONTENT_DISCLAIMER_URL: {
    default: '`CONTENT_URL`',
    meaning: 'the WordPress site of the disclaimer page, when it lives on another site',
  },
  DATA_USE_NOTICE: {
    default: 'the EFLM data-use terms',
    meaning: 'the data-use notice every page and export shows',
  },
  CITATION: {
    default: 'the EFLM database citation',
    meaning: 'how to cite the database, on every page and export',
  },
  DATA_LICENCE: {
    default: "`DATA_USE_NOTICE`'s default",
    meaning:
      'the terms the data are offered under, carried like the version by every export: `data_licence` in `bv_database.json`, the `Bvdb-Data-Licence` header of the CSV (percent-encoded beyond ASCII), the xlsx "Read me" sheet',
  },
  STATS_URL: { default: '—', meaning: 'an outside statistics service with the metacalculation contract' },
  MAILGUN_API_KEY: {
    default: '—',
    meaning:
      'Mailgun: with `MAILGUN_DOMAIN` and `MAILGUN_LIST`, members added on the Mailing List screen are also added to that list; with `MAILGUN_DOMAIN`, appraisal e-mails are sent (decision 009). Members are always stored in the database',
  },
  MAILGUN_DOMAIN: { default: '—', meaning: 'the Mailgun sending domain' },
  MAILGUN_LIST: {
    default: '—',
    meaning: 'the Mailgun list address, or its local part completed with `MAILGUN_DOMAIN`',
  },
  MAILGUN_BASE_URL: {
    default: 'https://api.mailgun.net',
    meaning: 'the Mailgun API; `https://api.eu.mailgun.net` for the EU region',
  },
  MAIL_FROM: { default: 'bvdb <noreply@MAILGUN_DOMAIN>', meaning: 'sender of the appraisal e-mails' },
  PUBLIC_URL: {
    default: '—',
    meaning: "the site's public address (`https://…`), for the links in e-mails; relative links without it",
  },
  APPRAISE_NEW_DATASETS: {
    default: 'false',
    meaning:
      '`true`: datasets entered through the form start "in appraisal" (two assessors, a third on disagreement) and stay out of meta-analyses until their grades are final (decision 008)',
  },
  LOG_LEVEL: {
    default: 'info',
    meaning:
      'pino level (`silent` to mute); every stdout line is JSON. Kept public reads answered by the fast read path (decision 041) are not logged per request; at `debug` or `trace` the fast path is off, so every request is',
  },
  WEB_DIST: {
    default: '`packages/web/dist`',
    meaning: 'folder of the built web app to serve (its server renderer is the sibling `dist-ssr`)',
  },
  READ_CACHE_ROWS: {
    default: '25000',
    meaning:
      'published datasets kept in memory for anonymous one-record and page reads (least recently used dropped first; about 3 KB each). Any write to datasets, references, measurands or lookups makes them stale at once (decision 033). Twice as many single-record answers are kept too, as gzip only (~1.7 KB each), and the fast read path keeps that many replays plus 2,000 (~1.1 KB each, decision 110). `0` keeps none',
  },
  READ_CACHE_PREFILL: {
    default: 'true',
    meaning:
      'fill the kept published datasets (`READ_CACHE_ROWS`) in the background after a start and after a change, once something reads the public catalogue, so a first-time page or record is answered from memory (decision 049). The fill reads 500 rows at a time and rests twice as long as each step took, so it takes at most a third of the event loop; `false` reads rows only when asked',
  },
  WARM_UP_READY_SECONDS: {
    default: '120',
    meaning:
      "at a start (`ROLE` `all` or `web`, with `READ_CACHE_PREFILL`), the published datasets are kept at full pace before the server says it is ready: `/readyz` answers 503 `warming up: N of M published datasets kept` meanwhile, at most this many seconds, then 200 while the rest is filled at the resting pace. Every request is served during the warm-up, more slowly. About a second at the demo size; give a container's health check (or the load balancer) this long at 100× the demo data (decision 072). `0`: ready at once",
  },
  DOWNLOADS_MB_PER_SECOND: {
    default: '5',
    meaning:
      "most megabytes per second all downloads together (article PDFs, spreadsheet exports) are sent at, after two seconds' worth at once; concurrent downloads share it evenly (`0`: unpaced). Bytes sent cost the event loop's core about 1% of its reads per MB/s on the 2-vCPU test machine; raise it where clients are across a real network (decision 035)",
  },
  TRUST_PROXY: {
    default: 'false',
    meaning:
      "behind reverse proxies, which of them to believe about the client (`X-Forwarded-For`, `-Proto`, `-Host`: client IPs for the rate limit and the sign-in lock, secure cookies): `false` (none: the client is whoever connects), the **number of proxies** in front of the server (`1` for one nginx/Caddy/Traefik), or their **addresses** as a comma-separated list of IPs and CIDR ranges (`127.0.0.1,10.0.0.0/8`; `loopback`, `uniquelocal` also work). `true` is refused: it believed a client's own header (decision 005)",
  },
  RATE_LIMIT_PER_MINUTE: {
    default: '30000',
    meaning:
      "**cheap reads** per minute per client IP: cached public reads, one record by id, pages, static files, health checks. Generous so a script's full pass over the catalogue fits. 429 with `Retry-After` beyond, as for every class",
  },
  RATE_LIMIT_HEAVY_PER_MINUTE: {
    default: '60',
    meaning:
      '**heavy work** per minute per client IP: the statistics service, spreadsheet exports, article PDFs',
  },
  RATE_LIMIT_WRITE_PER_MINUTE: {
    default: '120',
    meaning:
      '**writes** per minute per client IP: every create/update/delete, sign-out and the anonymous mailing-list subscribe',
  },
  RATE_LIMIT_SIGN_IN_PER_MINUTE: {
    default: '10',
    meaning:
      '**password checks** per minute per client IP: sign-in and change password (on top of the per-account sign-in lock)',
  },
  RATE_LIMIT_CONCURRENT_COMPUTATIONS: {
    default: '1',
    meaning:
      '**estimations at once** per client IP: an estimation (`POST /api/v1/estimations`) holds a thread for up to 30 s; one more from the same address while it runs answers 429 with `Retry-After` at once, other addresses are served (1–100, decision 086)',
  },
  METRICS: {
    default: 'off',
    meaning:
      '`on`: `GET /metrics` answers Prometheus text (every name starts `bvdb_`: requests by route and status with latency, read cache, recompute queue, password hashing, event loop, database pool; docs/operations.md). Off, the path is unknown (404). Keep it off the public network or set `METRICS_TOKEN`',
  },
  METRICS_TOKEN: {
    default: '—',
    meaning:
      'with `METRICS=on`: `/metrics` answers only `Authorization: Bearer <token>` (16–256 printable characters), 401 otherwise',
  },
  SHUTDOWN_DRAIN_SECONDS: {
    default: '5',
    meaning:
      'on SIGTERM, `/readyz` answers 503 at once while every other request is still served for this many seconds, so a load balancer stops sending new ones; then the server closes (requests in flight finish). Give the container this plus 10 s to stop (compose `stop_grace_period`)',
  },
};

/** Variables read outside the config schema, by the start script and the command-line tools. */
export const OTHER_SETTINGS: Record<string, SettingDoc> = {
  BVDB_SKIP_BUILD: {
    default: '—',
    meaning:
      '`1`: `npm start` and the commands (`npm run export`, `import`, `user:create`, `user:password`, `migrate`) run what is built without checking the sources (a tree built once, e.g. in an image)',
  },
  BVDB_PASSWORD: {
    default: '—',
    meaning: '`npm run user:create` / `user:password`: the password, instead of asking for it',
  },
  BVDB_PGLITE_TEMPLATE_DIR: {
    default: 'packages/server/node_modules/.cache/bvdb-pglite-template',
    meaning:
      'where the copy of an empty migrated embedded database is kept, from which a new data folder (and every test database) is made instead of by initdb (decision 090); `off`: always initdb',
  },
};

/**
 * The knobs of `npm run bench` and of each bench run alone (packages/server/src/bench,
 * scripts/bench.mjs, scripts/lighthouse.mjs): never read by a running bvdb. docs/bench.md's table is
 * generated from this (`npm run settings:docs`); a test fails when a bench reads one not listed.
 */
export const BENCH_SETTINGS: Record<string, SettingDoc> = {
  BENCH_CATALOGUE_FLOOR: {
    default: '0.4',
    meaning:
      "the lowest ratio of a whole-catalogue answer's requests a second to a bare Node server sending the same bytes before the bench fails (decision 039)",
  },
  BENCH_CACHED_READ_FLOOR: {
    default: '0.85',
    meaning:
      "the lowest capacity ratio (answers per CPU second, bvdb's over a bare Node server's sending the same bytes) of a kept public read before the bench fails (decisions 041, 089)",
  },
  BENCH_BUSY_READ_FLOOR: {
    default: '0.5',
    meaning:
      'the lowest ratio of `/api/meta` to bare Node while estimations run (decision 060) or menus are posted (decision 066)',
  },
  BENCH_FIRST_PAGES_RATIO_CEILING: {
    default: '3',
    meaning:
      'fifty first-time pages of 100 at once: the highest p99 at 100× (ready, and from kept rows) over the 1× one (decisions 069, 072)',
  },
  BENCH_FIRST_PASS_RATIO_CEILING: {
    default: '3',
    meaning:
      "the public reads' cold first pass at 50 connections: the highest p99 at the last factor (100×) over the first factor's (1×), each read, each p99 the median of `BENCH_FIRST_PASS_ROUNDS` rounds (issue 44.3, decisions 089, 110)",
  },
  BENCH_FIRST_PASS_ROUNDS: {
    default: '3',
    meaning:
      "rounds of the public reads' cold first pass, each a first pass again (the answers' data changed in between); the median p99 is judged (decision 110)",
  },
  BENCH_FIRST_PASS_CEILING_MS: {
    default: '200',
    meaning: 'the same first pass: the highest p99 at the last factor, in milliseconds (decision 089)',
  },
  BENCH_FIRST_PAGE_CEILING_MS: {
    default: '10',
    meaning:
      'the most event-loop milliseconds one first-time page of 100 from kept rows may cost (decision 065)',
  },
  BENCH_SEARCH_CEILING: {
    default: '1.5',
    meaning: "the highest ratio of a first search's HTTP cost at 100× to its cost at 1× (decisions 053, 076)",
  },
  BENCH_ESTIMATION_CEILING_MS: {
    default: '200',
    meaning:
      'the longest median time, end to end over HTTP, of an estimation of 60 subjects × 10 samples × 2 replicates (issue 31, decision 060)',
  },
  BENCH_ESTIMATION_LARGE_CEILING_MS: {
    default: '2000',
    meaning: 'the same for a 10,000-row file (250 subjects × 20 samples × 2 replicates)',
  },
  BENCH_INDIRECT_CEILING_MS: {
    default: '10000',
    meaning:
      'the median time of an indirect estimate of 100,000 routine results over HTTP, `/healthz` asked meanwhile (issue 46, decision 095)',
  },
  BENCH_INDIRECT_RESULTS: { default: '100000', meaning: "results in the indirect bench's extract" },
  BENCH_INDIRECT_RUNS: { default: '3', meaning: 'runs of the indirect bench' },
  BENCH_INDIRECT_PORT: { default: '4161', meaning: "port of the indirect bench's server" },
  BENCH_MENU_LOOP_CEILING_MS: {
    default: '50',
    meaning: 'the most event-loop milliseconds a kept 200-test menu may hold (decision 068)',
  },
  BENCH_RELEASE_CEILING_S: {
    default: '60',
    meaning: 'the longest build of a whole release at 100× (decision 067)',
  },
  BENCH_RELEASE_STALL_CEILING_MS: {
    default: '2000',
    meaning: 'the longest event-loop stall during that build (decision 067)',
  },
  BENCH_IMPORT_CEILING_S: {
    default: '15',
    meaning:
      'the longest import (its checks and one transaction, not the recompute) of the 100× file by `npm run import` before the import bench fails (issue 44.5, decision 103)',
  },
  BENCH_RESTART_CEILING_MS: {
    default: '3000',
    meaning:
      'the highest median time from spawning the server after a `kill -9` to the first 200 of `/readyz`, embedded database at 1×, before the restart bench fails (issue 44.5, decision 103)',
  },
  BENCH_RESTART_ROUNDS: { default: '5', meaning: 'restarts of the restart bench' },
  BENCH_RESTART_PORT: { default: '4171', meaning: "port of the restart bench's server" },
  BENCH_RESTART_UNBUNDLED: {
    default: '',
    meaning:
      '`1`: the restart bench starts `packages/server/dist/main.js` (the modules `tsc -b` wrote) instead of the bundle `npm start` runs (decision 105), for a before/after pair',
  },
  BENCH_LOOP_HOLD_CEILING_MS: {
    default: '100',
    meaning:
      'the longest `/healthz` answer (asked every 20 ms) during a heavy first ask at 100× before the loop-hold bench fails (issue 44, decision 085)',
  },
  BENCH_LOOP_FACTOR: { default: '100', meaning: 'size of the loop-hold bench' },
  BENCH_RCV_BATCH_CEILING_MS: {
    default: '1000',
    meaning:
      'the longest median time of a warm 10,000-pair `POST /api/v1/rcv` (JSON or CSV) before the rcv-batch bench fails; `/healthz` meanwhile is held to `BENCH_LOOP_HOLD_CEILING_MS` (issue 45.5, decision 092)',
  },
  BENCH_RCV_ROUNDS: { default: '5', meaning: 'warm batches of each kind in the rcv-batch bench' },
  BENCH_RCV_PROFILE: {
    default: '—',
    meaning:
      "`<file>`: a CPU profile of the event loop's thread during each rcv-batch ask, and where its time went",
  },
  BENCH_FACETS_FIRST_CEILING_MS: {
    default: '1000',
    meaning:
      'the longest first ask (nothing kept) of `GET /api/v1/measurands/{id}/metas?facet.*` at 100× before the facets bench fails (issue 47.5, decision 098)',
  },
  BENCH_FACETS_KEPT_P99_CEILING_MS: {
    default: '100',
    meaning:
      'the highest p99 of a facet answer asked before (kept per facet set), at `BENCH_FACETS_CONNECTIONS` connections, before the facets bench fails (issue 47.5, decision 098)',
  },
  BENCH_FACETS_CONNECTIONS: { default: '10', meaning: "connections of the facets bench's kept load" },
  BENCH_FACETS_FACTOR: { default: '100', meaning: 'size of the facets bench' },
  BENCH_LOOP_IN_PROCESS: {
    default: '—',
    meaning:
      "`1`: the loop-hold bench opens the embedded database in the event loop's thread (before decision 085)",
  },
  BENCH_LOOP_ONLY: {
    default: '—',
    meaning:
      'comma-separated words: only the loop-hold asks whose name holds one (`an import`: the import alone)',
  },
  BENCH_LOOP_PROFILE: {
    default: '—',
    meaning:
      '`<file>`: a CPU profile of the event loop during each loop-hold ask, and where its time went; started before and stopped after the measured stretch (its own start and stop hold the loop ~150 ms). Each hold over 100 ms is printed with when it began in the ask (profiled: also on the profile’s clock), and a release its steps’ milliseconds',
  },
  BENCH_SECONDS: { default: '5', meaning: 'seconds of each load pass (autocannon or wrk)' },
  BENCH_ROUNDS: {
    default: '3',
    meaning:
      'rounds of the bvdb / bare Node comparisons of the menu and estimation benches (the median is judged)',
  },
  BENCH_SLICES: {
    default: '20',
    meaning:
      'kept public reads: pairs of slices of bvdb and bare Node, in the order bvdb, bare, bare, bvdb, … (the median of the pairs is judged; decision 111)',
  },
  BENCH_SLICE_SECONDS: { default: '1', meaning: 'kept public reads: seconds of each slice (decision 111)' },
  BENCH_CONNECTIONS: { default: '50', meaning: 'connections of the load client (autocannon or wrk)' },
  BENCH_LOAD_CLIENT: {
    default: '—',
    meaning:
      '`autocannon`: the comparisons with bare Node load with autocannon even when `wrk` is installed (they use wrk when it is, issue 44.4, decision 104)',
  },
  BENCH_API_SIZES: { default: '1,10,100', meaning: 'sizes (× the demo) of the recompute and API bench' },
  BENCH_API_FACTORS: { default: '1,100', meaning: 'sizes of the public-reads bench' },
  BENCH_API_PASSES: { default: '—', meaning: '`0`: the public-reads bench runs the fifty first pages only' },
  BENCH_API_WARM: {
    default: '—',
    meaning: '`1`: its first pass starts once the kept public rows are filled (decision 065)',
  },
  BENCH_API_WHOLE: {
    default: '—',
    meaning: '`0`: leaves the whole-catalogue answers out of the public reads',
  },
  BENCH_API_PGLITE_IN_PROCESS: {
    default: '—',
    meaning:
      '`1`: the public-reads bench opens the embedded database in its own thread, not in a thread of its own as the server does (decision 113)',
  },
  BENCH_API_PROFILE: {
    default: '—',
    meaning:
      "`<file>`: a CPU profile of the public reads' first pass (its first round), `<file>-<factor>x.cpuprofile`, and where its time went (decision 089)",
  },
  BENCH_FACTOR: {
    default: '100',
    meaning: 'size of the recompute-through-the-queue bench (drain, takeover)',
  },
  BENCH_FILL_FACTORS: { default: '1,100', meaning: 'sizes of the background-fill bench (decision 049)' },
  BENCH_PAGE_FACTOR: { default: '100', meaning: 'size of the one-first-page bench' },
  BENCH_PAGE_COUNT: { default: '20', meaning: 'pages of each kind it asks' },
  BENCH_CATALOGUE_FACTORS: { default: '1,100', meaning: 'sizes of the whole-catalogue bench' },
  BENCH_CATALOGUE_PATHS: {
    default: '—',
    meaning: 'comma-separated paths: only these whole-catalogue answers',
  },
  BENCH_CACHED_READ_PATHS: { default: '—', meaning: 'comma-separated paths: only these kept reads' },
  BENCH_SEARCH_FACTORS: { default: '1,100', meaning: 'sizes of the search bench' },
  BENCH_SEARCH_ROUNDS: { default: '5', meaning: 'rounds of the search bench (the fastest is kept)' },
  BENCH_SEARCH_SPELLINGS: {
    default: '5',
    meaning: 'first asks per query, the sizes asked in turn after the same warm-up (decision 076)',
  },
  BENCH_MENU_FACTORS: { default: '1,100', meaning: 'sizes of the menu bench' },
  BENCH_MENU_ROUNDS: { default: '5', meaning: 'menus posted per size' },
  BENCH_MENU_PROFILE: {
    default: '—',
    meaning:
      '`<file>`: a CPU profile of the kept menus, `<file>-<factor>x.cpuprofile`, and where their time went (decision 074)',
  },
  BENCH_ESTIMATION_RUNS: { default: '20', meaning: 'estimations timed per size' },
  BENCH_RELEASE_FACTOR: { default: '100', meaning: 'size of the release bench' },
  BENCH_LIGHTHOUSE_RUNS: { default: '3', meaning: 'Lighthouse runs per page (the median is judged)' },
  BENCH_LIGHTHOUSE_PAGES: {
    default: '—',
    meaning:
      'comma-separated: only these Lighthouse pages (home, measurand, applications, menu, releases, estimate)',
  },
  BENCH_LIGHTHOUSE_PORT: { default: '3199', meaning: 'port of the server Lighthouse visits' },
};

const cell = (text: string) => text.replaceAll('|', '\\|');
const shown = (value: string) => (/^[\w./:@<>-]+$/.test(value) && value !== '—' ? `\`${value}\`` : value);

/** The README's settings table, generated (between its `settings:start` and `settings:end` markers). */
export function renderSettingsTable(): string {
  const rows = [
    '| variable | default | meaning |',
    '|---|---|---|',
    ...Object.entries({ ...SETTINGS, ...OTHER_SETTINGS }).map(
      ([name, doc]) => `| \`${name}\` | ${cell(shown(doc.default))} | ${cell(doc.meaning)} |`,
    ),
  ];
  return `${rows.join('\n')}\n`;
}

/** docs/bench.md's table of the bench knobs, generated (between its `bench-settings:` markers). */
export function renderBenchSettingsTable(): string {
  const rows = [
    '| variable | default | meaning |',
    '|---|---|---|',
    ...Object.entries(BENCH_SETTINGS).map(
      ([name, doc]) => `| \`${name}\` | ${cell(shown(doc.default))} | ${cell(doc.meaning)} |`,
    ),
  ];
  return `${rows.join('\n')}\n`;
}

/** The defaults the schema applies, for the test that compares them with the documented ones. */
export const schemaDefaults = () => loadConfig({});
