// @vitest-environment node
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- the fence plugin is plain JavaScript beside eslint.config.js, without types
import bvdbFences from '../../../scripts/lint/fences.mjs';

// The web fences of eslint.config.js (decision 047), judged on resolved paths: snippets placed in
// existing files run through the project's configuration; files that do not exist yet (a folder
// four levels deep) through the import fence alone.
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
const featureRoot = 'packages/web/src/features/search/use-suggestions.ts';
const featureComponent = 'packages/web/src/features/search/components/analyte-search.tsx';
const deep = 'packages/web/src/features/search/components/parts/rows/cell.tsx';
const component = 'packages/web/src/components/state-views.tsx';
const lib = 'packages/web/src/lib/alphabet-index.ts';

async function fenceErrors(filePath: string, from: string, engine = eslint): Promise<string[]> {
  const [result] = await engine.lintText(`export * as m from '${from}';\n`, { filePath });
  expect(result!.messages.filter((x) => x.fatal)).toEqual([]);
  return result!.messages.filter((m) => m.ruleId === 'bvdb/fences').map((m) => m.message);
}

describe('lint fences of the web', () => {
  it.each([
    [featureRoot, '../references/api/get-references'],
    [featureRoot, '../../features/references/api/get-references'],
    [featureRoot, '../../app/routes/home-page'],
    [featureComponent, '../../references/api/get-references'],
    [featureComponent, '../../../features/references/api/get-references'],
    [featureComponent, '../../../app/route-table'],
    // shared code builds on nothing above it
    [component, '../features/search/use-suggestions'],
    [lib, '../app/route-table'],
    // the server is reached over HTTP only
    [lib, '../../../server/src/config.js'],
  ])('refuses in %s an import of %s', async (filePath, from) => {
    expect(await fenceErrors(filePath, from)).toHaveLength(1);
  });

  it.each([
    [deep, '../../../../references/api/get-references'],
    [deep, '../../../../../app/route-table'],
    ['packages/web/src/components/cite/deep/new-part.tsx', '../../../features/meta-results/api/get-metas'],
  ])('refuses in a new file %s an import of %s', async (filePath, from) => {
    expect(await fenceErrors(filePath, from, pathsOnly)).toHaveLength(1);
  });

  it.each([
    [featureRoot, './api/get-suggestions'],
    [featureRoot, '../../lib/session'],
    [featureComponent, '../api/get-suggestions'],
    [featureComponent, '../use-suggestions'],
    [featureComponent, '../../../lib/api-client'],
    [featureComponent, '../../../components/state-views'],
    [component, '../lib/api-client'],
    [featureComponent, '@bvdb/contract'],
  ])('allows in %s an import of %s', async (filePath, from) => {
    expect(await fenceErrors(filePath, from)).toEqual([]);
  });

  it('allows a deep file of a feature to import its own feature and shared code', async () => {
    expect(await fenceErrors(deep, '../../../api/get-suggestions', pathsOnly)).toEqual([]);
    expect(await fenceErrors(deep, '../../../../../components/state-views', pathsOnly)).toEqual([]);
  });
}, 300_000);
