import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, signIn, test } from './helpers';

const SHOTS = process.env.E2E_SCREENSHOTS; // a folder: screenshots of the form are written there

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Picks the first real option (after the "choose one" placeholder) once the options have loaded. */
async function pickFirst(page: Page, label: string) {
  const select = page.getByLabel(label, { exact: true });
  await expect(select.locator('option').nth(1)).toBeAttached();
  const value = await select.locator('option').nth(1).getAttribute('value');
  await select.selectOption(value);
}

const datasetIdOf = (page: Page) => Number(/\/bv_specifications\/(\d+)/.exec(page.url())![1]);

test('signed out, the dataset screens say Not Authorised and the dataset view has no tools', async ({
  page,
}) => {
  for (const path of ['/bv_specifications/new', '/bv_specifications/1/edit', '/bv_specifications/1/copy']) {
    await page.goto(path);
    await expect(page.getByText('Not Authorised')).toBeVisible();
  }
  await page.goto('/bv_specifications/1');
  await expect(page.getByText('Dataset Details')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Edit Dataset' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Change history' })).toHaveCount(0);
});

test('create a dataset through the form, edit it, copy it, delete it', async ({ page }) => {
  await signIn(page);
  const uid = `E2E-${Date.now()}`;

  await page.goto('/bv_specifications/new');
  await expect(page.getByRole('heading', { name: 'Enter New BIVAC Dataset' })).toBeVisible();
  await expect(page.getByLabel('QI1 Scale')).toHaveValue('A');
  await expect(page.getByLabel('State of Well Being')).toHaveValue('1');
  await expect(page.getByLabel('Ethnicity')).toHaveValue('6');
  await expect(page.getByText('Disease States')).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Reference' })).toBeVisible();
  await shot(page, 'a-dataset-new');
  await expectNoAxeViolations(page);

  // Every rule of spec section 5, with its message.
  await page.getByLabel('Age Min').fill('-1');
  await page.getByLabel('State of Well Being').selectOption('2');
  await expect(page.getByText('Disease States')).toBeVisible();
  await page.getByLabel('Sampling Start Time').fill('07:00');
  await page.getByRole('button', { name: 'Submit' }).click();
  for (const message of [
    'Reference is required.',
    'Unique Identifier is required.',
    'Matrix selection is required.',
    'Must be a non-negative number.',
    'Please select at least one disease state.',
    'Both start and end times must be provided.',
  ]) {
    await expect(page.getByText(message)).toBeVisible();
  }
  await shot(page, 'a-dataset-errors');
  await expectNoAxeViolations(page);

  await pickFirst(page, 'Measurand');
  // The reference picker: found by a co-author (not the first) and the year, chosen by keyboard.
  const reference = page.getByRole('combobox', { name: 'Reference' });
  await reference.fill('roraas 2017');
  const matches = page.getByRole('listbox', { name: 'References' }).getByRole('option');
  await expect(matches.first()).toContainText('Biological variation estimates obtained from 91 healthy');
  for (const option of await matches.all()) await expect(option).toContainText('2017');
  await reference.press('ArrowDown');
  await expect(reference).toHaveAttribute('aria-activedescendant', /.+/);
  await reference.press('Enter');
  await expect(reference).toHaveValue(/Carobene A.*2017.*Biological variation estimates obtained/);
  await expect(reference).toHaveAttribute('aria-expanded', 'false');
  // And by words of the title.
  await reference.fill('hematological parameters chinese');
  await expect(matches).toHaveCount(1);
  await expect(matches.first()).toContainText('Long-term biological variation estimates of 13 hematological');
  await reference.fill('roraas 2017');
  await matches.first().click();
  await page.getByLabel('Unique Identifier').fill(`  ${uid}  `);
  await pickFirst(page, 'Matrix');
  await page.getByLabel('Heart disease').check();
  await page.getByLabel('Sampling End Time').fill('09:00');
  await page.getByLabel('Age Min').fill('20');
  await page.getByLabel('Estimate of CVI (%)').fill('5.5');
  await page.getByLabel('QI2 Subjects').selectOption('B');
  await page.getByLabel('Comment', { exact: true }).fill('<script>window.__pwned = 1</script> plain text');
  await page.getByLabel('Published').check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Form submitted successfully!')).toBeVisible();
  // The form is back to its defaults.
  await expect(page.getByLabel('Unique Identifier')).toHaveValue('');
  await expect(page.getByLabel('State of Well Being')).toHaveValue('1');
  await expect(page.getByLabel('QI2 Subjects')).toHaveValue('A');

  await page.getByRole('link', { name: `View dataset ${uid}` }).click();
  await expect(page.getByRole('heading', { name: new RegExp(uid) })).toBeVisible();
  const id = datasetIdOf(page);
  await expect(page.getByText('<script>window.__pwned = 1</script> plain text')).toBeVisible();
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(page.getByRole('heading', { name: 'Change history' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Created' })).toBeVisible();
  await expectNoAxeViolations(page);

  // Edit: prefilled, saved, recorded.
  await page.getByRole('link', { name: 'Edit Dataset' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Dataset' })).toBeVisible();
  await expect(page.getByLabel('Unique Identifier')).toHaveValue(uid);
  await expect(page.getByLabel('Heart disease')).toBeChecked();
  await expect(page.getByLabel('QI2 Subjects')).toHaveValue('B');
  await shot(page, 'a-dataset-edit');
  await expectNoAxeViolations(page);
  await page.getByLabel('Comment', { exact: true }).fill('Edited in the browser');
  await page.getByRole('button', { name: 'Save Dataset' }).click();
  await expect(page).toHaveURL(new RegExp(`/bv_specifications/${id}$`));
  await expect(page.getByText('Edited in the browser')).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Edited', exact: true })).toBeVisible();

  // Copy: an ordinary link; the form opens prefilled and saves a new dataset.
  const copyLink = page.getByRole('link', { name: 'Copy' });
  await expect(copyLink).toHaveAttribute('href', `/bv_specifications/${id}/copy`);
  await copyLink.click();
  await expect(page.getByRole('heading', { name: 'Copy Dataset' })).toBeVisible();
  await expect(page.getByLabel('Unique Identifier')).toHaveValue(uid);
  await expect(page.getByLabel('Comment', { exact: true })).toHaveValue('Edited in the browser');
  // Saved unchanged, the copy could not be told from its source: the form says so and sends nothing.
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(
    page.getByText(
      `A copy needs its own Unique Identifier: "${uid}" is the one of the dataset it was copied from (same reference and measurand).`,
    ),
  ).toBeVisible();
  await expect(page.getByText('Form submitted successfully!')).toHaveCount(0);
  await page.getByLabel('Unique Identifier').fill(`${uid}-copy`);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Form submitted successfully!')).toBeVisible();
  await page.getByRole('link', { name: `View dataset ${uid}-copy` }).click();
  const copyId = datasetIdOf(page);
  expect(copyId).not.toBe(id);
  await expect(page.getByText('Edited in the browser')).toBeVisible();

  // Delete the copy: Cancel keeps it, Confirm removes it.
  await page.getByRole('button', { name: 'Delete Dataset' }).click();
  await expect(page.getByText(/Are you sure you want to delete the dataset/)).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText(/Are you sure you want to delete the dataset/)).toBeHidden();
  await page.getByRole('button', { name: 'Delete Dataset' }).click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/analytes\/\d+$/);
  expect((await page.request.get(`/api/bv_specifications/${copyId}`)).status()).toBe(404);
  expect((await page.request.get(`/api/bv_specifications/${id}`)).status()).toBe(200);
});

test('two people edit one dataset: the second save meets the conflict and can load the first one’s version', async ({
  browser,
}) => {
  const alice = await browser.newContext();
  const bob = await browser.newContext();
  const a = await alice.newPage();
  const b = await bob.newPage();
  await signIn(a);
  await signIn(b);
  const id = 2;
  await a.goto(`/bv_specifications/${id}/edit`);
  await b.goto(`/bv_specifications/${id}/edit`);
  await expect(a.getByLabel('Unique Identifier')).not.toHaveValue('');
  await expect(b.getByLabel('Unique Identifier')).not.toHaveValue('');

  await a.getByLabel('Comment', { exact: true }).fill('Saved first by Alice');
  await a.getByRole('button', { name: 'Save Dataset' }).click();
  await expect(a).toHaveURL(new RegExp(`/bv_specifications/${id}$`));

  await b.getByLabel('Comment', { exact: true }).fill('Bob was second');
  await b.getByRole('button', { name: 'Save Dataset' }).click();
  await expect(b.getByText(/Someone else saved this dataset after you opened it/)).toBeVisible();
  await expect(b.getByLabel('Comment', { exact: true })).toHaveValue('Bob was second');
  await shot(b, 'a-dataset-conflict');
  await b.getByRole('button', { name: 'Load their version' }).click();
  await expect(b.getByLabel('Comment', { exact: true })).toHaveValue('Saved first by Alice');
  await b.getByLabel('Comment', { exact: true }).fill('Bob, after reading Alice');
  await b.getByRole('button', { name: 'Save Dataset' }).click();
  await expect(b).toHaveURL(new RegExp(`/bv_specifications/${id}$`));
  await expect(b.getByText('Bob, after reading Alice')).toBeVisible();
  await alice.close();
  await bob.close();
});
