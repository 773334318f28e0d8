import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { apiJson, expect, expectNoAxeViolations, signIn, test } from './helpers';

// Issue 18, points 3–5: cite an estimate, permalinks that survive a recomputation, pages that link
// to each other, the A–Z index, the whole-database downloads, citations without unknowns.

interface Meta {
  id: number;
  matrix: string;
  var_type: ':cvi' | ':cvg';
  median: number | null;
  number_used: number;
  datasets: { bv_specification_id: number }[];
}

async function measurandId(page: Page, name: string): Promise<number> {
  const list = await apiJson<{ data: { id: number; display_name: string }[] }>(
    page,
    '/api/v1/measurands?limit=500',
  );
  return list.data.find((m) => m.display_name === name)!.id;
}

const metasOf = async (page: Page, id: number) =>
  (await apiJson<{ metas: Meta[] }>(page, `/api/v1/measurands/${id}/metas`)).metas;

const serumCvi = (metas: Meta[]) => metas.find((m) => m.matrix === 'Serum' && m.var_type === ':cvi');

const UNKNOWNS = /Unknown Author|Unknown Title|Unknown Journal|\(n\.d\.\)|;0:|N\/A\.|et al\.\./;

test('cite an estimate: the text to copy, RIS and BibTeX files', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
  const id = await measurandId(page, 'Creatinine');
  const meta = serumCvi(await metasOf(page, id))!;
  await page.goto(`/analytes/${id}`);
  await page.getByRole('button', { name: 'Cite this estimate: Serum CVI' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cite this estimate' });
  const permalink = `${baseURL}/analytes/${id}?matrix=Serum&type=CVI`;
  const text = dialog.getByTestId('citation-text');
  await expect(text).toHaveValue(
    /The EFLM Biological Variation Database\. https:\/\/biologicalvariation\.eu\/ \[cited \d{4} \w{3} \d{1,2}\]\./,
  );
  const value = await text.inputValue();
  expect(value).toContain(
    'Creatinine (Serum): within-subject biological variation (CVI): weighted median CVI ',
  );
  expect(value).toContain(`N = ${meta.number_used} stud`);
  expect(value).toMatch(/updated \d{4} \w{3} \d{1,2}\./);
  expect(value.endsWith(`Available from: ${permalink}`)).toBe(true);
  expect(value).not.toMatch(UNKNOWNS);
  await expect(dialog.getByTestId('citation-permalink')).toHaveAttribute('href', permalink);

  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Copy' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Copied to the clipboard');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);

  const [ris] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('link', { name: 'Download RIS' }).click(),
  ]);
  expect(ris.suggestedFilename()).toBe('bvdb-creatinine-serum-cvi.ris');
  const risText = fs.readFileSync(await ris.path(), 'utf8');
  expect(risText.startsWith('TY  - DATA\r\nAU  - Aarsand, AK\r\n')).toBe(true);
  expect(risText).toContain('TI  - Creatinine (Serum): within-subject biological variation (CVI)\r\n');
  expect(risText).toContain('T2  - The EFLM Biological Variation Database\r\n');
  expect(risText).toContain(`UR  - ${permalink}\r\n`);
  expect(risText).toMatch(/N1 {2}- weighted median CVI [\d.]+%/);
  expect(risText.trimEnd().endsWith('ER  -')).toBe(true);

  const [bib] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('link', { name: 'Download BibTeX' }).click(),
  ]);
  expect(bib.suggestedFilename()).toBe('bvdb-creatinine-serum-cvi.bib');
  const bibText = fs.readFileSync(await bib.path(), 'utf8');
  expect(bibText.startsWith('@misc{bvdb-creatinine-serum-cvi,\n')).toBe(true);
  expect(bibText).toContain('author = {Aarsand, AK and Fernandez-Calle, P and');
  expect(bibText).toContain(`url = {${permalink}}`);
  expect(bibText).toMatch(/note = \{weighted median CVI [\d.]+\\% /);

  await dialog.locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});

test('cite a dataset: its estimates, subjects, the study and its permalink', async ({ page, baseURL }) => {
  const id = await measurandId(page, 'Creatinine');
  const datasetId = serumCvi(await metasOf(page, id))!.datasets[0]!.bv_specification_id;
  await page.goto(`/bv_specifications/${datasetId}`);
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: /^Cite this estimate: dataset / }).click();
  const value = await page.getByRole('dialog').getByTestId('citation-text').inputValue();
  expect(value).toMatch(/Creatinine \(Serum\): biological variation dataset \S+: CVI [\d.]+%/);
  expect(value).toMatch(/N = \d+ subjects/);
  expect(value).toContain('Study: ');
  expect(value.endsWith(`Available from: ${baseURL}/bv_specifications/${datasetId}`)).toBe(true);
  expect(value).not.toMatch(UNKNOWNS);
});

test('a permalink opens its estimate, also after a recomputation gave the estimate another id', async ({
  page,
}) => {
  const id = await measurandId(page, 'Creatinine');
  const before = serumCvi(await metasOf(page, id))!;
  const permalink = `/analytes/${id}?matrix=Serum&type=CVI`;

  const expectTarget = async () => {
    await page.goto(permalink);
    const row = page.locator('tr[data-permalink-target="true"]');
    await expect(row).toHaveCount(1);
    await expect(row).toHaveAttribute('id', 'estimate-serum-cvi');
    await expect(row).toHaveClass(/estimate-target/);
    await expect(row).toBeInViewport();
    await expect(row.locator('td[data-label="BV Estimate"]')).toContainText('Within-subject (CVI)');
  };
  await expectTarget();
  // A fragment names the same row without the app's code.
  await expect(page.locator('#estimate-serum-cvi')).toHaveCount(1);

  // Take every dataset out of the Serum CVI estimate, so the result goes, then put them back: the
  // recomputation makes a new result with a new id.
  await signIn(page);
  const { csrf_token } = await apiJson<{ csrf_token: string }>(page, '/api/session');
  const setIncluded = async (datasetId: number, included: 0 | 1) => {
    const form = await apiJson<{ bv_specification: Record<string, unknown>; version: number }>(
      page,
      `/api/bv_specifications/${datasetId}/form`,
    );
    const res = await page.request.put(`/bv_specifications/${datasetId}`, {
      headers: { 'X-CSRF-Token': csrf_token },
      data: {
        bv_specification: { ...form.bv_specification, include_in_meta_analysis: included },
        version: form.version,
      },
    });
    expect(res.status(), await res.text()).toBe(200);
  };
  const used = before.datasets.map((d) => d.bv_specification_id);
  for (const d of used) await setIncluded(d, 0);
  await expect.poll(async () => serumCvi(await metasOf(page, id)), { timeout: 30_000 }).toBeUndefined();
  for (const d of used) await setIncluded(d, 1);
  await expect
    .poll(async () => serumCvi(await metasOf(page, id))?.id ?? before.id, { timeout: 30_000 })
    .not.toBe(before.id);
  const after = serumCvi(await metasOf(page, id))!;
  expect(after.median).toBeCloseTo(before.median!, 6);

  await page.context().clearCookies();
  await expectTarget();
});

test('pages link to each other: dataset → reference → datasets with matrix, CVI, CVG → measurand', async ({
  page,
}) => {
  const id = await measurandId(page, 'Creatinine');
  const datasetId = serumCvi(await metasOf(page, id))!.datasets[0]!.bv_specification_id;
  const dataset = (
    await apiJson<{ dataset: { reference_id: number; reference_doi: string | null } }>(
      page,
      `/api/bv_specifications/${datasetId}`,
    )
  ).dataset;
  await page.goto(`/bv_specifications/${datasetId}`);
  const from = page.getByTestId('dataset-reference');
  await expect(from.getByRole('link', { name: 'Creatinine', exact: true })).toHaveAttribute(
    'href',
    `/analytes/${id}`,
  );
  if (dataset.reference_doi)
    await expect(from.getByRole('link', { name: /^DOI/ })).toHaveAttribute(
      'href',
      `https://doi.org/${dataset.reference_doi}`,
    );
  await expect(from).not.toContainText(UNKNOWNS);
  await from.locator(`a[href="/references/${dataset.reference_id}"]`).click();
  await expect(page).toHaveURL(`/references/${dataset.reference_id}`);
  const table = page.getByRole('table', { name: 'Specifications of this reference' });
  await expect(table).toBeVisible();
  await expectNoAxeViolations(page);
  for (const name of ['Analyte', 'Matrix', 'CVI (%)', 'CVG (%)'])
    await expect(table.getByRole('columnheader', { name, exact: true })).toBeVisible();
  const row = table.locator('tbody tr', { has: page.locator(`a[href="/bv_specifications/${datasetId}"]`) });
  await expect(row.locator('td[data-label="Matrix"]')).toHaveText('Serum');
  await expect(row.locator('td[data-label="CVI (%)"]')).toHaveText(/^\d+\.\d$/);
  await row.getByRole('link', { name: 'Creatinine', exact: true }).click();
  await expect(page).toHaveURL(`/analytes/${id}`);

  // Measurands are links on the lists too.
  await page.goto('/bv_specifications');
  await expect(page.locator('tbody tr').first().locator('td').first().getByRole('link')).toHaveAttribute(
    'href',
    /^\/analytes\/\d+$/,
  );
  await page.goto('/meta_calculations');
  const first = page.locator('tbody tr').first();
  await expect(first.locator('td[data-label="Marker"] a')).toHaveAttribute('href', /^\/analytes\/\d+$/);
  await expect(first.getByRole('link', { name: /^View / })).toHaveAttribute(
    'href',
    /^\/analytes\/\d+\?matrix=.+&type=CV[IG]$/,
  );
});

test('citations in running text leave out what is missing; references with datasets open the list', async ({
  page,
}) => {
  await page.goto('/bv_specifications');
  const cells = page.locator('tbody tr td:nth-child(3)');
  await expect(cells.first()).not.toBeEmpty();
  for (const t of await cells.allTextContents()) expect(t).not.toMatch(UNKNOWNS);
  await page.goto('/references');
  const usedIn = await page.locator('tbody tr td:nth-child(2)').allTextContents();
  expect(usedIn.length).toBeGreaterThan(0);
  expect(usedIn[0]).not.toBe('0 datasets');
  for (const t of await page.locator('tbody tr td:first-child').allTextContents())
    expect(t).not.toMatch(UNKNOWNS);
});

test('the search results page keeps the query in its box and says what was searched', async ({ page }) => {
  await page.goto('/search?query=glucose');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search results for "glucose"');
  await expect(page.locator('main').getByRole('combobox', { name: 'Search for analyte' })).toHaveValue(
    'glucose',
  );
});

test('By Measurand has an A–Z index that jumps to its letter, with the keyboard too', async ({ page }) => {
  await page.goto('/bv_specifications/measurand');
  const index = page.getByRole('navigation', { name: 'Measurands A to Z' });
  await expect(index).toBeVisible();
  await expectNoAxeViolations(page);
  const letter = index.getByRole('link', { name: 'S', exact: true });
  await letter.focus();
  await page.keyboard.press('Enter');
  const heading = page.locator('#measurands-S');
  await expect(heading).toBeInViewport();
  await expect(heading).toBeFocused();
  await expect(page).toHaveURL(/#measurands-S$/);
  // Every measurand in the S section starts with S.
  const names = await page.locator('section[aria-labelledby="measurands-S"] h3').allTextContents();
  expect(names.length).toBeGreaterThan(0);
  for (const n of names) expect(n.trim()[0]).toBe('S');
  // Letters without a measurand are not links.
  const links = await index.getByRole('link').count();
  expect(links).toBeLessThanOrEqual(27);
});

test('the whole-database downloads are linked from the home page and the lists', async ({ page }) => {
  for (const path of [
    '/',
    '/bv_specifications',
    '/bv_specifications/measurand',
    '/references',
    '/meta_calculations',
  ]) {
    await page.goto(path);
    const downloads = page.getByRole('navigation', { name: 'Download the whole database' });
    await expect(downloads.getByRole('link', { name: 'Excel (.xlsx)' })).toHaveAttribute(
      'href',
      '/export/bv_database.xlsx',
    );
    await expect(downloads.getByRole('link', { name: 'CSV (.csv)' })).toHaveAttribute(
      'href',
      '/export/bv_database.csv',
    );
  }
  const csv = await page.request.get('/export/bv_database.csv');
  expect(csv.status()).toBe(200);
  expect(csv.headers()['content-type']).toMatch(/text\/csv/);
  expect((await csv.text()).split('\n')[0]).toContain('Citation');
});
