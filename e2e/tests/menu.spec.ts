import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { apiJson, expect, expectNoAxeViolations, signIn, test } from './helpers';

const SHOTS = process.env.E2E_SHOTS_DIR;

async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1366, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
    // One card of the sheet, to look at every number at a phone's width.
    const rows = page.locator('.menu-sheet tbody tr');
    await rows
      .nth(Math.min(8, (await rows.count()) - 1))
      .screenshot({ path: `${SHOTS}/${name}-row-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** A 20-test menu: 18 names (some alternative names) of the demo data and two misspelt ones. */
const NAMES = [
  'ALT',
  'AST',
  'GGT',
  'LDH',
  'ALP',
  'Potassium',
  'Chloride',
  'Urea',
  'Glucose',
  'HDL cholesterol',
  'LDL cholesterol',
  'Triglycerides',
  'Albumin',
  'CRP',
  'Transferrin',
  'Ferritin',
  'Iron',
  'Folate',
  'Sodim',
  'Creatinin',
];
const MENU = [
  'name,matrix,unit,cva,bias',
  ...NAMES.map((n, i) => `${n},,,${(1 + (i % 5) * 0.8).toFixed(1)},${(i % 3) * 0.7}`),
].join('\n');

test('a laboratory uploads a 20-test menu, resolves the two unmatched names and downloads the sheet', async ({
  page,
}) => {
  // Upload, resolve, download, keep and open again: several judgements of 20 tests on a shared machine.
  test.setTimeout(240_000);
  await page.goto('/applications');
  await page.getByRole('link', { name: 'Upload your test menu' }).click();
  await expect(page).toHaveURL(/\/applications\/menu$/);
  await expect(page.getByRole('heading', { name: /Your test menu/ })).toBeVisible();
  await page
    .getByLabel(/Menu file/)
    .setInputFiles({ name: 'menu.csv', mimeType: 'text/csv', buffer: Buffer.from(MENU) });
  await page.getByRole('button', { name: 'Judge the menu' }).click();
  // The first menu starts the reading thread: slow on a loaded machine.
  await expect(page.getByRole('heading', { name: '2 tests need a measurand' })).toBeVisible({
    timeout: 45_000,
  });
  const sheet = page.locator('.menu-sheet tbody tr');
  await expect(sheet).toHaveCount(20);
  await expect(page.locator('.menu-sheet tbody tr[data-status="matched"]')).toHaveCount(18);
  // Nothing is guessed: the misspelt lines are listed, in menu order (lines 19 and 20), with candidates.
  await expect(sheet.nth(18)).toHaveAttribute('data-status', 'unmatched');
  await expectNoAxeViolations(page);

  await page.locator('li[data-line="19"] select').selectOption({ label: 'Sodium — Serum' });
  await expect(page.getByRole('heading', { name: '1 test needs a measurand' })).toBeVisible();
  const creatinine = page.locator('li[data-line="20"] select option', { hasText: /^Creatinine — / });
  await page
    .locator('li[data-line="20"] select')
    .selectOption({ label: (await creatinine.first().textContent())! });
  await expect(page.getByRole('heading', { name: /needs? a measurand/ })).toHaveCount(0);
  await expect(page.locator('.menu-sheet tbody tr[data-status="matched"]')).toHaveCount(20);
  // The line keeps its number and its own name; the measurand chosen is shown.
  await expect(page.locator('.menu-sheet tbody tr[data-line="19"]')).toContainText('Sodim');
  await expect(page.locator('.menu-sheet tbody tr[data-line="19"]')).toContainText('Sodium, Serum');
  // Ranges next to the point values, labelled by what the limits are.
  await expect(page.locator('.menu-sheet .wb-range').first()).toHaveText(/\((CI|range)\)$/);
  await expect(page.locator('.menu-sheet-stamp')).toContainText('Made on');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download the sheet (xlsx)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^bvdb_test_menu_\d{4}-\d{2}-\d{2}\.xlsx$/);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(await file.path());
  const table = wb.worksheets[0]!;
  expect(table.rowCount).toBe(21);
  // The sheet numbers the lines as the page does (issue 42.2): "Line" first, 1…20.
  expect(table.getRow(1).getCell(1).text).toBe('Line');
  expect(table.getRow(20).getCell(1).value).toBe(19);
  expect(table.getRow(20).getCell(2).text).toBe('Sodim');
  const matchColumn = (table.getRow(1).values as unknown[]).indexOf('Match');
  for (let r = 2; r <= 21; r++) expect(table.getRow(r).getCell(matchColumn).text).toBe('matched');

  // Printed, the sheet keeps its header row and the controls go.
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('.menu-sheet thead th').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Judge the menu' })).toBeHidden();
  await page.emulateMedia({ media: 'screen' });
  await shots(page, 'menu-sheet');

  // Kept in its link (issue 32.4), the menu as resolved opens again with nothing changed.
  await expect(page.getByText(/deleted 13 months after it was last opened/)).toBeVisible();
  await page.getByRole('button', { name: 'Keep this menu' }).click();
  const link = await page.getByLabel('Link to this menu').inputValue();
  expect(link).toMatch(/\/applications\/menu\/[A-Za-z0-9_-]{22}$/);
  await expectNoAxeViolations(page);
  await page.goto(link);
  await expect(page.getByText(/^No change since \d{1,2} \w+ \d{4}\.$/)).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.menu-sheet tbody tr')).toHaveCount(20);
  await expect(page.locator('.menu-sheet tbody tr[data-status="matched"]')).toHaveCount(20);
  await expect(page.locator('.menu-sheet tbody tr').nth(18)).toContainText('Sodium, Serum');
  // The kept link numbers the lines as the page did.
  await expect(page.locator('.menu-sheet tbody tr').nth(18)).toHaveAttribute('data-line', '19');
  await expectNoAxeViolations(page);
  const again = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download the sheet (xlsx)' }).click();
  expect((await again).suggestedFilename()).toMatch(/^bvdb_test_menu_kept_\d{4}-\d{2}-\d{2}_on_/);
  await shots(page, 'menu-kept');
});

/** A 20-test menu as a laboratory system exports it (the server's fixture for issue 42.1). */
const LAB_MENU = fs.readFileSync(
  fileURLToPath(new URL('../../packages/server/src/test/fixtures/lab-menu-20.csv', import.meta.url)),
);

test('a laboratory system export of 20 tests is matched as written: 19 at first, lines numbered 1…20', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/applications/menu');
  await page
    .getByLabel(/Menu file/)
    .setInputFiles({ name: 'lab-menu.csv', mimeType: 'text/csv', buffer: LAB_MENU });
  await page.getByRole('button', { name: 'Judge the menu' }).click();
  const rows = page.locator('.menu-sheet tbody tr');
  await expect(rows).toHaveCount(20, { timeout: 45_000 });
  expect(await page.locator('.menu-sheet tbody tr[data-status="matched"]').count()).toBeGreaterThanOrEqual(
    19,
  );
  // Numbered 1…20 as the menu's tests come, the header not counted.
  expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-line')))).toEqual(
    Array.from({ length: 20 }, (_, i) => String(i + 1)),
  );
  await expect(rows.first().locator('td').first()).toHaveText('1');
  // The names the issue found refused: matched to the measurand meant.
  await expect(page.locator('.menu-sheet tbody tr[data-line="6"]')).toContainText('Serum/Plasma');
  await expect(page.locator('.menu-sheet tbody tr[data-line="7"]')).toContainText('Calcium (total)');
  await expect(page.locator('.menu-sheet tbody tr[data-line="11"]')).toContainText(
    'Alkaline phosphatase (ALP)',
  );
  // "Free T4" names its measurand, which has no estimate yet.
  await expect(page.locator('li[data-line="18"]')).toContainText('Free thyroxine (FT4) has no estimate yet');
  await expectNoAxeViolations(page);
  await shots(page, 'menu-lab-export');
});

test('a curator gives a measurand a name laboratories use, and the menu matches it', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const urea = (await apiJson<{ id: number; display_name: string }[]>(page, '/autocomplete?query=Urea')).find(
    (s) => s.display_name === 'Urea',
  )!.id;
  await page.goto(`/analytes/${urea}`);
  const field = page.getByLabel('Alternative names (one a line)');
  await expect(field).toHaveValue(/BUN/);
  await field.fill(`${await field.inputValue()}\nCarbamide`);
  await page.getByRole('button', { name: 'Save names' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  // A name another measurand has is refused with the server's words.
  await field.fill(`${await field.inputValue()}\nALT`);
  await page.getByRole('button', { name: 'Save names' }).click();
  await expect(page.getByRole('alert')).toContainText('is already a name of another measurand');
  await expectNoAxeViolations(page);
  if (SHOTS) {
    for (const width of [1366, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page
        .locator('form[aria-labelledby="alternative-names-heading"]')
        .screenshot({ path: `${SHOTS}/measurand-names-${width}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  const { csrf_token } = await apiJson<{ csrf_token: string }>(page, '/api/session');
  const res = await page.request.post('/api/v1/menu', {
    headers: { 'x-csrf-token': csrf_token },
    data: { tests: [{ name: 'carbamide' }] },
  });
  const answer = (await res.json()) as {
    tests: { status: string; match: { display_name: string } | null }[];
  };
  expect(answer.tests[0]).toMatchObject({ status: 'matched', match: { display_name: 'Urea' } });
});

interface Meta {
  matrix: string;
  var_type: string;
  version: number | null;
  datasets: { bv_specification_id: number; cv: number }[];
}

test('a kept menu names what changed after a curator edits a dataset; a signed-in user names, lists and renames a menu', async ({
  page,
  browser,
  baseURL,
}) => {
  // Two sign-ins, three judgements and a recompute on a shared machine.
  test.setTimeout(300_000);
  // The administrator makes a curator.
  await signIn(page);
  const { csrf_token } = await apiJson<{ csrf_token: string }>(page, '/api/session');
  const curator = { email: `menu-curator-${Date.now()}@example.org`, password: 'curator-pass-123' };
  const made = await page.request.post('/api/users', {
    headers: { 'x-csrf-token': csrf_token },
    data: { ...curator, name: 'Casey Curator', role: 'curator' },
  });
  expect(made.status()).toBe(201);

  // The administrator keeps a named menu of two tests from the page.
  await page.goto('/applications/menu');
  await expect(page.getByRole('heading', { name: 'My menus' })).toBeVisible();
  await page.getByLabel(/Menu file/).setInputFiles({
    name: 'menu.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('name,cva,bias\nSodium,0.5,0.2\nCreatinine,2,1\n'),
  });
  await page.getByRole('button', { name: 'Judge the menu' }).click();
  await expect(page.locator('.menu-sheet tbody tr[data-status="matched"]')).toHaveCount(2, {
    timeout: 45_000,
  });
  await page.getByLabel('Name (optional)').fill('Core lab, chemistry');
  await page.getByRole('button', { name: 'Keep this menu' }).click();
  const link = await page.getByLabel('Link to this menu').inputValue();
  await expect(page.getByText(/Listed under/)).toBeVisible();

  // Listed under My menus, opened and renamed.
  await page.goto('/applications/menu');
  await page.getByRole('link', { name: 'Core lab, chemistry' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Core lab, chemistry' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByText(/^No change since/)).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill('Core lab, chemistry (2026)');
  await page.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Core lab, chemistry (2026)' })).toBeVisible();
  await page.goto('/applications/menu');
  await expect(page.getByRole('link', { name: 'Core lab, chemistry (2026)' })).toBeVisible();
  await expectNoAxeViolations(page);

  // The curator changes a dataset behind the Sodium CVI the menu used.
  const sodium = (
    await apiJson<{ id: number; display_name: string }[]>(page, '/autocomplete?query=Sodium')
  ).find((s) => s.display_name === 'Sodium')!.id;
  const { metas } = await apiJson<{ metas: Meta[] }>(page, `/api/v1/measurands/${sodium}/metas`);
  const cvi = metas.find((m) => m.var_type === ':cvi' && m.matrix === 'Serum' && m.datasets.length > 0)!;
  const used = cvi.datasets[0]!;
  const context = await browser.newContext({ baseURL });
  const c = await context.newPage();
  await c.goto('/users/sign_in');
  await c.getByLabel('Email').fill(curator.email);
  await c.getByLabel('Password').fill(curator.password);
  await c.getByRole('button', { name: 'Log in' }).click();
  await expect(c).not.toHaveURL(/sign_in/);
  await c.goto(`/bv_specifications/${used.bv_specification_id}/edit`);
  await expect(c.getByRole('heading', { name: 'Edit Dataset' })).toBeVisible();
  await c.getByLabel('Estimate of CVI (%)').fill(String(Math.round((used.cv + 3.3) * 100) / 100));
  await c.getByRole('button', { name: 'Save Dataset' }).click();
  await expect(c.getByRole('heading', { name: 'Edit Dataset' })).toHaveCount(0);
  await context.close();
  await expect
    .poll(
      async () =>
        (await apiJson<{ metas: Meta[] }>(page, `/api/v1/measurands/${sodium}/metas`)).metas.find(
          (m) => m.var_type === ':cvi' && m.matrix === 'Serum',
        )!.version,
      { timeout: 60_000 },
    )
    .toBeGreaterThan(cvi.version!);

  // The link names the change, in words with before → now.
  await page.goto(link);
  const changes = page.getByRole('region', { name: /^Changed since/ });
  await expect(changes).toBeVisible({ timeout: 30_000 });
  await expect(changes).toContainText(/Line 1, Sodium: CVI .* → .*version/);
  await expectNoAxeViolations(page);
  await shots(page, 'menu-changed');
  // Marked as reviewed, it keeps today's values: no change since today.
  await page.getByRole('button', { name: 'Mark as reviewed' }).click();
  await expect(page.getByText(/^No change since/)).toBeVisible({ timeout: 30_000 });
});

test('a visitor keeps a menu in its link, signs in and saves it to their menus under a name (decision 068)', async ({
  page,
}) => {
  test.setTimeout(240_000);
  // Anonymous: judged and kept in its link.
  await page.goto('/applications/menu');
  await page.getByLabel(/Menu file/).setInputFiles({
    name: 'menu.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('name,cva,bias\nSodium,0.5,0.2\nGlucose,2,1\n'),
  });
  await page.getByRole('button', { name: 'Judge the menu' }).click();
  await expect(page.locator('.menu-sheet tbody tr[data-status="matched"]')).toHaveCount(2, {
    timeout: 45_000,
  });
  await page.getByRole('button', { name: 'Keep this menu' }).click();
  const link = await page.getByLabel('Link to this menu').inputValue();

  // Opened by a visitor, it offers to sign in to save it.
  await page.goto(link);
  await expect(page.getByText(/^No change since/)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await shots(page, 'menu-link-visitor');

  // Signed in, the same link is saved under a name; the link stays a link menu.
  await signIn(page);
  await page.goto(link);
  await expect(page.getByText(/^No change since/)).toBeVisible({ timeout: 30_000 });
  const name = `Kept from a link ${Date.now()}`;
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Save to my menus' }).click();
  await expect(page.getByText(`Saved as “${name}”`)).toBeVisible();
  await expectNoAxeViolations(page);
  await shots(page, 'menu-link-saved');

  // Listed under My menus, it opens as the user's own, comparing with the link's kept values.
  await page.goto('/applications/menu');
  await page.getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/^(No change since|Changed since)/).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your menu' })).toBeVisible();
  expect(page.url()).not.toBe(link);
  await shots(page, 'menu-copy-owner');
  // The link itself is unchanged: still nobody's menu, nothing to rename.
  await page.goto(link);
  await expect(page.getByText(/^No change since/)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Your menu' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Save to my menus' })).toBeVisible();
  // An unknown link says so, with the way back.
  await page.goto('/applications/menu/AAAAAAAAAAAAAAAAAAAAAA');
  await expect(page.getByText(/No kept menu has this link/)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('link', { name: 'Upload the menu again' })).toBeVisible();
  if (SHOTS)
    for (const width of [1366, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}/menu-not-found-${width}.png`, fullPage: true });
    }
});
