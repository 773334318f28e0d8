import { calculateAps, formatFixed } from '@bvdb/domain';
import type { Page } from '@playwright/test';
import { apiJson, expect, expectNoAxeViolations, test, waitForApp } from './helpers';

interface Analyte {
  id: number;
  display_name: string;
}

async function analyteNamed(page: Page, name: string): Promise<Analyte> {
  const found = await apiJson<{ analytes: Analyte[] }>(
    page,
    `/api/search/by_analyte?format=json&query=${encodeURIComponent(name)}`,
  );
  return found.analytes.find((a) => a.display_name === name)!;
}

/** The APS results table: one row per level, four plain numbers each. */
async function expectApsTable(dialog: ReturnType<Page['getByRole']>, cvi: number, cvg: number) {
  // The point table (the same specifications over the estimates' limits follow in a second one).
  const table = dialog.getByRole('table').first();
  await expect(table.getByRole('columnheader')).toHaveText([
    'Level',
    'CVa (%)',
    /^Bias \(%\)/,
    'MAU (%, k = 2)',
    /^TE \(%\)/,
  ]);
  await expect(table.getByRole('rowheader')).toHaveText(['Optimal', 'Desirable', 'Minimum']);
  const aps = calculateAps(cvi, cvg);
  for (const [i, level] of (['optimal', 'desirable', 'minimum'] as const).entries()) {
    const l = aps[level];
    await expect(table.locator('tbody tr').nth(i).getByRole('cell')).toHaveText(
      [l.imprecision, l.bias, l.mau, l.totalError].map((v) => formatFixed(v, 1)),
    );
  }
  await expect(table.getByRole('cell').filter({ hasText: '%' })).toHaveCount(0);
  // The live markup (issue 27.2): each level a row of five plain <td>s, the first a row header to AT.
  await expect(table.locator('tbody tr')).toHaveCount(3);
  await expect(table.locator('tbody th')).toHaveCount(0);
  await expect(table.locator('tbody tr > td:first-child[role="rowheader"]')).toHaveCount(3);
  for (const i of [0, 1, 2]) await expect(table.locator('tbody tr').nth(i).locator('> *')).toHaveCount(5);
  await expect(table.locator('tbody')).not.toContainText('%');
}

/**
 * The APS ranges table (issue 42.11): its level names are <th scope="row">, never the main table's
 * <td>, so a script that reads every modal row's <td>s never reads a range as a point value.
 */
async function expectApsRangesShape(dialog: ReturnType<Page['getByRole']>) {
  const ranges = dialog.getByTestId('aps-ranges');
  await expect(ranges).toHaveCount(1);
  await expect(ranges.locator('tbody tr')).toHaveCount(3);
  await expect(ranges.locator('tbody tr > th:first-child[scope="row"]')).toHaveText([
    'Optimal',
    'Desirable',
    'Minimum',
  ]);
  await expect(ranges.locator('tbody td[role="rowheader"]')).toHaveCount(0);
  const main = dialog.getByRole('table').first();
  await expect(main.locator('tbody th')).toHaveCount(0);
}

test('search landing: search a name, click the item with that name, open the APS modal, see the table', async ({
  page,
}) => {
  await page.goto('/');
  const main = page.getByRole('main');
  await main.getByRole('combobox').fill('vitamin');
  await main.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/search\?query=vitamin$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search results for "vitamin"');
  await expect(page.getByRole('main').getByRole('combobox')).toHaveValue('vitamin');
  // The search may arrive as a new server-rendered document (a form's GET): a click before its code
  // runs does nothing, as CI once showed. Wait for the app as `goto` does.
  await waitForApp(page, null);
  const item = page.getByRole('button', { name: '25-hydroxyvitamin D', exact: true });
  await expect(item).toHaveAttribute('aria-expanded', 'false');
  await item.click();
  await expect(item).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('meta-row-Plasma-cvg')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reference Change Value', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Analytical Performance Specification', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Analytical Performance Specification Calculation' });
  await expect(dialog).toBeVisible();
  // The boxes show 1 decimal; the dialog computes from the estimates unrounded, as the tables (issue 42.5).
  const vitD = await analyteNamed(page, '25-hydroxyvitamin D');
  const { metas } = await apiJson<{ metas: { matrix: string; var_type: string; median: number | null }[] }>(
    page,
    `/api/v1/measurands/${vitD.id}/metas`,
  );
  const pooled = (type: string) =>
    metas.filter((m) => m.matrix === 'Serum/Plasma (pooled)' && m.var_type === type).at(-1)!.median!;
  await expect(dialog.getByLabel('% Within-subject (CVI)', { exact: true })).toHaveValue(
    formatFixed(pooled(':cvi'), 1),
  );
  await dialog.getByRole('button', { name: 'Calculate' }).click();
  await expectApsTable(dialog, pooled(':cvi'), pooled(':cvg'));
  await expectNoAxeViolations(page);
});

test('the legacy paths: by_analyte with format=html lands on the results, one result stays open, by_id reaches the measurand', async ({
  page,
}) => {
  await page.goto('/api/search/by_analyte?format=html&query=glucose');
  await expect(page).toHaveURL(/\/search\?query=glucose$/);
  const glucose = page.getByRole('button', { name: 'Glucose', exact: true });
  await expect(glucose).toHaveAttribute('aria-expanded', 'true');
  // Whoever clicks the only result's name still gets its tools.
  await glucose.click();
  await expect(glucose).toHaveAttribute('aria-expanded', 'true');
  await page.getByRole('button', { name: 'Analytical Performance Specification', exact: true }).click();
  await expect(
    page.getByRole('dialog', { name: 'Analytical Performance Specification Calculation' }),
  ).toBeVisible();

  await page.goto('/search?query=zzqqxx');
  await expect(page.getByText('No Results found for "zzqqxx"')).toBeVisible();

  const vitD = await analyteNamed(page, '25-hydroxyvitamin D');
  await page.goto(`/api/search/by_id?query=${vitD.id}`);
  await expect(page).toHaveURL(new RegExp(`/analytes/${vitD.id}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('25-hydroxyvitamin D');
});

test('APS modal: labels, headline medians at 1 decimal, matrix choice and the no-CVG sentence (25-hydroxyvitamin D)', async ({
  page,
}) => {
  const vitD = await analyteNamed(page, '25-hydroxyvitamin D');
  const { metas } = await apiJson<{
    metas: { matrix: string; var_type: string; median: number | null }[];
  }>(page, `/api/v1/measurands/${vitD.id}/metas`);
  const median = (matrix: string, type: string) =>
    metas.filter((m) => m.matrix === matrix && m.var_type === type).at(-1)?.median ?? null;
  // The demo data: serum has a CVI and no CVG; the pooled serum/plasma estimates have both.
  expect(median('Serum', ':cvg')).toBeNull();
  await page.goto(`/analytes/${vitD.id}`);
  await page.getByRole('button', { name: 'Analytical Performance Specification' }).click();
  const dialog = page.getByRole('dialog', { name: 'Analytical Performance Specification Calculation' });
  const cviBox = dialog.getByLabel('% Within-subject (CVI)', { exact: true });
  const cvgBox = dialog.getByLabel('% Between-subject (CVG)', { exact: true });
  const matrix = dialog.getByLabel('Matrix', { exact: true });
  await expect(matrix.locator('option:checked')).toHaveText(/^Serum\/Plasma \(pooled\)/);
  const pooledCvi = formatFixed(median('Serum/Plasma (pooled)', ':cvi')!, 1);
  const pooledCvg = formatFixed(median('Serum/Plasma (pooled)', ':cvg')!, 1);
  await expect(cviBox).toHaveValue(pooledCvi);
  await expect(cvgBox).toHaveValue(pooledCvg);
  await expect(dialog.getByText('Note CVI is 0')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Calculate' }).click();
  await expectApsTable(
    dialog,
    median('Serum/Plasma (pooled)', ':cvi')!,
    median('Serum/Plasma (pooled)', ':cvg')!,
  );
  await expectApsRangesShape(dialog);
  await expect(dialog.getByText(/No CVG estimate/)).toHaveCount(0);

  await matrix.selectOption({
    label: (await matrix.locator('option', { hasText: /^Serum \(/ }).textContent())!,
  });
  await expect(dialog.getByRole('table')).toHaveCount(0);
  const serumCvi = formatFixed(median('Serum', ':cvi')!, 1);
  await expect(cviBox).toHaveValue(serumCvi);
  await expect(cvgBox).toHaveValue('');
  await dialog.getByRole('button', { name: 'Calculate' }).click();
  await expect(dialog.getByText('Note CVG is 0')).toBeVisible();
  await expect(
    dialog.getByText(
      'No CVG estimate for Serum. Bias and TE need a CVG: with CVG 0 they understate the specification',
    ),
  ).toBeVisible();
  await expectApsTable(dialog, median('Serum', ':cvi')!, 0);
  await expectNoAxeViolations(page);
});

test('the standalone APS page opens without an error state and shows nothing before input', async ({
  page,
}) => {
  await page.goto('/calculators/aps');
  const cvi = page.getByLabel('% Within-subject (CVI)', { exact: true });
  await expect(cvi).toHaveValue('');
  await expect(cvi).not.toHaveClass(/is-invalid/);
  await expect(page.getByText('Note CVI is 0')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Results' })).toHaveCount(0);
});

interface Dataset {
  id: number;
  analyte_display_name: string;
}

/** The table's default order: measurand name descending (case-insensitive), ties as the API lists them. */
const inTableOrder = (all: Dataset[]) =>
  all
    .map((d, i) => ({ d, i, k: d.analyte_display_name.toLowerCase() }))
    .sort((a, b) => (a.k === b.k ? a.i - b.i : a.k < b.k ? 1 : -1))
    .map(({ d }) => d.id);

test('/bv_specifications?page=N: page N from the URL, paging writes ?page=, past the end an empty table', async ({
  page,
  browser,
}) => {
  const { datasets } = await apiJson<{ datasets: Dataset[] }>(page, '/api/bv_specifications');
  const order = inTableOrder(datasets);
  const lastPage = Math.ceil(order.length / 10);
  const rowIds = (p: Page) =>
    p
      .locator('tbody tr button:text-is("View")')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-dataset-id'))));

  // Server-rendered, readable without scripts: what a scraper sees.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const noJs = await context.newPage();
  await noJs.goto('/bv_specifications?page=2');
  expect(await rowIds(noJs)).toEqual(order.slice(10, 20));
  await noJs.goto(`/bv_specifications?page=${lastPage + 1}`);
  await expect(noJs.locator('table').first().locator('tbody tr')).toHaveCount(0);
  await context.close();

  await page.goto('/bv_specifications?page=2');
  await expect(page.getByText('Current Page: 2')).toBeVisible();
  await expect.poll(() => rowIds(page)).toEqual(order.slice(10, 20));
  await page.getByRole('button', { name: 'Page 3' }).click();
  await expect(page).toHaveURL(/\/bv_specifications\?page=3$/);
  await expect.poll(() => rowIds(page)).toEqual(order.slice(20, 30));
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\?page=4$/);
  await page.goBack();
  await expect(page.getByText('Current Page: 3')).toBeVisible();

  await page.goto(`/bv_specifications?page=${lastPage + 1}`);
  await expect(page.getByText(`Total Pages: ${lastPage}`)).toBeVisible();
  await expect(page.locator('table').first().locator('tbody tr')).toHaveCount(0);

  await page.goto('/bv_specifications');
  const view = page.locator('tbody tr').first().getByRole('button', { name: 'View', exact: true });
  const id = await view.getAttribute('data-dataset-id');
  expect(await view.evaluate((el) => el.tagName)).toBe('BUTTON');
  await view.click();
  await expect(page).toHaveURL(new RegExp(`/bv_specifications/${id}$`));
});

test('/bv_specifications?page=2 hydrates its server-rendered page without a mismatch, then fetches the whole list once', async ({
  page,
}) => {
  const api: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/')) api.push(url.pathname + url.search);
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/bv_specifications?page=2');
  await expect(page.getByLabel('Filter by measurand or id')).toBeEnabled();
  await page.waitForLoadState('networkidle');
  expect(errors).toEqual([]);
  expect(api.sort()).toEqual(['/api/bv_specifications', '/api/session']);
  await expect(page.getByText('Current Page: 2')).toBeVisible();
});

test('/meta_calculations: ID, Marker, Matrix, BV, Median, Low, High, Date, Tools', async ({ page }) => {
  await page.goto('/meta_calculations');
  // The live columns in their places and no more: nine cells a row (issue 42.11).
  const main = page.getByTestId('meta-list-main');
  await expect(main.locator('thead th')).toHaveText([
    'ID',
    'Marker',
    'Matrix',
    'BV',
    'Median',
    'Low',
    'High',
    'Date',
    'Tools',
  ]);
  const rows = main.locator('tbody tr');
  const counts = await rows.evaluateAll((trs) => trs.map((tr) => tr.children.length));
  expect(counts.length).toBeGreaterThan(0);
  expect(new Set(counts)).toEqual(new Set([9]));
  const other = page.getByTestId('meta-list-other').locator('tbody tr');
  const otherCounts = await other.evaluateAll((trs) => trs.map((tr) => tr.children.length));
  expect(otherCounts.every((n) => n === 9)).toBe(true);
  // Low and High plain numbers; what they are is in their title and the legend.
  const lows = await rows.evaluateAll((trs) =>
    trs.map((tr) => [tr.children[5]!.textContent, tr.children[6]!.textContent]),
  );
  for (const [low, high] of lows) {
    expect(low).toMatch(/^(\d+(\.\d+)?)?$/);
    expect(high).toMatch(/^(\d+(\.\d+)?)?$/);
  }
  await expect(rows.locator('td[data-label="Low"][title^="Lower limit of the "]').first()).toBeVisible();
  await expect(page.getByTestId('meta-list-main-legend')).toContainText(/Low and High are the 95 % CI/);
  const first = rows.first();
  await expect(first.locator('td').nth(3)).toHaveText(/^(Within-subject|Between-subject)$/);
  await expect(first.locator('td').nth(7)).toHaveText(/^\d{1,2}\/\d{1,2}\/\d{4}$/);
  await expect(first.getByRole('link', { name: /^View / })).toBeVisible();
});
