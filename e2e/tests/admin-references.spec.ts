import { expect, expectNoAxeViolations, signIn, test } from './helpers';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

test('signed out, the administrators’ screens say Not Authorised', async ({ page }) => {
  for (const path of ['/analyte_filter', '/reference_filter', '/units', '/mailing_list', '/references/new']) {
    await page.goto(path);
    await expect(page.getByText('Not Authorised')).toBeVisible();
  }
  await page.goto('/references');
  await expect(page.getByRole('columnheader', { name: 'Actions' })).toHaveCount(0);
});

test('create a reference with its PDF, edit it, meet a conflict, delete it', async ({ page }) => {
  await signIn(page);
  const title = `E2E reference ${Date.now()}`;

  await page.goto('/references/new');
  await expect(page.getByRole('heading', { name: 'Enter New Reference' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Create Reference' }).click();
  await expect(page.getByText('Title is required')).toBeVisible();
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Authors').fill('Tester T, Checker C');
  await page.getByLabel('Journal').fill('Clin Chem Lab Med');
  await page.getByLabel('Year of Publication').fill('1700');
  await page.getByRole('button', { name: 'Create Reference' }).click();
  await expect(page.getByText('Year of Publication must be between 1800 and 2100')).toBeVisible();
  await page.getByLabel('Year of Publication').fill('2021');
  await page.getByLabel('Article file (PDF, 20 MB at most)').setInputFiles({
    name: 'e2e-article.pdf',
    mimeType: 'application/pdf',
    buffer: PDF,
  });
  await page.getByRole('button', { name: 'Create Reference' }).click();
  await expect(page).toHaveURL(/\/references\/\d+$/);
  const id = Number(/\/references\/(\d+)$/.exec(page.url())![1]);
  await expect(page.getByRole('button', { name: title })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Change history' })).toBeVisible();
  await page.getByRole('button', { name: title }).click();
  const modal = page.getByRole('dialog', { name: 'Reference Details' });
  await expect(modal.getByRole('link', { name: 'e2e-article.pdf' })).toHaveAttribute(
    'href',
    `/api/references/${id}/file`,
  );
  await modal.getByRole('button', { name: 'Close' }).first().click();
  await expect(modal).toBeHidden();
  const file = await page.request.get(`/api/references/${id}/file`);
  expect(file.headers()['content-type']).toBe('application/pdf');
  expect(file.headers()['content-disposition']).toContain('attachment');
  await expectNoAxeViolations(page);

  // Edit through the card's edit control.
  await page.getByRole('link', { name: `Edit reference ${id}` }).click();
  await expect(page.getByRole('heading', { name: 'Edit Reference' })).toBeVisible();
  await expect(page.getByLabel('Title')).toHaveValue(title);
  await expectNoAxeViolations(page);
  await page.getByLabel('Title').fill(`${title} (edited)`);
  await page.getByRole('button', { name: 'Save Reference' }).click();
  await expect(page).toHaveURL(new RegExp(`/references/${id}$`));
  await expect(page.getByRole('button', { name: `${title} (edited)` })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Edited' }).first()).toBeVisible();

  // Someone else saves while this form is open: 409, the form shows their values.
  await page.goto(`/references/${id}/edit`);
  await expect(page.getByLabel('Title')).toHaveValue(`${title} (edited)`);
  const session = (await (await page.request.get('/api/session')).json()) as { csrf_token: string };
  const current = (await (await page.request.get(`/api/references/${id}`)).json()) as {
    reference: { version: number };
  };
  const other = await page.request.put(`/api/references/${id}`, {
    headers: { 'X-CSRF-Token': session.csrf_token },
    data: { title: `${title} (theirs)`, year_of_publication: 2021, version: current.reference.version },
  });
  expect(other.status()).toBe(200);
  await page.getByLabel('Title').fill(`${title} (mine)`);
  await page.getByRole('button', { name: 'Save Reference' }).click();
  await expect(page.getByText(/Someone else saved this reference after you opened it/)).toBeVisible();
  await expect(page.getByLabel('Title')).toHaveValue(`${title} (theirs)`);

  // Someone else saves while the references table is open: the delete sends the version the table
  // showed and is refused (409) with a message; after a reload it goes through.
  await page.goto(`/references?search=${encodeURIComponent(title)}`);
  await expect(page.getByRole('button', { name: `Delete reference ${id}` })).toBeVisible();
  const seen = (await (await page.request.get(`/api/references/${id}`)).json()) as {
    reference: { version: number };
  };
  const edited = await page.request.put(`/api/references/${id}`, {
    headers: { 'X-CSRF-Token': session.csrf_token },
    data: { title: `${title} (theirs)`, year_of_publication: 2022, version: seen.reference.version },
  });
  expect(edited.status()).toBe(200);
  await page.getByRole('button', { name: `Delete reference ${id}` }).click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(
    page.getByText(/Someone else saved this reference after you opened it; it was not deleted/),
  ).toBeVisible();
  expect((await page.request.get(`/api/references/${id}`)).status()).toBe(200);

  // Delete from the references table: Cancel closes, Confirm deletes.
  await page.goto(`/references?search=${encodeURIComponent(title)}`);
  await page.getByRole('button', { name: `Delete reference ${id}` }).click();
  await expect(page.getByText('Are you sure you want to delete the reference?')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Are you sure you want to delete the reference?')).toBeHidden();
  await page.getByRole('button', { name: `Delete reference ${id}` }).click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Delete successful')).toBeVisible();
  await expect(page.getByText('No references found')).toBeVisible();
  expect((await page.request.get(`/api/references/${id}`)).status()).toBe(404);
});

test('a reference still used by datasets is not deleted, and says why', async ({ page }) => {
  await signIn(page);
  await page.goto('/references?search=EuBIVAS');
  await expect(page.getByRole('columnheader', { name: 'Actions' })).toBeVisible();
  await expectNoAxeViolations(page);
  const usedRow = page
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: /^[1-9]\d* datasets?$/ }) })
    .first();
  await usedRow.getByRole('button', { name: /^Delete reference \d+$/ }).click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: /cannot be deleted: \d+ datasets? uses?/ }),
  ).toBeVisible();
});

test('manage by dataset and by reference', async ({ page }) => {
  await signIn(page);
  await page.goto('/analyte_filter');
  const manage = page.getByRole('button', { name: 'Manage Reference Dataset' });
  await expect(manage).toBeDisabled();
  await expectNoAxeViolations(page);
  const select = page.getByLabel('Measurand');
  const value = await select.locator('option').nth(1).getAttribute('value');
  await select.selectOption(value);
  await expect(manage).toBeEnabled();
  await manage.click();
  await expect(page.getByRole('link', { name: 'Export' })).toHaveAttribute(
    'href',
    `/export_by_analyte/${value}.xlsx`,
  );
  await expect(page.getByRole('table')).toBeVisible();
  await expectNoAxeViolations(page);

  await page.goto('/reference_filter');
  await expect(page.getByRole('button', { name: 'Manage Reference Dataset' })).toBeDisabled();
  await page.getByLabel('Search references').fill('EuBIVAS summary report');
  const refSelect = page.getByLabel('Reference', { exact: true });
  const refId = await refSelect.locator('option').first().getAttribute('value');
  await refSelect.selectOption(refId);
  await page.getByRole('button', { name: 'Manage Reference Dataset' }).click();
  await expect(page.getByRole('link', { name: 'Export' })).toHaveAttribute(
    'href',
    `/export_by_reference/${refId}.xlsx`,
  );
  await expect(page.getByRole('table')).toBeVisible();
  await expectNoAxeViolations(page);
});

test('units: add, rename, delete, and refusal while in use', async ({ page }) => {
  await signIn(page);
  await page.goto('/units');
  await expect(page.getByRole('heading', { name: 'Units' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel('New unit').fill('e2e-unit');
  await page.getByRole('button', { name: 'Add unit' }).click();
  await expect(page.getByText('Added "e2e-unit"')).toBeVisible();
  await page.getByRole('button', { name: 'Rename e2e-unit' }).click();
  await page.getByLabel('New name for e2e-unit').fill('e2e-unit-renamed');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Renamed "e2e-unit" to "e2e-unit-renamed"')).toBeVisible();
  await expect(page.getByRole('cell', { name: 'e2e-unit-renamed', exact: true })).toBeVisible();
  // Someone else renames it while this list is open: the delete (with the version the list showed)
  // is refused with 409 and a message; the list then shows the new name and the delete goes through.
  const units = (await (await page.request.get('/api/units')).json()) as {
    data: { id: number; name: string; version: number }[];
  };
  const unit = units.data.find((u) => u.name === 'e2e-unit-renamed')!;
  const csrf = (await (await page.request.get('/api/session')).json()) as { csrf_token: string };
  const renamed = await page.request.put(`/api/units/${unit.id}`, {
    headers: { 'X-CSRF-Token': csrf.csrf_token },
    data: { name: 'e2e-unit-theirs', version: unit.version },
  });
  expect(renamed.status()).toBe(200);
  await page.getByRole('button', { name: 'Delete e2e-unit-renamed' }).click();
  await expect(
    page.getByText(
      'Someone else changed this unit after you opened it (it is now "e2e-unit-theirs"); it was not deleted',
    ),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Delete e2e-unit-theirs' }).click();
  await expect(page.getByText('Deleted "e2e-unit-theirs"')).toBeVisible();
  // A unit in use: the first row whose count is not 0.
  const used = page
    .getByRole('row')
    .filter({ hasNotText: /^.*\b0 datasets\b/ })
    .nth(1);
  await used.getByRole('button', { name: /^Delete / }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: /cannot be deleted: \d+ datasets? uses? it/ }),
  ).toBeVisible();
});

test('mailing list: add a member, "Worked"', async ({ page }) => {
  await signIn(page);
  await page.getByRole('button', { name: 'Administration' }).click();
  await page.getByRole('link', { name: 'Mailing List' }).click();
  await expect(page).toHaveURL(/\/mailing_list$/);
  await expect(page.getByLabel('Email address')).toHaveAttribute('type', 'email');
  await expectNoAxeViolations(page);
  await page.getByLabel('Email address').fill('reader@example.org');
  await page.getByLabel('Name').fill('A Reader');
  await page.getByRole('button', { name: 'Add to mailing list' }).click();
  await expect(page.getByText('Worked')).toBeVisible();
  await expect(page.getByRole('cell', { name: 'reader@example.org' })).toBeVisible();
  await expectNoAxeViolations(page);
});
