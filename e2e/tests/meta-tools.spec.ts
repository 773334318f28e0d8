import type { Page } from '@playwright/test';
import { formatFixed } from '@bvdb/domain';
import { apiJson, expect, expectNoAxeViolations, signIn, test } from './helpers';

const oneDecimal = (v: number | null) => (v === null ? 'NA' : formatFixed(v, 1));

const creatinineId = async (page: Page) =>
  (await apiJson<{ id: number; display_name: string }[]>(page, '/autocomplete?query=Creatinine')).find(
    (s) => s.display_name === 'Creatinine',
  )!.id;

interface StatsAnswer {
  N: number;
  'W.Median': number | null;
  Range_lower: number | null;
  Range_upper: number | null;
}

test('signed out, the meta-analysis tools say Not Authorised', async ({ page }) => {
  for (const path of [
    '/jobs',
    '/meta_jobs',
    '/meta_simulator',
    '/meta_checker',
    '/input_tables',
    '/dashboard',
  ]) {
    await page.goto(path);
    await expect(page.getByText('Not Authorised')).toBeVisible();
  }
});

test('meta job progress: start a recompute and watch both jobs reach 100%; the job tracker lists them', async ({
  page,
}) => {
  await signIn(page);
  await page.getByRole('button', { name: 'Administration' }).click();
  await page.getByRole('link', { name: 'Meta Job Progress' }).click();
  await expect(page.getByRole('heading', { name: 'Meta job progress' })).toBeVisible();
  await page.getByRole('button', { name: 'Recompute all meta-analyses' }).click();
  await expect(page).toHaveURL(/consolidated=\d+&meta=\d+/);
  for (const name of ['Calculating Consolidated Metas', 'Calculating Meta-Analysis']) {
    await expect(page.getByRole('heading', { name })).toBeVisible();
    await expect(page.getByRole('progressbar', { name: `${name}: 100%` })).toHaveAttribute(
      'aria-valuenow',
      '100',
      { timeout: 60_000 },
    );
  }
  await expect(page.getByText('complete')).toHaveCount(2);
  await expectNoAxeViolations(page);

  await page.goto('/jobs');
  await expect(page.getByRole('heading', { name: 'Job Tracker' })).toBeVisible();
  for (const h of [
    'Name',
    'Job id',
    'background-job id',
    'Queue',
    'Classname',
    'Started At',
    'Finished At',
    'Status',
    'Progress Stage',
    'Progress Current',
    'Progress Max',
  ])
    await expect(page.getByRole('columnheader', { name: h, exact: true })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Calculating Meta-Analysis' }).first()).toBeVisible();
  await expect(page.getByRole('cell', { name: 'MetaCalculationJob' }).first()).toBeVisible();
  await expectNoAxeViolations(page);
});

test('meta job progress: a job id that does not exist shows the error text of the response', async ({
  page,
}) => {
  await signIn(page);
  const res = await page.request.get('/api/queue_jobs/99999999');
  expect(res.status()).toBe(404);
  const { message } = (await res.json()) as { message: string };
  await page.goto('/meta_jobs?consolidated=99999998&meta=99999999');
  await expect(page.getByRole('alert').filter({ hasText: message })).toBeVisible();
  await expect(page.getByText('Job 99999998 not found')).toBeVisible();
  await expectNoAxeViolations(page);
});

test('simulator: real demo datasets, validation, the steps, and numbers as the statistics endpoint gives them', async ({
  page,
}) => {
  await signIn(page);
  // A measurand whose stored results have a CVI from several studies and a CVG.
  const list = await apiJson<{
    data: { analyte_id: number; matrix: string; var_type: string; number_used: number }[];
  }>(page, '/api/v1/metas?limit=1000');
  const id = list.data.find(
    (m) =>
      m.var_type === ':cvi' &&
      m.number_used >= 2 &&
      list.data.some((g) => g.analyte_id === m.analyte_id && g.matrix === m.matrix && g.var_type === ':cvg'),
  )!.analyte_id;
  await page.goto('/meta_simulator');
  await expect(page.getByRole('heading', { name: 'Meta Calculation Simulator' })).toBeVisible();
  await page.getByLabel('Measurand').selectOption(String(id));
  await page.getByRole('button', { name: 'Tick those included in meta-analysis' }).click();
  await page.getByRole('button', { name: 'Simulate' }).click();
  for (const h of ['Reference id', 'Validation CVI', 'Validation CVG'])
    await expect(page.getByRole('columnheader', { name: h, exact: true })).toBeVisible();
  await expect(page.getByText('Included in Meta-Analysis').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Selected BVIACs' })).toBeVisible();

  // The rows the page sent, read back from its Step 1 table, through the public statistics endpoint.
  for (const type of ['cvi', 'cvg'] as const) {
    const section = page.getByRole('region', { name: `${type.toUpperCase()} Calculation` });
    const table = section.getByRole('table', { name: /input rows/ });
    const rows = await table.locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => {
        const c = Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '');
        const num = (v: string) => (v === 'NA' ? null : Number(v));
        return {
          ID: c[0],
          Include: c[1] === 'TRUE',
          Score: c[2],
          CV: num(c[3]!),
          CI_lower: num(c[4]!),
          CI_upper: num(c[5]!),
        };
      }),
    );
    expect(rows.length).toBeGreaterThan(1);
    const stats = (await (
      await page.request.post('/api/stats/metacalculation', { data: rows })
    ).json()) as StatsAnswer;
    const result = page.getByTestId(`result-${type}`).locator('td');
    await expect(result).toHaveText([
      String(stats.N),
      // The spec's rounding on screen: the weighted median and its limits to 1 decimal.
      oneDecimal(stats['W.Median']),
      oneDecimal(stats.Range_lower),
      oneDecimal(stats.Range_upper),
    ]);
    expect(stats.N).toBeGreaterThan(0);
    await expect(section.getByRole('table', { name: /study weights/ }).locator('tbody tr')).toHaveCount(
      stats.N,
    );
  }
  await expect(page.getByRole('heading', { name: 'How it Would Look on the Website' })).toBeVisible();
  // The simulated studies and their pooled result as a forest plot (loaded when scrolled to), with
  // its caption, its table alternative and the leave-one-out table.
  const preview = page.getByRole('region', { name: 'How it Would Look on the Website' });
  const plots = preview.getByTestId('forest-plots');
  await plots.scrollIntoViewIfNeeded();
  for (const type of ['Within-subject (CVI)', 'Between-subject (CVG)']) {
    const figure = plots.getByRole('figure', {
      name: new RegExp(`^Forest plot — ${type.replace(/[()]/g, '\\$&')}`),
    });
    await figure.scrollIntoViewIfNeeded();
    await expect(figure).toBeVisible();
    await expect(figure.getByRole('img', { name: /^Forest plot of/ })).toBeVisible();
    const data = figure.getByRole('table', { name: /^Forest plot data/ });
    await expect(data.locator('tfoot')).toContainText('Weighted median');
    const studies = await data.locator('tbody tr').count();
    expect(studies).toBeGreaterThan(0);
    await expect(figure.getByTestId('forest-row')).toHaveCount(studies);
  }
  await expectNoAxeViolations(page);

  await page.route('**/api/meta_tools/metacalculation', (r) =>
    r.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }),
  );
  // One dataset ticked by hand (the earlier journeys may have changed which ones are included),
  // and not the one the last step uses, whose answers would come from the client's cache.
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.getByLabel(/·/).nth(1).check();
  await page.getByRole('button', { name: 'Simulate' }).click();
  await expect(page.getByText('Error: unable to calculate')).toHaveCount(2);
  await expect(page.getByRole('cell', { name: 'Unable to Calculate' }).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'How it Would Look on the Website' })).toHaveCount(0);

  await page.route('**/api/bv_specifications/validate_for_meta**', (r) =>
    r.fulfill({ status: 500, contentType: 'application/json', body: '{}' }),
  );
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.getByLabel(/·/).first().check();
  await page.getByRole('button', { name: 'Simulate' }).click();
  await expect(page.getByText('Error: contact developer')).toBeVisible();
});

test('checker: each stored result recalculated from its datasets matches, with the matching names', async ({
  page,
}) => {
  await signIn(page);
  const id = await creatinineId(page);
  const meta = await apiJson<{
    data: { metas: { id: number; name: string; median: number; matrix: string }[] }[];
  }>(page, `/api/meta_calculations/meta_by_analyte/${id}`);
  await page.goto('/meta_checker');
  await page.getByLabel('Measurand').selectOption(String(id));
  const first = meta.data[0]!.metas[0]!;
  const card = page.getByTestId(`check-${first.id}`);
  await expect(card.getByRole('table', { name: 'Results' })).toBeVisible();
  for (const h of ['Factor', 'Calculated', 'Original'])
    await expect(card.getByRole('columnheader', { name: h })).toBeVisible();
  for (const r of ['Type', 'Analyte', 'Matrix', 'Results', 'Specs'])
    await expect(card.getByRole('rowheader', { name: r })).toBeVisible();
  await expect(card.getByText('Matches')).toBeVisible();
  await expect(card.getByTestId('check-results').locator('td').first()).toHaveText(
    String(Math.round(first.median * 1e4) / 1e4),
  );
  await expect(card.getByRole('listitem').filter({ hasText: first.name }).last()).toBeVisible();
  await expect(page.getByText('Differs')).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test('input tables: the comma-separated rows per matrix, within and between', async ({ page }) => {
  await signIn(page);
  const id = await creatinineId(page);
  await page.goto('/input_tables');
  await expect(page.getByRole('heading', { name: 'Input Tables' })).toBeVisible();
  await page.getByLabel('Measurand').selectOption(String(id));
  for (const name of ['Within Calculation', 'Between Calculation']) {
    const section = page.getByRole('region', { name });
    await expect(section.getByRole('heading', { name })).toBeVisible();
    const table = section.getByRole('table').first();
    await expect(table.locator('thead th')).toHaveText([
      'ID',
      'Include',
      'Score',
      'CV',
      'CI_lower',
      'CI_upper',
    ]);
    expect(await table.locator('tbody tr').count()).toBeGreaterThan(0);
  }
  await expectNoAxeViolations(page);
});

test('dashboard: counters, and the Rest Server Status card healthy and dead', async ({ page }) => {
  await signIn(page);
  const counts = await apiJson<{ meta_data: { total_bv_specifications: number; total_metas: number } }>(
    page,
    '/api/meta',
  );
  await page.goto('/dashboard');
  await expect(page.getByText(`There are ${counts.meta_data.total_bv_specifications} records`)).toBeVisible();
  await expect(page.getByText(`There are ${counts.meta_data.total_metas} records`)).toBeVisible();
  const card = page.getByTestId('status-card');
  await expect(card.getByRole('heading', { name: 'Rest Server Status' })).toBeVisible();
  await expect(card.getByText('OK', { exact: true })).toBeVisible();
  await expect(card).toHaveClass(/border-success/);
  await expectNoAxeViolations(page);

  await page.route('**/api/meta_tools/stats_service', (r) =>
    r.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        status_url: 'http://127.0.0.1:9',
        metacalculation_url: 'http://127.0.0.1:9/metacalculation',
        external: true,
      }),
    }),
  );
  await page.reload();
  await expect(card.getByText('FAULT')).toBeVisible();
  await expect(card.getByText(/ on http:\/\/127\.0\.0\.1:9$/)).toBeVisible();
  await expect(card).toHaveClass(/border-danger/);
  await expectNoAxeViolations(page);
  await page
    .getByRole('link', { name: /Click here/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/bv_specifications$/);
});
