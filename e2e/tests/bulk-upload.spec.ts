import fs from 'node:fs';
import type { Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { expect, expectNoAxeViolations, signIn, test } from './helpers';

const SHOTS = process.env.E2E_SHOTS_DIR;

/** With E2E_SHOTS_DIR set: the page at a desktop and a phone width, to look at. */
async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1366, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const GRADES = [
  'QI1 Scale',
  'QI2 Subjects',
  'QI3 Samples',
  'QI4 Measurand',
  'QI5 Pre-Analytical',
  'QI6 Analytical variation',
  'QI7 Steady State',
  'QI8 Outlier',
  'QI9 Normality',
  'QI10 Variance Homogeneity',
  'QI11 Statistical Method',
  'QI12 Confidence Limits',
  'QI13 Number of results',
  'QI14 Concentrations',
];

/** The downloaded template with rows filled in by header, as a curator would save it. */
async function fill(template: Buffer, rows: Record<string, string | number>[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(template as unknown as ArrayBuffer);
  const ws = wb.getWorksheet('Datasets')!;
  const headers = (ws.getRow(1).values as unknown[]).slice(1).map(String);
  rows.forEach((r, i) => {
    for (const [label, value] of Object.entries(r)) {
      const col = headers.indexOf(label);
      if (col < 0) throw new Error(`the template has no column ${label}`);
      ws.getRow(i + 2).getCell(col + 1).value = value;
    }
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

test('bulk entry: download the template, fill it, see errors by cell, fix, save, find the datasets', async ({
  page,
}) => {
  await signIn(page);
  await page.getByRole('button', { name: 'Administration' }).click();
  await page.getByRole('link', { name: 'Upload Datasets from a Spreadsheet' }).click();
  await expect(page.getByRole('heading', { name: 'Upload BIVAC Datasets from a Spreadsheet' })).toBeVisible();
  await expectNoAxeViolations(page);
  await shots(page, 'bulk-upload-empty');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'download the template' }).click(),
  ]);
  const template = fs.readFileSync(await download.path());
  // The measurands offered by the template's drop-down (its "Lists" sheet), and a reference's DOI.
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(template as unknown as ArrayBuffer);
  const measurands = wb.getWorksheet('Lists')!.getColumn(1).values.slice(2).map(String);
  const refs = (await (await page.request.get('/api/references')).json()) as {
    references: { id: number; doi: string | null; reference_title?: string }[];
  };
  const ref = refs.references.find((r) => r.doi)!;

  const stamp = Date.now();
  const row = (n: number, over: Record<string, string | number> = {}) => ({
    Measurand: measurands[n]!,
    Reference: n === 0 ? ref.doi! : ref.id,
    'Unique Identifier': `E2E-BULK-${stamp}-${n}`,
    Matrix: 'Serum',
    ...Object.fromEntries(GRADES.map((g) => [g, 'A'])),
    'Number of Subjects': 24,
    'Estimate of CVI (%)': 4.5 + n,
    'Estimate of CVG (%)': 11,
    Published: 'Yes',
    'Include in Meta-Analysis': 'Yes',
    ...over,
  });
  const input = page.getByLabel('Filled template (.xlsx or .csv)');
  const xlsx = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

  // A wrong matrix and a grade QI1 does not allow: the preview names each cell; nothing is saved.
  await input.setInputFiles({
    name: 'paper.xlsx',
    mimeType: xlsx,
    buffer: await fill(template, [row(0), row(1, { Matrix: 'Serumm', 'QI1 Scale': 'D' })]),
  });
  await page.getByRole('button', { name: 'Check the file' }).click();
  await expect(page.getByText('2 problems in 1 of 2 rows')).toBeVisible();
  const bad = page.getByRole('row').filter({ hasText: `E2E-BULK-${stamp}-1` });
  await expect(bad).toContainText('Matrix: Unknown matrix "Serumm": choose one from the list.');
  await expect(bad).toContainText('QI1 Scale: grade D is not allowed (allowed: A, B, NA).');
  await expect(bad).toContainText('Serumm');
  await expect(page.getByRole('row').filter({ hasText: `E2E-BULK-${stamp}-0` })).toContainText('OK');
  await expect(page.getByRole('button', { name: /^Save/ })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await shots(page, 'bulk-upload-errors');

  // Fixed in the spreadsheet, checked again, saved.
  await input.setInputFiles({
    name: 'paper.xlsx',
    mimeType: xlsx,
    buffer: await fill(template, [row(0), row(1, { Matrix: 'Plasma' })]),
  });
  await page.getByRole('button', { name: 'Check the file' }).click();
  await expect(page.getByText('All 2 rows are valid (2 measurands)')).toBeVisible();
  await page.getByRole('button', { name: 'Save 2 datasets' }).click();
  await expect(page.getByText('Saved 2 datasets.')).toBeVisible();
  await shots(page, 'bulk-upload-saved');

  // The measurand page lists the new dataset.
  await page.getByRole('link', { name: measurands[1]!, exact: true }).click();
  await expect(page.getByRole('link', { name: `E2E-BULK-${stamp}-1` })).toBeVisible();
});
