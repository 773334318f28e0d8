import { formatDateDmy, formatFixed, formatMetaValue } from '@bvdb/domain';
import { apiJson, expect, expectNoAxeViolations, openInApp, signIn, test } from './helpers';

interface Meta {
  matrix: string;
  var_type: string;
  median: number | null;
  lower: number | null;
  upper: number | null;
  limits: '95 % CI' | 'range' | null;
  updated_at: string;
  datasets: { bv_specification_id: number }[];
}

test('analyte page: meta summary numbers as the domain formats the API values; green and yellow rows', async ({
  page,
}) => {
  const suggestions = await apiJson<{ id: number; display_name: string }[]>(
    page,
    '/autocomplete?query=Creatinine',
  );
  const id = suggestions.find((s) => s.display_name === 'Creatinine')!.id;
  const meta = await apiJson<{ metas: Meta[] }>(page, `/api/v1/measurands/${id}/metas`);
  const datasets = await apiJson<{ id: number; include_in_meta_analysis: number }[]>(
    page,
    `/api/analyte_specifications/${id}`,
  );
  await page.goto(`/analytes/${id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Creatinine');
  const cvi = meta.metas.filter((m) => m.matrix === 'Serum' && m.var_type === ':cvi').at(-1)!;
  const row = page.getByTestId('meta-row-Serum-cvi');
  await expect(row.locator('td').nth(1)).toHaveText(formatMetaValue(cvi.median));
  // Each limit says what the pair is (issue 27.7): "4.6 (range)" or "3.9 (95 % CI)".
  const tag = cvi.limits ? ` (${cvi.limits})` : '';
  await expect(row.locator('td').nth(2)).toHaveText(`${formatFixed(cvi.lower!, 1)}${tag}`);
  await expect(row.locator('td').nth(3)).toHaveText(`${formatFixed(cvi.upper!, 1)}${tag}`);
  await expect(row.locator('td').last()).toHaveText(formatDateDmy(cvi.updated_at));
  await expect(page.getByText('Colour Key for References')).toBeVisible();
  // Green is what the meta-analysis actually used (its results' datasets), not the curator's flag.
  const used = new Set(meta.metas.flatMap((m) => m.datasets.map((d) => d.bv_specification_id)));
  await expect(page.locator('tr.table-success')).toHaveCount(datasets.filter((d) => used.has(d.id)).length);
  await expect(page.locator('tr.table-warning')).toHaveCount(datasets.filter((d) => !used.has(d.id)).length);
  for (const d of datasets.filter((x) => used.has(x.id)))
    await expect(page.getByTestId(`meta-use-${d.id}`)).toContainText('Used for');
  for (const d of datasets.filter((x) => x.include_in_meta_analysis === 0))
    await expect(page.getByTestId(`meta-use-${d.id}`)).toHaveText('Not included by the curator');
  await expect(page.getByRole('link', { name: 'Export (.xlsx)' })).toHaveAttribute(
    'href',
    `/export_by_analyte/${id}.xlsx`,
  );
  await page.getByRole('button', { name: 'References Used in Metacalculation' }).click();
  await expect(page.getByText(/weighted median/).first()).toBeVisible();
  await expectNoAxeViolations(page);
});

test('glucose: a plasma dataset the curator flagged but no estimate uses is yellow and says why', async ({
  page,
}) => {
  const glucose = (
    await apiJson<{ id: number; display_name: string }[]>(page, '/autocomplete?query=Glucose')
  ).find((s) => s.display_name === 'Glucose')!.id;
  const meta = await apiJson<{ data: { metas: Meta[] }[] }>(
    page,
    `/api/meta_calculations/meta_by_analyte/${glucose}`,
  );
  const used = new Set(meta.data[0]!.metas.flatMap((m) => m.datasets.map((d) => d.bv_specification_id)));
  const datasets = await apiJson<
    {
      id: number;
      include_in_meta_analysis: number;
      estimates_of_cvg: number | null;
      matrix: { matrix_expansion: string };
    }[]
  >(page, `/api/analyte_specifications/${glucose}`);
  const flaggedUnused = datasets.find(
    (d) => d.include_in_meta_analysis === 1 && !used.has(d.id) && d.matrix.matrix_expansion === 'Plasma',
  )!;
  await page.goto(`/analytes/${glucose}`);
  const cell = page.getByTestId(`meta-use-${flaggedUnused.id}`);
  await expect(cell).toHaveText(
    `Flagged for inclusion, left out: CVI no confidence interval; CVG ${flaggedUnused.estimates_of_cvg === null ? 'no estimate' : 'no confidence interval'}`,
  );
  await expect(page.locator('tr', { has: cell })).toHaveClass('table-warning');
});

test('Date Updated is when the value changed; a signed-in curator also sees the recompute date', async ({
  page,
}) => {
  await page.goto('/analytes/1');
  await expect(page.getByText("Date Updated is when the estimate's value last changed.")).toBeVisible();
  await expect(page.getByTestId('meta-computed-at')).toHaveCount(0);
  const meta = await apiJson<{ data: { metas: (Meta & { computed_at: string })[] }[] }>(
    page,
    '/api/meta_calculations/meta_by_analyte/1',
  );
  await signIn(page);
  await page.goto('/analytes/1');
  const first = meta.data[0]!.metas[0]!;
  await expect(page.getByTestId('meta-computed-at').first()).toBeVisible();
  await expect(page.getByTestId('meta-computed-at')).toContainText([
    `recomputed ${formatDateDmy(first.computed_at)}`,
  ]);
});

test('analyte page: dataset fetch failure and an empty measurand', async ({ page }) => {
  await page.route('**/api/analyte_specifications/**', (r) => r.fulfill({ status: 500, body: '' }));
  await openInApp(page, '/analytes/1');
  await expect(page.getByText('Error loading data: Error: 500 Internal Server Error')).toBeVisible();
  await page.unroute('**/api/analyte_specifications/**');
  await page.route('**/api/analyte_specifications/**', (r) =>
    r.fulfill({ status: 200, contentType: 'application/json', body: '[]' }),
  );
  await page.route('**/api/v1/measurands/*/metas', (r) =>
    r.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ analyte: { id: 1, display_name: 'X' }, headline: null, as_of: null, metas: [] }),
    }),
  );
  await openInApp(page, '/analytes/1');
  await expect(page.getByText('No datasets in database')).toBeVisible();
  await expect(page.getByText('No Meta-Analysis Results')).toBeVisible();
});

test('dataset view: details and coding cards, scoring popover, fullscreen Specification Details', async ({
  page,
}) => {
  await page.goto('/bv_specifications/1');
  for (const title of ['Dataset Details', 'Dataset Coding'])
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
  for (const label of [
    'Unique Identifier',
    'Number of Subjects included in BV estimation',
    'Calculated Confidence Intervals of CVi',
    'Gender for Meta-Analysis',
    'Snomed CT',
    'Comment',
  ]) {
    await expect(page.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(page.getByText('No Ethnicity Defined').or(page.getByText('Unknown'))).toBeVisible();
  await page.getByRole('button', { name: 'Scoring explained' }).click();
  await expect(page.getByRole('tooltip')).toContainText('worst grade');
  await page.getByRole('button', { name: 'Details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Specification Details' });
  await expect(dialog.getByText('Scoring in Detail')).toBeVisible();
  await expect(dialog.locator('tbody tr')).toHaveCount(14);
  await expect(
    dialog.getByText(/provisional demo appraisal, not an official BIVAC assessment/).first(),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Details' })).toBeFocused();
});
