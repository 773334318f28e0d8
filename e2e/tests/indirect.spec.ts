import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, signIn, test } from './helpers';

// The laboratory extract: made up from a seed (scripts/make-indirect-extract.mjs), 600 patients.
const EXTRACT = fileURLToPath(new URL('../fixtures/indirect-extract.csv', import.meta.url));
const SHOTS = process.env.E2E_SHOTS_DIR;
// Potassium by its LOINC code: the page resolves it as the RCV tool does (decision 091).
const POTASSIUM = 'http://loinc.org|2823-3';

async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1366, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function estimate(page: Page) {
  await page.getByLabel(/^Extract/).setInputFiles(EXTRACT);
  await page.getByLabel(/^Measurand/).fill(POTASSIUM);
  await page.getByLabel(/Your CVA/).fill('1.5');
  await page.getByRole('button', { name: 'Estimate', exact: true }).click();
  // The first run starts the pool's thread: slow on a loaded machine.
  await expect(page.getByRole('heading', { name: /^Result: Potassium/ })).toBeVisible({ timeout: 60_000 });
}

test('a laboratory uploads its extract, reads its CVI beside bvdb’s and downloads the report', async ({
  page,
}) => {
  // Three axe scans of a long report and the first run's thread on a shared machine.
  test.slow();
  await page.goto('/estimate');
  await page.getByRole('link', { name: 'estimate BV from routine results' }).click();
  await expect(page).toHaveURL(/\/indirect$/);
  await expect(
    page.getByRole('heading', { name: /^Biological variation from your laboratory.s routine results$/ }),
  ).toBeVisible();
  await expect(page.getByText('The file is not kept.')).toBeVisible();
  await expectNoAxeViolations(page);
  await estimate(page);

  // The local CVI beside the published one, their ratio and the RCV with each.
  const table = page.getByTestId('comparison');
  await expect(table).toContainText('Result ratio (modified, Tukey)');
  const local = await page.getByTestId('local-cvi-result_ratio').textContent();
  const published = await page.getByTestId('published-cvi').first().textContent();
  expect(local).toMatch(/^\d+\.\d\d %$/);
  expect(published).toMatch(/^\d+\.\d\d %$/);
  // The fixture's truth is a CVI of 4.8 %.
  expect(Number.parseFloat(local!)).toBeGreaterThan(3.5);
  expect(Number.parseFloat(local!)).toBeLessThan(6.5);
  // Per method: pairs, CV_total, the CVI with its interval, the histogram with the fitted curve.
  await expect(page.getByTestId('cvi-central_peak')).toHaveText(/^\d+\.\d\d % \(\d+\.\d\d–\d+\.\d\d\)$/);
  await expect(page.getByRole('img', { name: /Histogram of the log ratios/ }).first()).toBeVisible();
  await expect(page.getByTestId('fitted-curve').first()).toBeAttached();
  // Strata by sex, age band and setting, each with its own N.
  await expect(page.getByRole('rowheader', { name: 'sex: female' })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: 'setting: primary care' })).toBeVisible();
  // Nothing of the file in the page: no patient id, no date.
  const text = (await page.locator('main').textContent())!;
  expect(text).not.toMatch(/P-0\d{5}/);
  expect(text).not.toMatch(/2024-\d\d-\d\d/);
  await expectNoAxeViolations(page);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download report (CSV)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('indirect-extract-indirect-report.csv');
  const report = fs.readFileSync(await download.path(), 'utf8');
  expect(report).toContain('nothing of the uploaded file was kept');
  expect(report).toContain('Result ratio (modified, Tukey)');
  expect(report).not.toMatch(/P-0\d{5}/);

  // On a phone: nothing wider than the screen but the tables' own scrolling.
  await page.setViewportSize({ width: 375, height: 800 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(overflow).toBeLessThanOrEqual(375);
  await expectNoAxeViolations(page);
  await shots(page, 'indirect');
});

test('a curator keeps the summary as a local estimate, shown apart on the measurand page, edits and deletes it', async ({
  page,
}) => {
  test.slow();
  await signIn(page);
  await page.goto('/indirect');
  await estimate(page);
  await page.getByLabel('Laboratory').fill('E2E hospital laboratory');
  await page.getByLabel('Period').fill('2024');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved as a local estimate of the measurand.')).toBeVisible();
  // Shown apart on the measurand's page, below its meta-analysis (read after hydration).
  await page.getByRole('link', { name: 'Potassium', exact: true }).click();
  const section = page.getByRole('region', { name: 'Local estimates from routine data' });
  await expect(section).toContainText('E2E hospital laboratory, 2024');
  await expect(section).toContainText('never part of the meta-analysis');
  await expectNoAxeViolations(page);

  // A curator edits its labels (decision 100): the numbers of the run stay as saved.
  await section
    .getByRole('button', { name: 'Edit the local estimate of E2E hospital laboratory, 2024' })
    .click();
  const edit = page.getByRole('dialog', { name: 'Edit local estimate' });
  await expect(edit).toBeVisible();
  await expectNoAxeViolations(page);
  await edit.getByLabel('Laboratory').fill('E2E renamed laboratory');
  await edit.getByLabel('Note').fill('Outpatients of 2024 only');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(section).toContainText('E2E renamed laboratory, 2024');
  await expect(section).toContainText('Outpatients of 2024 only');
  // The page read again shows the edit (it was saved, not only drawn).
  await page.reload();
  await expect(section).toContainText('E2E renamed laboratory, 2024');

  // And deletes it, after a confirmation.
  await section
    .getByRole('button', { name: 'Delete the local estimate of E2E renamed laboratory, 2024' })
    .click();
  const confirm = page.getByRole('dialog', { name: 'Delete local estimate' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('E2E renamed laboratory')).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: /^Potassium/ }).first()).toBeVisible();
  await expect(page.getByText('E2E renamed laboratory')).toHaveCount(0);
});
