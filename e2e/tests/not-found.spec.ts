import { apiJson, expect, expectNoAxeViolations, test } from './helpers';

// Issue 28, point 8: a link checker or an uptime probe reads the status; a person reads the page.
test('an unknown path and a missing record answer 404 with the app\'s "Page not found"', async ({ page }) => {
  const missing = ['/no-such-page', '/analytes/999999', '/references/999999', '/bv_specifications/999999'];
  for (const url of missing) {
    const res = await page.goto(url);
    expect(res?.status(), url).toBe(404);
    expect(res?.headers()['content-type'], url).toMatch(/^text\/html/);
    await expect(page.getByRole('heading', { name: 'Page not found' }), url).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to the home page' }), url).toBeVisible();
  }
  await expectNoAxeViolations(page);

  // The pages of records that are there still answer 200 with their content.
  const { analytes } = await apiJson<{ analytes: { id: number; display_name: string }[] }>(
    page,
    '/api/analytes_with_bv_specifications',
  );
  const first = analytes[0]!;
  const res = await page.goto(`/analytes/${first.id}`);
  expect(res?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: first.display_name })).toBeVisible();
  await expect(page.getByText('Page not found')).toHaveCount(0);

  // The link home leaves the not-found page for a working one.
  await page.goto('/no-such-page');
  await page.getByRole('link', { name: 'Go to the home page' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Page not found')).toHaveCount(0);
});

// Decision 070: an appraisal no one has, or a kept menu's link that leads nowhere, is a 404 too (a
// link checker reads the status); the page still says what a person can do.
test('an unknown appraisal and an unknown kept-menu link answer 404', async ({ page }) => {
  const appraisal = await page.goto('/appraisals/999999');
  expect(appraisal?.status()).toBe(404);
  const menu = await page.goto('/applications/menu/no-such-link-aaaaaaaaaaaaaaaa');
  expect(menu?.status()).toBe(404);
  await expect(page.getByText('No kept menu has this link')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Upload the menu again' })).toBeVisible();
});
