import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, signIn, test } from './helpers';

const SHOTS = process.env.E2E_SHOTS_DIR;

async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1366, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function pickFirst(page: Page, label: string) {
  const select = page.getByLabel(label, { exact: true });
  await expect(select.locator('option').nth(1)).toBeAttached();
  const value = await select.locator('option').nth(1).getAttribute('value');
  await select.selectOption(value);
}

test("a curator's draft from an estimation keeps its raw results with the dataset, for staff only (issue 31.3)", async ({
  page,
  browser,
}) => {
  await signIn(page);
  const template = Buffer.from(await (await page.request.get('/api/v1/estimations/template.csv')).body());
  await page.goto('/estimate');
  await page.getByLabel(/Results file/).setInputFiles({
    name: 'study-raw.csv',
    mimeType: 'text/csv',
    buffer: template,
  });
  await page.getByRole('button', { name: 'Estimate', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Report: study-raw.csv' })).toBeVisible({ timeout: 45_000 });
  await page.getByRole('button', { name: 'Create a draft dataset' }).click();
  await expect(page.getByText('The raw results file study-raw.csv is kept with the dataset')).toBeVisible();

  const uid = `RAW-${Date.now()}`;
  await pickFirst(page, 'Measurand');
  const reference = page.getByRole('combobox', { name: 'Reference' });
  await reference.fill('roraas 2017');
  await page.getByRole('listbox', { name: 'References' }).getByRole('option').first().click();
  await page.getByLabel('Unique Identifier').fill(uid);
  await pickFirst(page, 'Matrix');
  // What the estimator did not assess is the curator's to choose (issue 42.4).
  for (const label of [
    'QI1 Scale',
    'QI2 Subjects',
    'QI3 Samples',
    'QI4 Measurand',
    'QI5 Pre-Analytical',
    'QI14 Concentrations',
  ])
    await page.getByLabel(label, { exact: true }).selectOption('A');
  await pickFirst(page, 'State of Well Being');
  await pickFirst(page, 'Ethnicity');
  await page.getByLabel('Published').check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(
    page.getByText('Form submitted successfully! The raw results file study-raw.csv is kept with it.'),
  ).toBeVisible();
  await page.getByRole('link', { name: `View dataset ${uid}` }).click();

  const card = page.getByTestId('raw-data-card');
  await expect(card.getByRole('heading', { name: /Raw data/ })).toBeVisible();
  const link = card.getByRole('link', { name: 'study-raw.csv' });
  await expect(link).toBeVisible();
  const download = page.waitForEvent('download');
  await link.click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('study-raw.csv');
  expect(fs.readFileSync(await file.path()).equals(template)).toBe(true);
  await expectNoAxeViolations(page);
  await shots(page, 'raw-data-card');
  const datasetUrl = page.url();

  // The public sees the dataset, never the file, and the API refuses it.
  const visitor = await browser.newPage();
  await visitor.goto(datasetUrl);
  await expect(visitor.getByText('Dataset Details')).toBeVisible();
  await expect(visitor.getByTestId('raw-data-card')).toHaveCount(0);
  const id = /\/bv_specifications\/(\d+)/.exec(datasetUrl)![1];
  expect((await visitor.request.get(`/api/v1/datasets/${id}/raw-data/file`)).status()).toBe(401);
  await visitor.close();

  // Removed on request.
  page.once('dialog', (d) => void d.accept());
  await card.getByRole('button', { name: 'Remove raw data' }).click();
  await expect(card.getByText('No raw-data file is kept with this dataset.')).toBeVisible();
});
