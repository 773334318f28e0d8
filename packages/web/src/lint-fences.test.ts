// @vitest-environment node
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The fence of eslint.config.js (feature → feature, feature → app/), run on snippets placed in
// existing feature files at each depth, so the type-aware parser knows them.
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const eslint = new ESLint({ cwd: repoRoot });
const featureRoot = 'packages/web/src/features/search/use-suggestions.ts';
const featureComponent = 'packages/web/src/features/search/components/analyte-search.tsx';

async function fenceErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('lint fences of the web features', () => {
  it.each([
    [featureRoot, '../references/api/get-references'],
    [featureRoot, '../../features/references/api/get-references'],
    [featureRoot, '../../app/routes/home-page'],
    [featureComponent, '../../references/api/get-references'],
    [featureComponent, '../../../features/references/api/get-references'],
    [featureComponent, '../../../app/route-table'],
  ])('refuses in %s an import of %s', async (filePath, from) => {
    const errors = await fenceErrors(filePath, `export { referenceQuery as q } from '${from}';\n`);
    expect(errors).toHaveLength(1);
  });

  it.each([
    [featureRoot, './api/get-suggestions'],
    [featureRoot, '../../lib/session'],
    [featureComponent, '../api/get-suggestions'],
    [featureComponent, '../use-suggestions'],
    [featureComponent, '../../../lib/session'],
    [featureComponent, '../../../components/state-views'],
  ])('allows in %s an import of %s', async (filePath, from) => {
    expect(await fenceErrors(filePath, `export * as m from '${from}';\n`)).toEqual([]);
  });
}, 120_000);
