import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, signIn, test } from './helpers';

const SHOTS = process.env.E2E_SHOTS_DIR;

/** With E2E_SHOTS_DIR set: the page at a desktop and a phone width, to look at. */
async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1366, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
}
const NBIB = `PMID- 39000001
DP  - 2024 Jan
TI  - Biological variation of an e2e measurand in a fictional
      cohort.
PG  - 1-9
LID - 10.9999/bvdb-e2e-${Date.now()} [doi]
AU  - Tester T
AU  - Checker C
TA  - Clin Chem Lab Med
VI  - 62

PMID- 34049424
DP  - 2022
TI  - The European Biological Variation Study (EuBIVAS): a summary report.
AID - 10.1515/cclm-2021-0370 [doi]
AU  - Carobene A
TA  - Clin Chem Lab Med
VI  - 60
`;

test('references from a PubMed file: preview with a duplicate, then create the new one', async ({ page }) => {
  await signIn(page);
  await page.goto('/references/import');
  await expect(page.getByRole('heading', { name: 'Import References from a Citation File' })).toBeVisible();
  await page.getByLabel('Citation file').setInputFiles({
    name: 'pubmed.nbib',
    mimeType: 'text/plain',
    buffer: Buffer.from(NBIB),
  });
  await expect(page.getByText('2 entries in the nbib file; 1 will be created')).toBeVisible();
  await expect(page.getByText(/Same DOI as reference \d+: skipped/)).toBeVisible();
  await expectNoAxeViolations(page);
  await shots(page, 'citations');
  await page.getByRole('button', { name: 'Create 1 reference' }).click();
  await expect(page.getByText('Created 1 reference.')).toBeVisible();
});

test('import a database: a bad file names the row, a merge preview, then confirm', async ({ page }) => {
  await signIn(page);
  const exported = await page.request.get('/export/bv_database.json');
  expect(exported.ok()).toBe(true);
  const text = await exported.text();
  await page.goto('/admin/import');
  await expect(page.getByRole('heading', { name: 'Import a Database' })).toBeVisible();

  const bad = JSON.parse(text) as { tables: { bv_specifications: Record<string, unknown>[] } };
  bad.tables.bv_specifications[1]!.matrix_id = 9999;
  await page.getByLabel('Database file (.json)').setInputFiles({
    name: 'bad.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(bad)),
  });
  await page.getByLabel(/Merge/).check();
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(
    page.getByText(/bv_specifications, row 2 \(id \d+\), field matrix_id: matrices id 9999 does not exist/),
  ).toBeVisible();

  await page.getByLabel('Database file (.json)').setInputFiles({
    name: 'bv_database.json',
    mimeType: 'application/json',
    buffer: Buffer.from(text),
  });
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByRole('cell', { name: 'bv_specifications' })).toBeVisible();
  await expectNoAxeViolations(page);
  await shots(page, 'import');
  await page.getByRole('button', { name: 'Confirm import' }).click();
  await expect(page.getByText(/Imported in [\d.]+ s\./)).toBeVisible();
});

test('a replace lists what it deletes before the confirm, and names the backup it saved first', async ({
  page,
}) => {
  await signIn(page);
  const text = await (await page.request.get('/export/bv_database.json')).text();
  await page.goto('/admin/import');
  await page.getByLabel('Database file (.json)').setInputFiles({
    name: 'bv_database.json',
    mimeType: 'application/json',
    buffer: Buffer.from(text),
  });
  await page.getByLabel(/^Replace/).check();
  await page.getByRole('button', { name: 'Preview' }).click();
  const deletes = page.getByRole('list', { name: /The import deletes/ });
  await expect(deletes.getByText(/^bv_specifications: \d+ rows?$/)).toBeVisible();
  await expect(page.getByText(/saved first as a complete backup/)).toBeVisible();
  await expectNoAxeViolations(page);
  await shots(page, 'import-replace');
  await page.getByRole('button', { name: 'Confirm import' }).click();
  await expect(page.getByText(/saved as bvdb-before-replace-[\dT:.Z-]+\.json/)).toBeVisible();
  // The same data came back: the catalogue still answers.
  expect((await page.request.get('/api/bv_specifications?limit=1')).ok()).toBe(true);
});
