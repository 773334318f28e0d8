import { apiJson, expect, expectNoAxeViolations, openInApp, test } from './helpers';

test('matrices: sorted ascending by default, sortable and filterable', async ({ page }) => {
  await page.goto('/matrices');
  await expect(page.getByText(/contact the administrator/)).toBeVisible();
  const firstCell = page.locator('tbody tr').first().locator('td').first();
  await expect(firstCell).toHaveText('2 Hour Urine');
  const header = page.getByRole('columnheader', { name: /Matrix Expansion/ });
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect(firstCell).toHaveText('Whole Blood EDTA');
  await page.getByLabel('Filter Matrix Expansion').fill('urine');
  await expect(page.locator('tbody tr')).toHaveCount(6);
  await expectNoAxeViolations(page);
});

test('references: server paging, search, empty search, details modal', async ({ page }) => {
  await page.goto('/references');
  await expect(page.locator('tbody tr')).toHaveCount(10);
  await expect(page.getByText('Current Page:')).toContainText('1');
  const prev = page.getByRole('listitem').filter({ hasText: 'Previous' });
  await expect(prev).toHaveClass(/disabled/);
  await page.getByRole('button', { name: 'Page 2' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByText('Current Page:')).toContainText('2');
  await page.getByPlaceholder('Search references...').fill('EuBIVAS');
  await expect(page).toHaveURL(/search=EuBIVAS/);
  const rows = page.locator('tbody tr');
  await expect(rows.first()).toContainText('EuBIVAS');
  await rows.first().getByRole('button').first().click();
  const dialog = page.getByRole('dialog', { name: 'Reference Details' });
  await expect(dialog).toBeVisible();
  for (const label of [
    'Title',
    'Authors',
    'Year of Publication',
    'Pubmed Link',
    'Pages',
    'Volume',
    'doi',
    'Links',
    'Article ID',
    'Files',
  ]) {
    await expect(dialog.getByText(label, { exact: true })).toBeVisible();
  }
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(dialog).toBeHidden();
  await page.getByPlaceholder('Search references...').fill('no-such-paper-anywhere');
  await expect(page.getByText('No references found')).toBeVisible();
});

test('reference page: its datasets, the green export link', async ({ page }) => {
  await page.goto('/references/1');
  await expect(page.getByRole('link', { name: 'Export' })).toHaveAttribute(
    'href',
    '/export_by_reference/1.xlsx',
  );
  const res = await page.request.get('/export_by_reference/1.xlsx');
  expect(res.headers()['content-disposition']).toMatch(/^attachment/);
});

test('all BV data: total, default sort name descending, filter by name or id, paging of 10', async ({
  page,
}) => {
  const all = await apiJson<{ datasets: { analyte_display_name: string }[] }>(page, '/api/bv_specifications');
  await page.goto('/bv_specifications');
  await expect(page.getByText('Total Number of BVIAC datasets found')).toContainText(
    String(all.datasets.length),
  );
  const names = all.datasets
    .map((d) => d.analyte_display_name)
    .sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? 1 : a.toLowerCase() > b.toLowerCase() ? -1 : 0));
  await expect(page.locator('tbody tr').first().locator('td').first()).toHaveText(names[0]!);
  await expect(page.locator('tbody tr')).toHaveCount(10);
  await page.getByLabel('Filter by measurand or id').fill('troponin');
  const expected = all.datasets.filter((d) =>
    d.analyte_display_name.toLowerCase().includes('troponin'),
  ).length;
  await expect(page.getByText('Total Number of BVIAC datasets found')).toContainText(String(expected));
  await page
    .getByRole('columnheader', { name: /Measurand/ })
    .getByRole('button')
    .click();
  await expect(page.getByRole('columnheader', { name: /Measurand/ })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  await expectNoAxeViolations(page);
  await page.getByRole('tab', { name: 'Specifications table' }).click();
  await expect(page.locator('#specs_table tbody tr').first().locator('td').nth(4)).toHaveText(
    /^[A-Z][a-z]+ \d{1,2}(st|nd|rd|th) \d{4}$/,
  );
});

test('by measurand: record counts, accordion by reference title, tiles open by id', async ({
  page,
  context,
}) => {
  await page.goto('/bv_specifications/measurand');
  await expect(page.getByRole('heading', { name: 'By Measurand' })).toBeVisible();
  await expect(page.getByText(/There are: \d+ Records/).first()).toBeVisible();
  await page.getByRole('button', { name: 'Tiles' }).click();
  const tile = page.locator('.tile').first();
  await expect(tile).toHaveCSS('width', '200px');
  const href = await tile.getAttribute('href');
  expect(href).toMatch(/^\/api\/search\/by_id\?query=\d+$/);
  const [popup] = await Promise.all([context.waitForEvent('page'), tile.click()]);
  await popup.waitForLoadState();
  await expect(popup).toHaveURL(/\/analytes\/\d+$/);
});

test('meta-analysis list, and its error state', async ({ page }) => {
  await page.goto('/meta_calculations');
  await expect(page.locator('tbody tr').first()).toBeVisible();
  await page.route('**/api/v1/metas?**', (r) => r.fulfill({ status: 500, body: '{}' }));
  await openInApp(page, '/meta_calculations');
  await expect(page.getByText('An error occurred while fetching meta calculations.')).toBeVisible();
});

test('content pages load from the built-in store', async ({ page }) => {
  await page.goto('/about');
  await expect(page.getByRole('heading', { name: 'About' })).toBeVisible();
  await expect(page.getByText(/BIVAC/).first()).toBeVisible();
  await page.route('**/api/content/**', (r) => r.fulfill({ status: 502, body: '{"message":"x"}' }));
  await page.goto('/background');
  await expect(page.getByText('Failed to load page data.')).toBeVisible();
});
