import type { Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { expect, expectNoAxeViolations, test } from './helpers';

const SHOTS = process.env.E2E_SHOTS_DIR;

async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1366, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
    // One card of the sheet, to look at every number at a phone's width.
    await page
      .locator('.menu-sheet tbody tr')
      .nth(8)
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
  // Nothing is guessed: the misspelt lines are listed, in file order (rows 20 and 21), with candidates.
  await expect(sheet.nth(18)).toHaveAttribute('data-status', 'unmatched');
  await expectNoAxeViolations(page);

  await page.locator('li[data-line="20"] select').selectOption({ label: 'Sodium — Serum' });
  await expect(page.getByRole('heading', { name: '1 test needs a measurand' })).toBeVisible();
  const creatinine = page.locator('li[data-line="21"] select option', { hasText: /^Creatinine — / });
  await page
    .locator('li[data-line="21"] select')
    .selectOption({ label: (await creatinine.first().textContent())! });
  await expect(page.getByRole('heading', { name: /needs? a measurand/ })).toHaveCount(0);
  await expect(page.locator('.menu-sheet tbody tr[data-status="matched"]')).toHaveCount(20);
  // The line keeps its file row number and its own name; the measurand chosen is shown.
  await expect(page.locator('.menu-sheet tbody tr[data-line="20"]')).toContainText('Sodim');
  await expect(page.locator('.menu-sheet tbody tr[data-line="20"]')).toContainText('Sodium, Serum');
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
  expect(table.getRow(20).getCell(1).text).toBe('Sodim');
  const matchColumn = (table.getRow(1).values as unknown[]).indexOf('Match');
  for (let r = 2; r <= 21; r++) expect(table.getRow(r).getCell(matchColumn).text).toBe('matched');

  // Printed, the sheet keeps its header row and the controls go.
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('.menu-sheet thead th').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Judge the menu' })).toBeHidden();
  await page.emulateMedia({ media: 'screen' });
  await shots(page, 'menu-sheet');
});
