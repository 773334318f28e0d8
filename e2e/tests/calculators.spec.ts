import {
  calculateAps,
  formatFixed,
  percentChange,
  rcvAsymmetric,
  rcvSymmetric,
  zFromProbability,
} from '@bvdb/domain';
import { expect, expectNoAxeViolations, test } from './helpers';

test('APS: hidden until Calculate, hidden again on edit, numbers as the domain computes them, zero warnings', async ({
  page,
}) => {
  await page.goto('/calculators/aps');
  const cvi = page.getByLabel('% within-subject (CVI)');
  const cvg = page.getByLabel('% between-subject (CVG)');
  await expect(page.getByText('Note CVI is 0')).toBeVisible();
  await expect(cvi).toHaveClass(/is-invalid/);
  await cvi.fill('12.6');
  await cvg.fill('30');
  await expect(page.getByRole('heading', { name: 'Results' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Calculate' }).click();
  const aps = calculateAps(12.6, 30);
  for (const level of ['minimum', 'desirable', 'optimal'] as const) {
    for (const key of ['imprecision', 'bias', 'totalError', 'mau'] as const) {
      await expect(page.getByTestId(`aps-${level}-${key}`)).toHaveText(`${formatFixed(aps[level][key], 1)}%`);
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
  await page.getByLabel('Probability', { exact: true }).fill('1.5');
  await expect(page.getByText('probability must be between 0 and 1')).toBeVisible();
  await page.getByLabel('Probability', { exact: true }).fill('0.0000000001');
  await expect(page.getByText('z-value must be between -6 and 6')).toBeVisible();
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
  await page.getByLabel('1st Result').fill('');
  await expect(page.getByTestId('percent-change')).toHaveText('0.0%');
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
});

test('the analyte page opens the APS modal with the meta medians to 1 decimal, and the RCV modal', async ({
  page,
}) => {
  await page.goto('/analytes/1');
  await page.getByRole('button', { name: 'Analytical Performance Specification' }).click();
  const dialog = page.getByRole('dialog', { name: 'Analytical Performance Specification Calculation' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('% within-subject (CVI)')).toHaveValue(/^\d+\.\d$/);
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await page.getByRole('button', { name: 'Reference Change Value' }).click();
  const rcv = page.getByRole('dialog', { name: 'RCV Calculation' });
  await expect(rcv.getByRole('table', { name: 'Z-value / p-value' })).toBeVisible();
});
