import fs from 'node:fs';
import { apiJson, expect, expectNoAxeViolations, test } from './helpers';

interface Value {
  value: number | null;
  range: { lower: number; upper: number; limits: string } | null;
  why: string | null;
}
interface Row {
  display_name: string;
  aps: { total_error: Value; imprecision: Value };
  rcv: { up: Value; cva_source: string };
}

const one = (v: number) => v.toFixed(1).replace(/^-/, '−');

test('the summary table arrives rendered by the server, with its data, before any script', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/applications?level=optimal');
  await expect(page.getByRole('heading', { name: 'BV and performance specifications' })).toBeVisible();
  await expect(page.getByTestId('applications-summary')).toContainText('Optimal APS');
  await expect(page.locator('#applications tbody tr').first()).toBeVisible();
  await expect(page.getByRole('columnheader', { name: /TEa % \(optimal\)/ })).toBeVisible();
  // Kept like the other public pages: its data embedded, an ETag, a 304 for the same visitor.
  const html = await page.request.get('/applications?level=optimal', { headers: { accept: 'text/html' } });
  expect(await html.text()).toContain('bvdb-state');
  const etag = html.headers()['etag']!;
  expect(etag).toBeTruthy();
  const again = await page.request.get('/applications?level=optimal&utm_source=x', {
    headers: { accept: 'text/html', 'if-none-match': etag },
  });
  expect(again.status()).toBe(304);
  await context.close();
});

test('workbench journey: open from the menu, filter, change level and probability, download the CSV', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'BV Data' }).click();
  await page.getByRole('link', { name: 'BV and performance specifications' }).click();
  await expect(page).toHaveURL(/\/applications$/);
  const rows = page.locator('#applications tbody tr');
  const api = await apiJson<{ data: Row[] }>(page, '/api/v1/applications');
  await expect(rows).toHaveCount(api.data.length);
  await expectNoAxeViolations(page);

  // Filter by name.
  await page.getByLabel('Filter by name').fill('creat');
  await expect(rows).toHaveCount(api.data.filter((r) => /creat/i.test(r.display_name)).length);
  const creatinine = rows.filter({ hasText: 'Creatinine' }).first();
  const row = api.data.find((r) => r.display_name === 'Creatinine')!;
  await expect(creatinine).toContainText(one(row.aps.imprecision.value!));
  // The range in its own element, labelled by what the limits are.
  const range = row.aps.imprecision.range!;
  await expect(creatinine.locator('.wb-range').first()).toHaveText(
    `${one(range.lower)}–${one(range.upper)} (${range.limits === 'range' ? 'range' : 'CI'})`,
  );
  // Without a CVG: "—" with why.
  if (row.aps.total_error.value === null) await expect(creatinine).toContainText('— (no CVG estimate)');
  await expect(creatinine).toContainText('desirable: 0.5 × CVI');

  // Level and probability: the URL says it, the numbers follow the API's.
  await page.getByLabel('APS level').selectOption('minimum');
  await expect(page).toHaveURL(/level=minimum/);
  await page.getByLabel('RCV probability').selectOption('0.99');
  await expect(page).toHaveURL(/probability=0\.99/);
  const minimum = await apiJson<{ data: Row[] }>(page, '/api/v1/applications?level=minimum&probability=0.99');
  const m = minimum.data.find((r) => r.display_name === 'Creatinine')!;
  await expect(page.getByRole('columnheader', { name: /CVA % \(minimum\)/ })).toBeVisible();
  await expect(creatinine).toContainText(one(m.aps.imprecision.value!));
  await expect(creatinine).toContainText(one(m.rcv.up.value!));
  await expect(page.getByTestId('applications-summary')).toContainText('99 %');

  // The lab's own CVA for the RCV: said on the row.
  await page.getByLabel('Your CVA % for the RCV (optional)').fill('3');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/cva=3/);
  await expect(creatinine).toContainText('yours');

  // Sort by TEa: the header says so.
  const tea = page.getByRole('columnheader', { name: /TEa %/ });
  // Numbers sort largest first on the first click, then smallest first.
  await tea.getByRole('button').click();
  await expect(tea).toHaveAttribute('aria-sort', 'descending');
  await tea.getByRole('button').click();
  await expect(tea).toHaveAttribute('aria-sort', 'ascending');
  await expectNoAxeViolations(page);

  // Download the CSV of exactly this table.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('applications-csv').click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^bv_applications_minimum_\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = fs.readFileSync(await download.path(), 'utf8');
  const [header, ...lines] = csv.trimEnd().split('\r\n');
  expect(header).toContain('Minimum TEa %');
  expect(header).toContain('RCV up %');
  expect(lines.length).toBe(minimum.data.length);
  expect(csv).toContain('given by the user');
});

test('on a phone every number is on screen: a card per measurand', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/applications');
  const first = page.locator('#applications tbody tr').first();
  await expect(first).toBeVisible();
  // Nothing wider than the screen, so no number is hidden off to the side.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  for (const cell of await first.locator('td').all()) {
    const b = (await cell.boundingBox())!;
    expect(b.x).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width).toBeLessThanOrEqual(375);
  }
  const box = await first.boundingBox();
  expect(box!.width).toBeLessThanOrEqual(375);
  // No header row to click on a phone: the order is chosen in a select.
  const api = await apiJson<{ data: Row[] }>(page, '/api/v1/applications');
  const largest = [...api.data].sort(
    (a, b) => (b.aps.total_error.value ?? -1) - (a.aps.total_error.value ?? -1),
  )[0]!;
  await page.getByLabel('Sort by').selectOption('tea');
  await expect(first.locator('td').first()).toHaveText(largest.display_name);
  await expectNoAxeViolations(page);
});
