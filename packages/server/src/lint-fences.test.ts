import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- the fence plugin is plain JavaScript beside eslint.config.js, without types
import bvdbFences from '../../../scripts/lint/fences.mjs';

// The fences of eslint.config.js (decision 047). Snippets placed in existing files of each kind run
// through the project's own configuration, so the type-aware rule knows the database handle's type;
// files that do not exist (a helper a newcomer might add) run through the import fence alone.
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
const FENCE_RULES = new Set(['bvdb/fences', 'bvdb/no-query-outside-repositories']);

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
const handle =
  "import type { Db, Tx } from '../../db/client.js';\ndeclare const db: Db;\ndeclare const tx: Tx;\n";

async function fenceErrors(filePath: string, source: string, engine = eslint): Promise<string[]> {
  const [result] = await engine.lintText(`${source}\nexport {};\n`, { filePath });
  const fatal = result!.messages.filter((x) => x.fatal);
  expect(fatal).toEqual([]);
  return result!.messages.filter((x) => FENCE_RULES.has(x.ruleId ?? '')).map((x) => x.message);
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
  ])('refuses in %s: %s', async (filePath, source) => {
    expect(await fenceErrors(filePath, source)).toHaveLength(1);
  });

  it.each([
    [routes, "import { findAnalyte } from '../analytes/analytes.service.js';"],
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
    [part, "import { findAnalyte } from '../../analytes/analytes.service.js';"],
    [part, "import { serviceDeps } from '../../../lib/service-deps.js';"],
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
  ])('refuses in a new file %s: %s', async (filePath, source) => {
    expect(await fenceErrors(filePath, source, pathsOnly)).toHaveLength(1);
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
