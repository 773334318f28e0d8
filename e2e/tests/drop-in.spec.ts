import type { Page } from '@playwright/test';
import { apiJson, expect, expectNoAxeViolations, signIn, test } from './helpers';

// Issue 27: the last steps of the drop-in, and numbers that never pass a missing input off as a
// measured one. With E2E_SHOTS_DIR set every page state is also photographed at 1366 and 375 px.
const SHOTS = process.env.E2E_SHOTS_DIR;

async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1366, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Axe at a phone's width too: a table that scrolls there must take focus (scrollable-region-focusable). */
async function expectNoAxeViolationsAtBothWidths(page: Page) {
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 375, height: 900 });
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 1280, height: 900 });
}

interface HeadlineEntry {
  analyte: { id: number };
  metas: { id: number }[];
}

test('/meta_calculations: the displayed estimates in the main table, the other matrices after them (27.1, 27.7)', async ({
  page,
}) => {
  const legacy = await apiJson<{ data: HeadlineEntry[] }>(page, '/api/meta_calculations');
  const headlineIds = legacy.data.flatMap((e) => e.metas.map((m) => String(m.id)));
  const all = await apiJson<{ meta: { total: number } }>(page, '/api/v1/metas?limit=1');
  await page.goto('/meta_calculations');
  const main = page.getByTestId('meta-list-main');
  const other = page.getByTestId('meta-list-other');
  // The main table is what /api/meta_calculations answers: one row per measurand and type.
  await expect(main.locator('tbody tr')).toHaveCount(headlineIds.length);
  const mainIds = await main
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-meta-id')));
  expect(new Set(mainIds)).toEqual(new Set(headlineIds));
  const pairs = await main
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => `${r.children[1]!.textContent}|${r.children[3]!.textContent}`));
  expect(new Set(pairs).size).toBe(pairs.length);
  await expect(page.getByRole('heading', { name: 'Other matrices' })).toBeVisible();
  await expect(other.locator('tbody tr')).toHaveCount(all.meta.total - headlineIds.length);
  // Every limit pair says what it is: in the Low and High cells' title (nine cells a row, issue 42.11).
  await expect(main.locator('tbody tr td[data-label="Low"]').first()).toHaveAttribute(
    'title',
    /^Lower limit of the (95 % CI|range of the studies)$/,
  );
  await expectNoAxeViolations(page);
  await shots(page, 'meta-list');
});

test('measurand page: limits tagged, the weighted median explained, forest tables reachable by keyboard (27.7, 27.9, 27.10)', async ({
  page,
}) => {
  const suggestions = await apiJson<{ id: number; display_name: string }[]>(
    page,
    '/autocomplete?query=Creatinine',
  );
  const id = suggestions.find((s) => s.display_name === 'Creatinine')!.id;
  await page.goto(`/analytes/${id}`);
  const row = page.getByTestId('meta-row-Serum-cvi');
  await expect(row.locator('td[data-label="lower CI limit"]')).toHaveText(/^\d+\.\d \((95 % CI|range)\)$/);
  await expect(row.locator('td[data-label="higher CI limit"]')).toHaveText(/^\d+\.\d \((95 % CI|range)\)$/);
  await expect(page.getByRole('columnheader', { name: 'lower CI limit' })).toBeVisible();
  const section = page.getByTestId('forest-plots');
  await section.scrollIntoViewIfNeeded();
  await expect(page.getByTestId('weighted-median-note')).toContainText('The weighted median is interpolated');
  await expect(page.getByTestId('weighted-median-note')).toContainText('Clin Chem Lab Med 2018;56:1629-36');
  const data = page.getByRole('region', { name: /^Forest plot data/ }).first();
  await data.scrollIntoViewIfNeeded();
  await expect(data).toHaveAttribute('tabindex', '0');
  await page.setViewportSize({ width: 375, height: 900 });
  await page.getByRole('figure').last().scrollIntoViewIfNeeded();
  await page.setViewportSize({ width: 1280, height: 900 });
  await expectNoAxeViolationsAtBothWidths(page);
  await shots(page, 'measurand');
});

test('APS calculator: the live row markup, and a blank CVG says Bias and TE need one (27.2, 27.5)', async ({
  page,
}) => {
  await page.goto('/calculators/aps');
  await page.getByLabel('% Within-subject (CVI)', { exact: true }).fill('5.6');
  await page.getByRole('button', { name: 'Calculate' }).click();
  const table = page.getByRole('table');
  await expect(table.locator('tbody tr > td:first-child[role="rowheader"]')).toHaveText([
    'Optimal',
    'Desirable',
    'Minimum',
  ]);
  await expect(table.locator('tbody th')).toHaveCount(0);
  await expect(page.getByText('Note CVG is 0')).toBeVisible();
  await expect(page.getByTestId('aps-no-cvg')).toHaveText(
    /Bias and TE need a CVG: with CVG 0 they understate the specification/,
  );
  await expectNoAxeViolations(page);
  await shots(page, 'aps-no-cvg');
  await page.getByLabel('% Between-subject (CVG)', { exact: true }).fill('7.5');
  await page.getByRole('button', { name: 'Calculate' }).click();
  await expect(page.getByTestId('aps-no-cvg')).toHaveCount(0);
});

test('Application of the RCV: a blank CVA gives no verdict, the RCV is labelled without analytical variation (27.4, 27.10)', async ({
  page,
}) => {
  await page.goto('/calculators/rcv-application');
  await expect(page.getByRole('heading', { name: 'Application of the RCV' })).toHaveCount(1);
  await page.getByLabel('CVI (%)', { exact: true }).fill('5.6');
  await page.getByLabel('CVA (%)', { exact: true }).fill('');
  await page.getByLabel('1st Result', { exact: true }).fill('5');
  await page.getByLabel('2nd Result', { exact: true }).fill('5.7');
  await expect(
    page.getByText('Analytical CV (CVA) is zero – RCV calculation may be inaccurate.'),
  ).toBeVisible();
  const verdict = page.getByTestId('rcv-verdict');
  await expect(verdict).toContainText("Enter your method's analytical CV to judge this change");
  await expect(verdict).toContainText('without analytical variation');
  await expect(verdict).not.toContainText('real change');
  await expect(page.getByTestId('rcv-curve-title')).toHaveText('RCV without analytical variation');
  await expect(page.getByTestId('rcv-chart')).toBeVisible();
  // The change line's label is whole, not a stray "%" cut by the margin.
  await expect(page.getByTestId('rcv-chart').getByText('Change +14.0%')).toBeVisible();
  await expectNoAxeViolations(page);
  await shots(page, 'rcv-application-no-cva');
  await page.getByLabel('CVA (%)', { exact: true }).fill('3');
  await expect(verdict).toContainText('within the RCV');
});

test('individuality: both indices, labelled and cited (27.6)', async ({ page }) => {
  await page.goto('/calculators/individuality');
  await page.getByLabel('CVI (%)', { exact: true }).fill('4.4');
  await page.getByLabel('CVG (%)', { exact: true }).fill('13.4');
  await page.getByLabel('CVA (%)', { exact: true }).fill('2.2');
  await expect(page.getByTestId('ii')).toHaveText('0.33');
  await expect(page.getByTestId('ii-cva')).toHaveText('0.37');
  await expect(page.getByText('II with CVA = √(CVI² + CVA²) / CVG', { exact: true })).toBeVisible();
  await expect(
    page.getByText(/what results of a method with that CVA show \(Fraser CG, Harris EK/),
  ).toBeVisible();
  await expectNoAxeViolations(page);
  await shots(page, 'individuality');
});

test('navbar menus take the arrow keys, Home/End and Escape; the page does not scroll (27.10)', async ({
  page,
}) => {
  await page.goto('/');
  const button = page.getByRole('button', { name: 'BV Data' });
  await button.focus();
  const before = await page.evaluate(() => window.scrollY);
  await page.keyboard.press('ArrowDown');
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('link', { name: 'By Reference' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('link', { name: 'By Measurands' })).toBeFocused();
  await page.keyboard.press('End');
  const last = page.locator(':focus');
  await expect(last).toHaveClass(/dropdown-item/);
  await page.keyboard.press('Home');
  await expect(page.getByRole('link', { name: 'By Reference' })).toBeFocused();
  expect(await page.evaluate(() => window.scrollY)).toBe(before);
  await expectNoAxeViolations(page);
  await page.keyboard.press('Escape');
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(button).toBeFocused();
});

test('a reference without datasets: "No References" and no Export link; the history in D/M/YYYY (27.10)', async ({
  page,
}) => {
  const { references } = await apiJson<{ references: { id: number; bv_specifications_count: number }[] }>(
    page,
    '/api/references',
  );
  const unused = references.find((r) => r.bv_specifications_count === 0);
  expect(unused, 'the demo data hold references no dataset uses').toBeTruthy();
  await page.goto(`/references/${unused!.id}`);
  await expect(page.getByText('No References', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Export' })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await shots(page, 'reference-empty');

  const used = references.find((r) => r.bv_specifications_count > 0)!;
  await signIn(page);
  await page.goto(`/references/${used.id}`);
  await expect(page.getByRole('link', { name: 'Export' })).toBeVisible();
  const measurand = page.getByRole('link', { name: 'Measurand', exact: true }).first();
  await expect(measurand).toHaveClass(/btn-outline-primary/);
  await expectNoAxeViolations(page);
  await shots(page, 'reference-signed-in');

  // A new reference: its change history says when in D/M/YYYY, never a US date.
  const session = (await (await page.request.get('/api/session')).json()) as { csrf_token: string };
  const created = await page.request.post('/api/references', {
    headers: { 'X-CSRF-Token': session.csrf_token },
    data: { title: 'History date check', author: 'Doe J', year_of_publication: 2021 },
  });
  expect(created.status()).toBe(201);
  const newId = ((await created.json()) as { reference: { id: number } }).reference.id;
  await page.goto(`/references/${newId}`);
  await expect(page.getByRole('link', { name: 'Export' })).toHaveCount(0);
  const when = page.locator('td[data-label="When"]').first();
  await expect(when).toHaveText(/^\d{1,2}\/\d{1,2}\/\d{4} \d{2}:\d{2} UTC$/);
  await expectNoAxeViolations(page);
  await shots(page, 'reference-history');
});

test('a dataset with one unit shows it alone, not "unit / N/A" (27.10)', async ({ page }) => {
  const { data } = await apiJson<{ data: { id: number; unit: string | null; second_unit: string | null }[] }>(
    page,
    '/api/v1/datasets?limit=500',
  );
  const one = data.find((d) => d.unit && !d.second_unit);
  expect(one, 'a demo dataset with one unit').toBeTruthy();
  await page.goto(`/bv_specifications/${one!.id}`);
  const unit = page.locator('dt', { hasText: /^Unit$/ }).locator('xpath=following-sibling::dd[1]');
  await expect(unit).not.toHaveText('');
  await expect(unit).not.toContainText('N/A');
  await expect(unit).not.toHaveText(/\s\/\s/);
  await expectNoAxeViolations(page);
  await shots(page, 'dataset-one-unit');
});

test('a citation file with nothing new says so, not a disabled "Create 0 references" (27.10)', async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/references/import');
  await page.getByLabel('Citation file').setInputFiles({
    name: 'pubmed.nbib',
    mimeType: 'text/plain',
    // The demo data hold this article (same DOI): a duplicate, skipped.
    buffer: Buffer.from(
      'PMID- 34049424\nDP  - 2022\nTI  - The European Biological Variation Study (EuBIVAS): a summary report.\nAID - 10.1515/cclm-2021-0370 [doi]\nAU  - Carobene A\nTA  - Clin Chem Lab Med\nVI  - 60\n',
    ),
  });
  await expect(page.getByText(/Same DOI as reference \d+: skipped/)).toBeVisible();
  await expect(page.getByTestId('nothing-to-create')).toHaveText(/^Nothing to create/);
  await expect(page.getByRole('button', { name: /^Create \d+ reference/ })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await shots(page, 'citations-nothing-new');
});
