import {
  calculateAps,
  changeProbability,
  formatFixed,
  percentChange,
  rcvAsymmetric,
  roundHalfUp,
  rcvForMeans,
  rcvSymmetric,
  RCV_NOT_MEANINGFUL_MESSAGE,
  Z_VALUE_TABLE,
  zForChange,
  zFromProbability,
} from '@bvdb/domain';
import fs from 'node:fs';
import { apiJson, expect, expectNoAxeViolations, test } from './helpers';

test('APS: no error state on arrival, hidden until Calculate, hidden again on edit, numbers as the domain computes them, zero warnings', async ({
  page,
}) => {
  await page.goto('/calculators/aps');
  const cvi = page.getByLabel('% Within-subject (CVI)');
  const cvg = page.getByLabel('% Between-subject (CVG)');
  await expect(page.getByText('Note CVI is 0')).toHaveCount(0);
  await expect(cvi).not.toHaveClass(/is-invalid/);
  await page.getByRole('button', { name: 'Calculate' }).click();
  await expect(page.getByText('Note CVI is 0')).toBeVisible();
  await expect(cvi).toHaveClass(/is-invalid/);
  await expect(page.getByRole('heading', { name: 'Results' })).toHaveCount(0);
  await cvi.fill('12.6');
  await cvg.fill('30');
  await expect(page.getByRole('heading', { name: 'Results' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Calculate' }).click();
  const aps = calculateAps(12.6, 30);
  for (const level of ['minimum', 'desirable', 'optimal'] as const) {
    for (const key of ['imprecision', 'bias', 'totalError', 'mau'] as const) {
      await expect(page.getByTestId(`aps-${level}-${key}`)).toHaveText(formatFixed(aps[level][key], 1));
    }
  }
  await expectNoAxeViolations(page);
  await cvg.fill('31');
  await expect(page.getByRole('heading', { name: 'Results' })).toHaveCount(0);
});

test('asymmetric RCV: results only after a change, z read-only from the probability, bounds errors', async ({
  page,
}) => {
  await page.goto('/calculators/rcv');
  await expect(page.getByText('Change a value to see the results.')).toBeVisible();
  await expect(page.getByLabel('z-value')).toHaveValue(formatFixed(zFromProbability(0.05), 2));
  await expect(page.getByLabel('z-value')).toHaveAttribute('readonly', '');
  await page.getByLabel('CVI (%)').fill('2.7');
  await page.getByLabel('CVA (%)').fill('1');
  await page.getByLabel('Probability', { exact: true }).fill('0.025');
  const z = zFromProbability(0.025);
  const { up, down } = rcvAsymmetric(2.7, 1, z);
  await expect(page.getByTestId('rcv-up')).toHaveText(`+${formatFixed(up, 1)}%`);
  await expect(page.getByTestId('rcv-down')).toHaveText(`${formatFixed(down, 1)}%`);
  await expect(page.getByTestId('rcv-symmetric')).toHaveText(`±${formatFixed(rcvSymmetric(2.7, 1, z), 1)}%`);
  await expect(page.locator('.recharts-legend-item-text').filter({ hasText: 'RCV Increase' })).toBeVisible();
  await expect(page.locator('.recharts-legend-item-text').filter({ hasText: 'RCV Decrease' })).toBeVisible();
  await page.getByLabel('Probability', { exact: true }).fill('0.5');
  await expect(page.getByText(RCV_NOT_MEANINGFUL_MESSAGE)).toBeVisible();
  await expect(page.getByTestId('rcv-up')).toHaveCount(0);
  await page.getByLabel('Probability', { exact: true }).fill('1.5');
  await expect(page.getByText('probability must be between 0 and 1')).toBeVisible();
  await page.getByLabel('Probability', { exact: true }).fill('0.0000000001');
  await expect(page.getByText('z-value must be between -6 and 6')).toBeVisible();
});

test('asymmetric RCV with CVA blank: counted as 0 (spec) but shown as without analytical variation, with the CVA-zero alert (issue 42.3)', async ({
  page,
}) => {
  await page.goto('/calculators/rcv');
  await page.getByLabel('CVI (%)').fill('5');
  const alert = page.getByText('Analytical CV (CVA) is zero – RCV calculation may be inaccurate.');
  await expect(alert).toBeVisible();
  const row = page.getByTestId('rcv-row');
  await expect(row.locator('td').nth(1)).toHaveText('without analytical variation');
  await expect(row).not.toContainText('0.00 %');
  await expect(page.getByRole('table', { name: /without analytical variation/ }).first()).toBeVisible();
  const { up } = rcvAsymmetric(5, 0, zForChange(0.05, 'one-direction'));
  await expect(page.getByTestId('rcv-up')).toHaveText(`+${formatFixed(up, 1)}%`);
  await page.getByLabel('CVA (%)').fill('2');
  await expect(alert).toHaveCount(0);
  await expect(row.locator('td').nth(1)).toHaveText('2.00%');
});

test('application of the RCV: % change with 1 decimal, the CVA-is-zero alert', async ({ page }) => {
  await page.goto('/calculators/rcv-application');
  await expect(
    page.getByText('Analytical CV (CVA) is zero – RCV calculation may be inaccurate.'),
  ).toBeVisible();
  await page.getByLabel('1st Result').fill('80');
  await page.getByLabel('2nd Result').fill('93.5');
  await page.getByLabel('CVI (%)').fill('4.4');
  await page.getByLabel('CVA (%)').fill('2.2');
  await expect(page.getByTestId('percent-change')).toHaveText(`${formatFixed(percentChange(80, 93.5), 1)}%`);
  await expect(page.getByText('Analytical CV (CVA) is zero')).toHaveCount(0);
  const { up, down } = rcvAsymmetric(4.4, 2.2, zForChange(0.05, 'one-direction'));
  await expect(page.getByTestId('rcv-verdict')).toHaveText(
    `With CVI 4.40%, CVA 2.20% and z 1.64 (p 0.05, a change in one stated direction), the RCV is ` +
      `+${formatFixed(up, 1)}% for a rise and ${formatFixed(down, 1)}% for a fall. ` +
      'The change of +16.9% is a rise larger than the RCV: likely a real change.',
  );
  await page.getByLabel('1st Result').fill('');
  await expect(page.getByTestId('percent-change')).toHaveText('0.0%');
  await expect(page.getByTestId('rcv-verdict')).toHaveText(
    'Enter a first result greater than 0 to assess the change.',
  );
  await expectNoAxeViolations(page);
});

test('application of the RCV: no verdict on nothing, a 0 → 5 change is not "within the RCV", p 0.5 is not meaningful', async ({
  page,
}) => {
  await page.goto('/calculators/rcv-application');
  await expect(page.getByTestId('rcv-verdict')).toHaveText(
    'Enter a first result greater than 0 to assess the change.',
  );
  await expect(page.getByText(/larger than the RCV/)).toHaveCount(0);
  await page.getByLabel('1st Result').fill('0');
  await page.getByLabel('2nd Result').fill('5');
  await page.getByLabel('CVI (%)').fill('5.6');
  await expect(page.getByTestId('rcv-verdict')).toHaveText(
    'Enter a first result greater than 0 to assess the change.',
  );
  await page.getByLabel('1st Result').fill('5');
  await page.getByLabel('2nd Result').fill('5.78');
  await page.getByLabel('CVA (%)').fill('2');
  await expect(page.getByTestId('rcv-verdict')).toContainText('likely a real change');
  await page.getByLabel(/Either direction/).check();
  await expect(page.getByLabel('z-value')).toHaveValue('1.96');
  await expect(page.getByTestId('rcv-verdict')).toContainText(
    'z 1.96 (p 0.05, a change in either direction)',
  );
  await expect(page.getByTestId('rcv-verdict')).toContainText('within the RCV');
  await page.getByLabel(/One direction/).check();
  await page.getByLabel('Probability', { exact: true }).fill('0.5');
  await expect(page.getByTestId('rcv-verdict')).toHaveText(RCV_NOT_MEANINGFUL_MESSAGE);
});

test('Application of the RCV with means of several results: the probability of a real change, limits in the unit (issue 32.6)', async ({
  page,
}) => {
  await page.goto('/calculators/rcv-application');
  await page.getByLabel('CVI (%)').fill('5.6');
  await page.getByLabel('CVA (%)').fill('2');
  await page.getByLabel('1st Result').fill('5');
  await page.getByLabel('2nd Result').fill('5.6');
  await page.getByLabel('Unit (optional)').fill('mmol/L');
  await expect(page.getByTestId('rcv-verdict')).toContainText('within the RCV');
  await page.getByLabel('Results averaged (1st)').fill('3');
  await page.getByLabel('Results averaged (2nd)').fill('3');
  const z = zForChange(0.05, 'one-direction');
  const { up, down } = rcvForMeans(5.6, 2, z, 3, 3);
  await expect(page.getByTestId('rcv-verdict')).toContainText(
    `the RCV is +${formatFixed(up, 1)}% for a rise`,
  );
  await expect(page.getByTestId('rcv-verdict')).toContainText('likely a real change');
  const p = changeProbability(12, 5.6, 2, 3, 3, 'one-direction');
  await expect(page.getByTestId('rcv-probability')).toHaveText(
    `Probability that this rise is real (in its direction): ${formatFixed(p * 100, 1)} %`,
  );
  await expect(page.getByTestId('rcv-limits')).toContainText(
    `above ${formatFixed(5 * (1 + up / 100), 2)} mmol/L is a real rise`,
  );
  await expect(page.getByTestId('rcv-limits')).toContainText(
    `below ${formatFixed(5 * (1 + down / 100), 2)} mmol/L`,
  );
  await expect(page.getByTestId('probability-words')).toHaveText('95 %, one direction');
  await expectNoAxeViolations(page);
});

test('index of individuality, samples for the set point, personalised reference interval', async ({
  page,
}) => {
  await page.goto('/calculators/individuality');
  await page.getByLabel('CVI (%)').fill('4.4');
  await page.getByLabel('CVG (%)').fill('13.4');
  await page.getByLabel('CVA (%)').fill('2.2');
  await expect(page.getByTestId('ii')).toHaveText(formatFixed(4.4 / 13.4, 2));
  await expect(page.getByTestId('set-point-samples')).toHaveText('4 samples');
  await page.getByLabel(/Previous results/).fill('80 84 82 79 85');
  await expect(page.getByTestId('pri').locator('li')).toHaveCount(2);
  await page.getByLabel(/Previous results/).fill('78,5; 80,1; 79');
  await expect(page.getByTestId('results-reading')).toHaveText(
    'Read 3 results (separated by semicolons or lines, decimal commas): 78.5; 80.1; 79.',
  );
  await page.getByLabel(/Previous results/).fill('78, 82, 80');
  await expect(page.getByTestId('results-reading')).toHaveText(
    'Read 3 results (separated by commas): 78; 82; 80.',
  );
});

test('individuality tools judge nothing before it is entered', async ({ page }) => {
  await page.goto('/calculators/individuality');
  await expect(page.getByTestId('ii')).toHaveText('Enter the CVI and the CVG.');
  await expect(page.getByTestId('set-point-samples')).toHaveText('Enter the CVI.');
  await expect(page.getByText('CVG must be greater than 0')).toHaveCount(0);
  await expect(page.getByText('1 sample', { exact: true })).toHaveCount(0);
});

test('the analyte page opens the APS modal with the meta medians to 1 decimal, and the RCV modal', async ({
  page,
}) => {
  await page.goto('/analytes/1');
  await page.getByRole('button', { name: 'Analytical Performance Specification' }).click();
  const dialog = page.getByRole('dialog', { name: 'Analytical Performance Specification Calculation' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('% Within-subject (CVI)')).toHaveValue(/^\d+\.\d$/);
  // The database's estimates have limits: the APS over them follow in a table of their own (issue 32.5).
  await dialog.getByRole('button', { name: 'Calculate' }).click();
  await expect(dialog.getByTestId('aps-desirable-imprecision')).toHaveText(/^\d+\.\d$/);
  await expect(dialog.getByTestId('aps-ranges')).toContainText(
    /over the estimates' (95 % CIs|ranges|limits)/,
  );
  await expect(dialog.getByTestId('aps-range-desirable-imprecision')).toHaveText(/^\d+\.\d – \d+\.\d$/);
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await page.getByRole('button', { name: 'Reference Change Value' }).click();
  const rcv = page.getByRole('dialog', { name: 'RCV Calculation' });
  // Before a CVA is entered the line over the CVI's limits says it is without analytical variation (issue 42.3).
  await expect(rcv.getByTestId('rcv-range')).toContainText('without analytical variation (no CVA entered)');
  await expect(rcv.getByTestId('rcv-range')).not.toContainText('CVA 0.00%');
  const table = rcv.getByRole('table', { name: 'Z-value / p-value' });
  await expect(table).toBeVisible();
  await expect(table.locator('tbody tr td:first-child')).toHaveText(Z_VALUE_TABLE.map((r) => r.z.toFixed(2)));
  await expect(table.locator('tbody tr').last()).toHaveText('3.090.0010.002');
  // One set of inputs: p 0.05 → z 1.64 for both tools, and one CVI field.
  await expect(rcv.getByLabel('z-value')).toHaveValue('1.64');
  await expect(rcv.getByLabel('CVI (%)')).toHaveCount(1);
  const cvi = Number(await rcv.getByLabel('CVI (%)').inputValue());
  await rcv.getByLabel('CVA (%)').fill('2');
  await rcv.getByLabel('1st Result').fill('100');
  await rcv.getByLabel('2nd Result').fill('110');
  const { up } = rcvAsymmetric(cvi, 2, zForChange(0.05, 'one-direction'));
  await expect(rcv.getByTestId('rcv-up')).toHaveText(`+${formatFixed(up, 1)}%`);
  await expect(rcv.getByTestId('rcv-verdict')).toContainText(`the RCV is +${formatFixed(up, 1)}% for a rise`);
  // The RCV over the CVI estimate's limits, beside the point RCV (issue 32.5).
  await expect(rcv.getByTestId('rcv-range')).toContainText(
    /^Over the CVI's (95 % CI|range of the studies) \(/,
  );
  await rcv.getByLabel(/Either direction/).check();
  const either = rcvAsymmetric(cvi, 2, zForChange(0.05, 'either-direction')).up;
  await expect(rcv.getByTestId('rcv-up')).toHaveText(`+${formatFixed(either, 1)}%`);
  await expect(rcv.getByTestId('rcv-verdict')).toContainText(`z 1.96`);
  await expectNoAxeViolations(page);
});

interface Value {
  value: number | null;
}
interface AppRow {
  measurand_id: number;
  display_name: string;
  headline: boolean;
  cvi: { median: number } | null;
  aps: { imprecision: Value };
  rcv: { up: Value; down: Value };
}

test('one quantity, one rounding: glucose desirable CVA and RCV read the same on the dialogs, the specifications table, its CSV and the menu (issue 42.5)', async ({
  page,
}) => {
  const apps = await apiJson<{ data: AppRow[] }>(page, '/api/v1/applications?cva=2.3');
  const g = apps.data.find((r) => r.display_name === 'Glucose' && r.headline)!;
  const cva = formatFixed(g.aps.imprecision.value!, 1);
  const up = formatFixed(g.rcv.up.value!, 1);
  const down = formatFixed(g.rcv.down.value!, 1);
  // The demo glucose CVI is not a 1-decimal number: from its rounding the RCV would read otherwise.
  const z = zForChange(0.05, 'either-direction');
  expect(formatFixed(rcvAsymmetric(Number(formatFixed(g.cvi!.median, 1)), 2.3, z).up, 1)).not.toBe(up);

  // The menu (the lab's CVA 2.3) says the same.
  const menu = await page.request.post('/api/v1/menu', { data: { tests: [{ name: 'Glucose', cva: 2.3 }] } });
  const test0 = (
    (await menu.json()) as {
      tests: { specs: { desirable: { imprecision: Value } }; rcv: { up: number; down: number } }[];
    }
  ).tests[0]!;
  expect(formatFixed(test0.specs.desirable.imprecision.value!, 1)).toBe(cva);
  expect(formatFixed(test0.rcv.up, 1)).toBe(up);
  expect(formatFixed(test0.rcv.down, 1)).toBe(down);

  // The specifications table and its CSV.
  await page.goto('/applications?cva=2.3');
  const row = page.locator('#applications tbody tr').filter({ hasText: 'Glucose' }).first();
  await expect(row).toContainText(cva);
  await expect(row).toContainText(up);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('applications-csv').click(),
  ]);
  const line = fs
    .readFileSync(await download.path(), 'utf8')
    .split('\r\n')
    .find((l) => l.includes('Glucose'))!;
  // The file holds 4 decimals of the same numbers: they round to what the table shows.
  const cells = line.split(',');
  const inFile = (v: number) => cells.find((c) => c === String(roundHalfUp(v, 4)))!;
  expect(formatFixed(Number(inFile(g.aps.imprecision.value!)), 1)).toBe(cva);
  expect(formatFixed(Number(inFile(g.rcv.up.value!)), 1)).toBe(up);

  // The APS dialog: the box shows 1 decimal, the result is the table's.
  await page.goto(`/analytes/${g.measurand_id}`);
  await page.getByRole('button', { name: 'Analytical Performance Specification' }).click();
  const aps = page.getByRole('dialog', { name: 'Analytical Performance Specification Calculation' });
  await expect(aps.getByLabel('% Within-subject (CVI)')).toHaveValue(formatFixed(g.cvi!.median, 1));
  await aps.getByRole('button', { name: 'Calculate' }).click();
  await expect(aps.getByTestId('aps-desirable-imprecision')).toHaveText(cva);
  await expect(aps.getByTestId('aps-cvi-exact')).toContainText(String(g.cvi!.median).slice(0, 6));
  await aps.getByRole('button', { name: 'Close' }).last().click();

  // The RCV dialog at the table's probability (0.95, either direction) and CVA.
  await page.getByRole('button', { name: 'Reference Change Value' }).click();
  const rcv = page.getByRole('dialog', { name: 'RCV Calculation' });
  await rcv.getByLabel('CVA (%)').fill('2.3');
  await rcv.getByLabel(/Either direction/).check();
  await expect(rcv.getByTestId('rcv-up')).toHaveText(`+${up}%`);
  await expect(rcv.getByTestId('rcv-down')).toHaveText(`${down}%`);

  // At 375 px the results table scrolls sideways in a box a keyboard reaches (issue 42.9).
  await page.setViewportSize({ width: 375, height: 800 });
  const region = rcv.getByRole('region', { name: 'Reference change values (scrolls sideways)' });
  await expect(region).toHaveAttribute('tabindex', '0');
  await region.focus();
  await expect(region).toBeFocused();
  await expectNoAxeViolations(page);
});
