import { formatFixed } from '@bvdb/domain';
import { apiJson, expect, expectNoAxeViolations, test } from './helpers';

interface Code {
  system: string;
  code: string;
  matrix: string | null;
  ucum_unit: string | null;
}
interface V1Page {
  meta: { code?: Code & { measurand_id: number } };
  data: {
    id: number;
    display_name: string;
    headline: { matrix: string; cvi: { median: number } | null } | null;
  }[];
}

// Issue 45.7: a laboratory sees on the measurand page the codes its systems use, and gets the
// CVI into the RCV tool from such a code.
test('the measurand page shows its codes; the RCV tool fills in the CVI from a LOINC code', async ({
  page,
}) => {
  const found = await apiJson<V1Page>(page, '/api/v1/measurands?loinc=2160-0');
  const creatinine = found.data[0]!;
  expect(creatinine.display_name).toBe('Creatinine');
  const { codes } = await apiJson<{ codes: Code[] }>(page, `/api/v1/measurands/${creatinine.id}/codes`);
  const loinc = codes.find((c) => c.code === '2160-0')!;

  await page.goto(`/analytes/${creatinine.id}`);
  const line = page.getByTestId('measurand-codes');
  await expect(line).toContainText('LOINC 2160-0');
  if (loinc.matrix) await expect(line).toContainText(`2160-0 (${loinc.matrix}`);

  await page.goto('/calculators/rcv-application');
  await page.getByLabel('Test code (LOINC, NPU; optional)').fill('http://loinc.org|2160-0');
  await page.getByRole('button', { name: 'Find CVI' }).click();
  const cvi = creatinine.headline!.cvi!.median;
  await expect(page.getByTestId('cvi-by-code')).toHaveText(
    `LOINC 2160-0 is Creatinine: CVI ${formatFixed(cvi, 2)}% from its meta-analysis in ${creatinine.headline!.matrix}, filled in below.`,
  );
  await expect(page.getByLabel('CVI (%)')).toHaveValue(formatFixed(cvi, 1));
  await page.getByLabel('Test code (LOINC, NPU; optional)').fill('1742-7');
  await page.getByRole('button', { name: 'Find CVI' }).click();
  await expect(page.getByTestId('cvi-by-code')).toHaveText('No measurand has the code 1742-7');
  await expect(page.getByLabel('CVI (%)')).toHaveValue(formatFixed(cvi, 1));
  await expectNoAxeViolations(page);
});
