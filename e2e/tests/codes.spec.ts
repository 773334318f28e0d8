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
  // Fed the code, the tool judges a change as the endpoint a laboratory system calls does (issue 45.7):
  // the page's default is p 0.05 in one stated direction, the endpoint's probability 0.95, one way.
  await page.getByLabel('CVA (%)').fill('4');
  for (const [x1, x2] of [
    [80, 96],
    [80, 84],
    [90, 75],
  ] as const) {
    await page.getByLabel('1st Result').fill(String(x1));
    await page.getByLabel('2nd Result').fill(String(x2));
    const code = encodeURIComponent('http://loinc.org|2160-0');
    const v = await apiJson<{ rcv: { up: number; down: number }; significant: boolean }>(
      page,
      `/api/v1/rcv?code=${code}&x1=${x1}&x2=${x2}&cva=4&direction=one&probability=0.95`,
    );
    const verdict = page.getByTestId('rcv-verdict');
    await expect(verdict).toContainText(
      `the RCV is +${formatFixed(v.rcv.up, 1)}% for a rise and ${formatFixed(v.rcv.down, 1)}% for a fall`,
    );
    await expect(verdict).toContainText(v.significant ? 'likely a real change' : 'within the RCV');
  }
  await page.getByLabel('Test code (LOINC, NPU; optional)').fill('1742-7');
  await page.getByRole('button', { name: 'Find CVI' }).click();
  await expect(page.getByTestId('cvi-by-code')).toHaveText('No measurand has the code 1742-7');
  await expect(page.getByLabel('CVI (%)')).toHaveValue(formatFixed(cvi, 1));
  await expectNoAxeViolations(page);
});
