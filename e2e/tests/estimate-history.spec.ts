import { apiJson, expect, expectNoAxeViolations, signIn, test } from './helpers';

interface Meta {
  id: number;
  matrix: string;
  matrix_id: number | null;
  var_type: string;
  estimate_id: number | null;
  version: number | null;
  datasets: { bv_specification_id: number; cv: number }[];
}
interface History {
  meta: { total: number };
  data: { version: number; cause: { kind: string; role: string } }[];
}

const SHOTS = process.env.E2E_SCREENSHOTS;

// Issue 29.5: a curator changes a dataset; the measurand page's History shows the new version.
test('a curator changes a dataset and the History shows the new version, with the difference and the cause', async ({
  page,
  browser,
  baseURL,
}) => {
  // The administrator makes a curator (the journey's actor).
  await signIn(page);
  const { csrf_token } = await apiJson<{ csrf_token: string }>(page, '/api/session');
  const curator = { email: `curator-${Date.now()}@example.org`, password: 'curator-pass-123' };
  const made = await page.request.post('/api/users', {
    headers: { 'x-csrf-token': csrf_token },
    data: { ...curator, name: 'Casey Curator', role: 'curator' },
  });
  expect(made.status()).toBe(201);

  // A measurand's CVI of one matrix, and one dataset it uses.
  const list = await apiJson<{ data: { analyte_id: number; var_type: string }[] }>(
    page,
    '/api/v1/metas?limit=50',
  );
  // One still at its first version: other journeys of the run edit datasets too.
  let analyteId = 0;
  let found: Meta | undefined;
  for (const candidate of new Set(list.data.filter((m) => m.var_type === ':cvi').map((m) => m.analyte_id))) {
    const before = await apiJson<{ metas: Meta[] }>(page, `/api/v1/measurands/${candidate}/metas`);
    found = before.metas.find(
      (m) => m.var_type === ':cvi' && m.matrix_id !== null && m.datasets.length > 0 && m.version === 1,
    );
    if (found) {
      analyteId = candidate;
      break;
    }
  }
  expect(found, 'a CVI estimate still at version 1').toBeDefined();
  const meta = found!;
  const used = meta.datasets[0]!;
  const datasets = await apiJson<{ id: number; unique_identifier: string }[]>(
    page,
    `/api/analyte_specifications/${analyteId}`,
  );
  const uid = datasets.find((d) => d.id === used.bv_specification_id)!.unique_identifier;

  // The curator edits the dataset's CVI in the browser.
  const context = await browser.newContext({ baseURL });
  const c = await context.newPage();
  await c.goto('/users/sign_in');
  await c.getByLabel('Email').fill(curator.email);
  await c.getByLabel('Password').fill(curator.password);
  await c.getByRole('button', { name: 'Log in' }).click();
  await expect(c).not.toHaveURL(/sign_in/);
  await c.goto(`/bv_specifications/${used.bv_specification_id}/edit`);
  await expect(c.getByRole('heading', { name: 'Edit Dataset' })).toBeVisible();
  const next = Math.round((used.cv + 3.3) * 100) / 100;
  await c.getByLabel('Estimate of CVI (%)').fill(String(next));
  await c.getByRole('button', { name: 'Save Dataset' }).click();
  await expect(c.getByRole('heading', { name: 'Edit Dataset' })).toHaveCount(0);
  await context.close();

  // The worker writes version 2 (a moment after the save).
  await expect
    .poll(
      async () => (await apiJson<History>(page, `/api/v1/estimates/${meta.estimate_id}/history`)).meta.total,
      {
        timeout: 20_000,
      },
    )
    .toBe(2);
  const history = await apiJson<History>(page, `/api/v1/estimates/${meta.estimate_id}/history`);
  expect(history.data[0]).toMatchObject({ version: 2, cause: { kind: 'dataset', role: 'curator' } });

  // The page: the History of that estimate, opened.
  await page.goto(`/analytes/${analyteId}`);
  await expect(page.getByRole('heading', { name: 'History' })).toBeVisible();
  const entry = page.getByTestId(`history-${meta.estimate_id}`);
  await entry.getByText(`${meta.matrix} CVI · version 2`).click();
  const latest = entry.getByTestId('history-version-2');
  await expect(latest).toContainText(`${uid} CV `);
  await expect(latest).toContainText(`→ ${next.toFixed(2)}`);
  await expect(latest).toContainText('a dataset changed');
  await expect(latest).toContainText('by a curator');
  await expect(latest).not.toContainText('Casey');
  await expect(entry.getByTestId('history-version-1')).toContainText('First value');
  await expect(entry.getByTestId('history-plot')).toBeVisible();
  await expectNoAxeViolations(page);
  if (SHOTS) {
    await page.setViewportSize({ width: 1366, height: 900 });
    await page
      .getByRole('heading', { name: 'History' })
      .locator('..')
      .screenshot({ path: `${SHOTS}/estimate-history-1366.png` });
  }

  // Cite this estimate names the version.
  await page.getByRole('button', { name: `Cite this estimate: ${meta.matrix} CVI` }).click();
  const text = await page.getByRole('dialog').getByTestId('citation-text').inputValue();
  expect(text).toContain('; version 2; updated ');
  await page.keyboard.press('Escape');

  // A phone: the plot fits and the numbers stay on screen.
  await page.setViewportSize({ width: 375, height: 800 });
  await entry.scrollIntoViewIfNeeded();
  const box = (await entry.getByTestId('history-plot').boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(overflow).toBeLessThanOrEqual(375);
  await expect(latest).toBeVisible();
  if (SHOTS) {
    await page
      .getByRole('heading', { name: 'History' })
      .locator('..')
      .screenshot({ path: `${SHOTS}/estimate-history-375.png` });
  }
});
