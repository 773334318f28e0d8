import { expect, test } from './helpers';

test('signed out, an administrators’ page has a heading, a way to Log in, and hydrates without error', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  for (const path of ['/bv_specifications/new', '/references/new', '/users/edit']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: 'Not Authorised' })).toBeVisible();
    await expect(page.locator('h1')).toHaveCount(1);
    await expect(page.getByRole('main').getByRole('link', { name: 'Log in' })).toHaveAttribute(
      'href',
      '/users/sign_in',
    );
  }
  expect(errors, errors.join('\n')).toEqual([]);
});

test('signed out, the Specifications table offers no Edit buttons', async ({ page }) => {
  await page.goto('/bv_specifications');
  await page.getByRole('tab', { name: 'Specifications table' }).click();
  const table = page.locator('#specs_table');
  await expect(table.locator('tbody tr').first()).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Edit' })).toHaveCount(0);
  await expect(table.getByRole('link', { name: 'Edit' })).toHaveCount(0);
});

test('the demo notice sits in its own landmark in the flow of the page, covering nothing', async ({
  page,
}) => {
  await page.goto('/bv_specifications');
  const notice = page.getByRole('complementary', { name: 'Demo data notice' });
  await expect(notice).toBeVisible();
  const position = await notice.evaluate((n) => getComputedStyle(n).position);
  expect(position).toBe('static');
  // Everything of the page's main region is below it, nothing underneath it.
  const noticeBox = (await notice.boundingBox())!;
  const mainBox = (await page.getByRole('main').boundingBox())!;
  expect(mainBox.y).toBeGreaterThanOrEqual(noticeBox.y + noticeBox.height - 1);
});

test('printed, a measurand page has no navigation, banner or buttons, and says where and when', async ({
  page,
}) => {
  await page.goto('/analytes/10');
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('header .navbar')).toBeHidden();
  await expect(page.getByRole('complementary', { name: 'Demo data notice' })).toBeHidden();
  await expect(
    page.getByRole('button', { name: 'Analytical Performance Specification' }).first(),
  ).toBeHidden();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const footer = page.getByText(
    /^Printed from http:\/\/127\.0\.0\.1:\d+\/analytes\/10 on \d{4}-\d{2}-\d{2}$/,
  );
  await expect(footer).toBeVisible();
  await page.emulateMedia({ media: 'screen' });
  await expect(footer).toBeHidden();
});

test('on a 375 px phone the measurand page shows CVI, CVG and the limits without sideways scrolling', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/analytes/10');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  const meta = page.locator('[data-testid^="meta-row-"]').first();
  for (const label of ['median CV estimate', 'lower CI limit', 'higher CI limit']) {
    const cell = meta.locator(`td[data-label="${label}"]`);
    await cell.scrollIntoViewIfNeeded();
    const box = (await cell.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${label} past the right edge`).toBeLessThanOrEqual(376);
    await expect(cell).toHaveText(/\d|NA/);
  }
  const firstDataset = page.locator('tr[data-used]').first();
  for (const label of ['Estimate of CVI', 'Estimate of CVG']) {
    const cell = firstDataset.locator(`td[data-label="${label}"]`);
    await cell.scrollIntoViewIfNeeded();
    const box = (await cell.boundingBox())!;
    expect(box.x + box.width, `${label} past the right edge`).toBeLessThanOrEqual(376);
  }
});
