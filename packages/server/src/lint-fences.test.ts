import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- the fence plugin is plain JavaScript beside eslint.config.js, without types
import bvdbFences from '../../../scripts/lint/fences.mjs';
// @ts-expect-error -- the graph script is plain JavaScript beside the lint fences, without types
import * as graphScript from '../../../scripts/lint/module-graph.mjs';

// The fences of eslint.config.js (decisions 047 and 077). Snippets placed in existing files of each kind run
// through the project's own configuration, so the type-aware rule knows the database handle's type;
// files that do not exist (a helper a newcomer might add) run through the import fence alone.
const { fileCycles } = graphScript as unknown as { fileCycles: () => { loop: string }[] };
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const eslint = new ESLint({ cwd: repoRoot });
const pathsOnly = new ESLint({
  cwd: repoRoot,
  overrideConfigFile: true,
  overrideConfig: [
    {
      files: ['**/*.{ts,tsx}'],
      languageOptions: { parser: tseslint.parser },
      plugins: { bvdb: bvdbFences as never },
      rules: { 'bvdb/fences': 'error' },
    },
  ],
});
const cyclesOnly = new ESLint({
  cwd: repoRoot,
  overrideConfigFile: true,
  overrideConfig: [
    {
      files: ['**/*.{ts,tsx}'],
      languageOptions: { parser: tseslint.parser },
      plugins: { bvdb: bvdbFences as never },
      rules: { 'bvdb/no-import-cycles': 'error' },
    },
  ],
});
const FENCE_RULES = new Set(['bvdb/fences', 'bvdb/no-query-outside-repositories']);
const CYCLE_RULES = new Set(['bvdb/no-import-cycles']);

const m = 'packages/server/src/modules';
const routes = `${m}/units/units.routes.ts`;
const service = `${m}/units/units.service.ts`;
const presenter = `${m}/units/units.presenter.ts`;
const repository = `${m}/units/units.repository.ts`;
const helper = `${m}/search/name-order.ts`;
const part = `${m}/meta-analysis/tools/meta-tools.service.ts`;
const partRepository = `${m}/meta-analysis/tools/meta-tools.repository.ts`;
const cli = 'packages/server/src/cli/user-create.ts';
const plugin = 'packages/server/src/plugins/security-headers.ts';
const lib = 'packages/server/src/lib/json-depth.ts';
const dbFolder = 'packages/server/src/db/change-listener.ts';
const face = `${m}/units/index.ts`;
const app = 'packages/server/src/app.ts';
const kernelLib = 'packages/server/src/lib/periodic-task.ts';
const handle =
  "import type { Db, Tx } from '../../db/client.js';\ndeclare const db: Db;\ndeclare const tx: Tx;\n";

async function fenceErrors(
  filePath: string,
  source: string,
  engine = eslint,
  rules = FENCE_RULES,
): Promise<string[]> {
  const [result] = await engine.lintText(`${source}\nexport {};\n`, { filePath });
  const fatal = result!.messages.filter((x) => x.fatal);
  expect(fatal).toEqual([]);
  return result!.messages.filter((x) => rules.has(x.ruleId ?? '')).map((x) => x.message);
}

describe('lint fences of the server', () => {
  it.each([
    // another module's repository, from anywhere
    [service, "import { findAnalyte } from '../analytes/analytes.repository.js';"],
    [part, "import { listJobs } from '../jobs/job-records.repository.js';"],
    [cli, "import { findUserByEmail } from '../modules/auth/users.repository.js';"],
    // another module's internals (presenter, helper) instead of its service
    [routes, "import { presentDataset } from '../datasets/datasets.presenter.js';"],
    [part, "import { presentMeta } from '../results/meta-results.presenter.js';"],
    [part, "import { presentDataset } from '../../datasets/datasets.presenter.js';"],
    // the ORM, a driver or the schema's values outside the places SQL may live
    [routes, "import { eq } from 'drizzle-orm';"],
    [service, "import { sql } from 'drizzle-orm/sql';"],
    [presenter, "import { units } from '../../db/schema.js';"],
    [helper, "import { sql } from 'drizzle-orm';"], // SQL in a helper file
    [lib, "import { sql } from 'drizzle-orm';"],
    [plugin, "import { analytes } from '../db/schema.js';"],
    [service, "import pg from 'pg';"],
    // a query on the database handle itself, without importing anything of the ORM
    [routes, `${handle}export const q = db.execute('select 1');`],
    [service, `${handle}export const q = db.select().from({} as never);`],
    [helper, `${handle}export const q = tx.insert({} as never);`],
    [presenter, `${handle}export const q = db.query;`],
    [
      routes,
      "import type { Database } from '../../db/client.js';\ndeclare const d: Database;\nexport const q = d.execute('select 1');",
    ],
    // a relative import that leaves its own package (decision 077)
    [service, "import { apsRequest } from '../../../../contract/src/index.js';"],
    [routes, "import { GRADES } from '../../../../domain/src/index.js';"],
    // product code importing test code
    [cli, "import { useTestApp } from '../test/test-app.js';"],
    [cli, "import { benchApp } from '../bench/bench-app.js';"],
    // another module reached past its face (index.ts), from a module, app.ts or the command line
    [routes, "import { findAnalyte } from '../analytes/analytes.service.js';"],
    [part, "import { findAnalyte } from '../../analytes/analytes.service.js';"],
    [app, "import { registerUnitRoutes } from './modules/units/units.routes.js';"],
    [cli, "import { createUser } from '../modules/auth/users.service.js';"],
    // a face passing on a repository's functions, lib/ or another module
    [face, "export { listUnitsWithUsage } from './units.repository.js';"],
    [face, "export * from './units.repository.js';"],
    [
      `${m}/meta-analysis/index.ts`,
      "export { listDisplayedMetas } from './results/meta-results.repository.js';",
    ],
    [face, "export { AppError } from '../../lib/app-error.js';"],
    [face, "export { findAnalyte } from '../analytes/index.js';"],
    // the kernel (lib/, plugins/) importing a module, even through its face or for a type
    [plugin, "import { SESSION_COOKIE } from '../modules/auth/index.js';"],
    [kernelLib, "import type { RecomputeWorker } from '../modules/recompute-queue/index.js';"],
  ])('refuses in %s: %s', async (filePath, source) => {
    expect(await fenceErrors(filePath, source)).toHaveLength(1);
  });

  it.each([
    [routes, "import { findAnalyte } from '../analytes/index.js';"],
    [routes, "import { route } from '../../plugins/contract-routes.js';"],
    [service, "import * as repo from './units.repository.js';"],
    [service, "import type { units } from '../../db/schema.js';"],
    [service, "import { type units } from '../../db/schema.js';"],
    [service, `${handle}export const q = db.transaction(async () => 1);`],
    [service, 'const cache = new Map<string, number>();\ncache.delete("x");'],
    [repository, "import { eq } from 'drizzle-orm';"],
    [repository, "import { units } from '../../db/schema.js';"],
    [repository, `${handle}export const q = db.execute('select 1');`],
    [partRepository, "import { bvSpecifications } from '../../../db/schema.js';"],
    [dbFolder, "import { sql } from 'drizzle-orm';"],
    [part, "import { runMetacalculation } from '../stats/stats.service.js';"],
    [part, "import { findAnalyte } from '../../analytes/index.js';"],
    [part, "import { serviceDeps } from '../../../lib/service-deps.js';"],
    [app, "import { registerUnitRoutes } from './modules/units/index.js';"],
    [face, "export { registerUnitRoutes } from './units.routes.js';"],
    [face, "export { listUnitsWithUsage } from './units.service.js';"],
    [face, "export type { UnitRow } from './units.repository.js';"],
    [`${m}/meta-analysis/index.ts`, "export type { MetaRow } from './results/meta-results.repository.js';"],
    [plugin, "import { AppError } from '../lib/app-error.js';"],
    [service, "import { bumpDataGeneration } from '../../lib/app-state.repository.js';"],
  ])('allows in %s: %s', async (filePath, source) => {
    expect(await fenceErrors(filePath, source)).toEqual([]);
  });

  // Files a newcomer might add, judged by where they are, at any depth.
  it.each([
    [`${m}/units/helpers/format.ts`, "import { sql } from 'drizzle-orm';"],
    [
      `${m}/units/a/b/c/deep.ts`,
      "import { presentDataset } from '../../../../datasets/datasets.presenter.js';",
    ],
    [`${m}/units/a/b/c/deep.ts`, "import { listUnits } from '../../../../analytes/analytes.repository.js';"],
    ['packages/server/src/plugins/new-plugin.ts', "import { analytes } from '../db/schema.js';"],
    [
      'packages/server/src/plugins/new-plugin.ts',
      "import { findAnalyte } from '../modules/analytes/index.js';",
    ],
    [
      'packages/server/src/lib/new-port.ts',
      "import type { RecomputeBatch } from '../modules/recompute-queue/index.js';",
    ],
    [`${m}/units/helpers/format.ts`, "import { useTestApp } from '../../../test/test-app.js';"],
    [`${m}/units/helpers/format.ts`, "import { x } from '../../../test/fixtures.test.js';"],
    [`${m}/units/helpers/format.ts`, "import { z } from '../../../../../contract/src/common.js';"],
  ])('refuses in a new file %s: %s', async (filePath, source) => {
    expect(await fenceErrors(filePath, source, pathsOnly)).toHaveLength(1);
  });
}, 300_000);

describe('no import cycle in the server, of files or of modules (decision 077)', () => {
  // An existing file linted with a planted import: the rest of the graph is read from disk.
  it.each([
    // the three pairs there were, planted back
    [
      `${m}/auth/login-throttle.memory.ts`,
      "import { loginThrottleFor } from './login-throttle.repository.js';",
    ],
    [
      `${m}/meta-analysis/results/meta-results.presenter.ts`,
      "import type { listMetaPage } from './meta-results.service.js';",
    ],
    [`${m}/units/units.repository.ts`, "import { listUnitsWithUsage } from './units.service.js';"],
    // through a face and across folders
    [`${m}/audit/audit.service.ts`, "import { registerUnitRoutes } from '../units/index.js';"],
    ['packages/server/src/lib/service-deps.ts', "import { buildApp } from '../app.js';"],
  ])('refuses a file cycle in %s: %s', async (filePath, source) => {
    const errors = await fenceErrors(filePath, source, cyclesOnly, CYCLE_RULES);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^Import cycle: /);
  });

  it('refuses a module cycle that no file cycle closes (a new file of audit importing units, which imports audit)', async () => {
    const errors = await fenceErrors(
      `${m}/audit/audit-helper.ts`,
      "import { registerUnitRoutes } from '../units/index.js';",
      cyclesOnly,
      CYCLE_RULES,
    );
    expect(errors).toEqual([expect.stringMatching(/^Module cycle: audit → units → audit/)]);
  });

  it.each([
    [routes, "import { recordAudit } from '../audit/index.js';"],
    [`${m}/units/new-helper.ts`, "import { listUnitsWithUsage } from './units.service.js';"],
    [service, "import * as repo from './units.repository.js';"],
  ])('allows in %s: %s', async (filePath, source) => {
    expect(await fenceErrors(filePath, source, cyclesOnly, CYCLE_RULES)).toEqual([]);
  });

  it('finds no cycle between files of the server as it is', () => {
    const cycles = fileCycles();
    expect(cycles.map((c) => c.loop)).toEqual([]);
  });
}, 300_000);

describe('lint fences of the domain and the contract', () => {
  it.each([
    ['packages/domain/src/aps.ts', "import { apsRequest } from '@bvdb/contract';"],
    ['packages/domain/src/aps.ts', "import { apsRequest } from '../../contract/src/index.js';"],
    ['packages/domain/src/aps.ts', "import fs from 'node:fs';"],
    [
      'packages/domain/src/stats/deep/new-file.ts',
      "import { db } from '../../../../server/src/db/client.js';",
    ],
    [
      'packages/contract/src/datasets.contract.ts',
      "import { route } from '../../server/src/plugins/contract-routes.js';",
    ],
    ['packages/contract/src/datasets.contract.ts', "import pg from 'pg';"],
  ])('refuses in %s: %s', async (filePath, source) => {
    expect(await fenceErrors(filePath, source, pathsOnly)).toHaveLength(1);
  });

  it.each([
    ['packages/domain/src/aps.ts', "import { z } from 'zod';"],
    ['packages/domain/src/aps.ts', "import { parseCsv } from './csv.js';"],
    ['packages/contract/src/datasets.contract.ts', "import { QUALITY_ITEMS } from '@bvdb/domain';"],
  ])('allows in %s: %s', async (filePath, source) => {
    expect(await fenceErrors(filePath, source, pathsOnly)).toEqual([]);
  });
}, 120_000);
