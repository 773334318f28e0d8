import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The server fences of eslint.config.js, run on snippets placed in existing files of each kind, so
// the type-aware parser knows them: a forbidden import gives exactly one no-restricted-imports error.
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const eslint = new ESLint({ cwd: repoRoot });
const m = 'packages/server/src/modules';
const routes = `${m}/units/units.routes.ts`;
const service = `${m}/units/units.service.ts`;
const presenter = `${m}/units/units.presenter.ts`;
const repository = `${m}/units/units.repository.ts`;
const part = `${m}/meta-analysis/tools/meta-tools.service.ts`;
const partRepository = `${m}/meta-analysis/tools/meta-tools.repository.ts`;
const cli = 'packages/server/src/cli/user-create.ts';

async function fenceErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return result!.messages.filter((x) => x.ruleId === 'no-restricted-imports').map((x) => x.message);
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
    // the ORM or the schema's values in routes, services and presenters
    [routes, "import { eq } from 'drizzle-orm';"],
    [service, "import { sql } from 'drizzle-orm/sql';"],
    [presenter, "import { units } from '../../db/schema.js';"],
  ])('refuses in %s: %s', async (filePath, source) => {
    expect((await fenceErrors(filePath, `${source}\nexport {};\n`)).length).toBeGreaterThan(0);
  });

  it.each([
    [routes, "import { findAnalyte } from '../analytes/analytes.service.js';"],
    [routes, "import { route } from '../../plugins/contract-routes.js';"],
    [service, "import * as repo from './units.repository.js';"],
    [service, "import type { units } from '../../db/schema.js';"],
    [repository, "import { eq } from 'drizzle-orm';"],
    [repository, "import { units } from '../../db/schema.js';"],
    [partRepository, "import { bvSpecifications } from '../../../db/schema.js';"],
    [part, "import { runMetacalculation } from '../stats/stats.service.js';"],
    [part, "import { findAnalyte } from '../../analytes/analytes.service.js';"],
    [part, "import { serviceDeps } from '../../../lib/service-deps.js';"],
  ])('allows in %s: %s', async (filePath, source) => {
    expect(await fenceErrors(filePath, `${source}\nexport {};\n`)).toEqual([]);
  });
}, 120_000);
