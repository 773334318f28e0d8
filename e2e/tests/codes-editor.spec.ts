import { apiJson, expect, expectNoAxeViolations, signIn, test } from './helpers';

interface V1Page {
  meta: { code?: { system: string; code: string; measurand_id: number; ucum_unit: string | null } };
  data: { id: number; display_name: string }[];
}

// Issue 45.1, decision 093: a curator edits a measurand's codes on its page; a laboratory system
// then finds the measurand by the new code, and a mistyped LOINC code is refused with its message.
test('a curator adds a LOINC code on the measurand page; it is shown and found, a bad check digit is refused', async ({
  page,
}) => {
  const glucose = (await apiJson<V1Page>(page, '/api/v1/measurands?loinc=2345-7')).data[0]!;
  expect(glucose.display_name).toBe('Glucose');

  // A visitor sees the codes, not the editor.
  await page.goto(`/analytes/${glucose.id}`);
  await expect(page.getByTestId('measurand-codes')).toContainText('LOINC 2345-7');
  await expect(page.getByRole('heading', { name: 'Codes laboratory systems use' })).toHaveCount(0);

  await signIn(page);
  await page.goto(`/analytes/${glucose.id}`);
  const editor = page.getByRole('form', { name: 'Codes laboratory systems use' });
  await expect(editor.getByTestId('measurand-code-row')).not.toHaveCount(0);
  const before = await editor.getByTestId('measurand-code-row').count();

  await editor.getByRole('button', { name: 'Add a code' }).click();
  const row = editor.getByTestId('measurand-code-row').last();
  await expect(row.getByLabel('System', { exact: true })).toHaveValue('http://loinc.org');
  await row.getByLabel('Code', { exact: true }).fill('14749-5');
  await row.getByLabel('Display (the system’s name)').fill('Glucose [Moles/volume] in Serum or Plasma');
  await row.getByLabel('Matrix').selectOption({ label: 'Serum/plasma' });
  await row.getByLabel('UCUM unit').fill('mmol/L');
  await row.getByLabel('Source (where the code is stated)').fill('https://loinc.org/14749-6/');
  await editor.getByRole('button', { name: 'Save codes' }).click();
  await expect(editor.getByRole('alert')).toHaveText(
    '"14749-5" is not a LOINC code: its check digit would be 6',
  );
  await expectNoAxeViolations(page);

  await row.getByLabel('Code', { exact: true }).fill('14749-6');
  await editor.getByRole('button', { name: 'Save codes' }).click();
  await expect(editor.getByRole('status')).toHaveText('Saved.');
  await expect(editor.getByTestId('measurand-code-row')).toHaveCount(before + 1);
  await expect(page.getByTestId('measurand-codes')).toContainText('LOINC 14749-6 (Serum/plasma, mmol/L)');
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.screenshot({ path: '/tmp/codes-editor-1366.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: '/tmp/codes-editor-375.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });

  // A laboratory system finds the measurand by it; so does the RCV tool's "Find CVI".
  const found = await apiJson<V1Page>(page, '/api/v1/measurands?loinc=14749-6');
  expect(found.data.map((m) => m.id)).toEqual([glucose.id]);
  expect(found.meta.code).toMatchObject({ system: 'http://loinc.org', code: '14749-6', ucum_unit: 'mmol/L' });
  await page.goto('/calculators/rcv-application');
  await page.getByLabel('Test code (LOINC, NPU; optional)').fill('14749-6');
  await page.getByRole('button', { name: 'Find CVI' }).click();
  await expect(page.getByTestId('cvi-by-code')).toContainText('LOINC 14749-6 is Glucose');

  // Another measurand's code is refused with the server's message, naming that measurand.
  await page.goto(`/analytes/${glucose.id}`);
  await editor.getByRole('button', { name: 'Add a code' }).click();
  await editor.getByTestId('measurand-code-row').last().getByLabel('Code', { exact: true }).fill('2160-0');
  await editor.getByRole('button', { name: 'Save codes' }).click();
  await expect(editor.getByRole('alert')).toContainText(
    'http://loinc.org|2160-0 is already a code of another measurand: Creatinine',
  );
  await expectNoAxeViolations(page);
});

// A curator imports a crosswalk file: every line previewed with what happens, then applied.
test('a curator previews a crosswalk file line by line and imports it', async ({ page }) => {
  await signIn(page);
  // Reached from a measurand page's codes editor.
  const glucose = (await apiJson<V1Page>(page, '/api/v1/measurands?loinc=2345-7')).data[0]!;
  await page.goto(`/analytes/${glucose.id}`);
  await page.getByRole('link', { name: 'import a crosswalk file' }).click();
  await expect(page).toHaveURL(/\/measurand_codes\/import$/);
  await expect(page.getByRole('heading', { name: 'Import Codes from a Crosswalk File' })).toBeVisible();
  const csv = [
    'system,code,display,measurand,matrix,ucum_unit,source',
    'LOINC,2947-0,Sodium [Moles/volume] in Blood,Sodium,Whole blood,mmol/L,https://loinc.org/2947-0/',
    'LOINC,2823-3,,Sodium,Serum/plasma,mmol/L,',
    'LOINC,2947-1,,Sodium,,,',
  ].join('\r\n');
  await page
    .getByLabel('Crosswalk file')
    .setInputFiles({ name: 'crosswalk.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  const lines = page.getByTestId('crosswalk-line');
  await expect(lines).toHaveCount(3);
  await expect(lines.nth(0)).toContainText('Add');
  await expect(lines.nth(1)).toContainText(
    'Refused: http://loinc.org|2823-3 is already a code of another measurand: Potassium',
  );
  await expect(lines.nth(2)).toContainText(
    'Refused: "2947-1" is not a LOINC code: its check digit would be 0',
  );
  await expect(page.getByText('This material contains content from LOINC')).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Import 1 code' }).click();
  await expect(page.getByText('Imported: 1 code added, 0 changed, 2 lines left out.')).toBeVisible();
  const found = await apiJson<V1Page>(page, '/api/v1/measurands?loinc=2947-0');
  expect(found.data[0]!.display_name).toBe('Sodium');
});
