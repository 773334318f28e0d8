import { apiJson, expect, expectNoAxeViolations, openInApp, test, waitForApp } from './helpers';

test('home: counters, the three cards, the navigation, the notice, and no WCAG 2.1 AA violations', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await waitForApp(page, await page.goto('/'));
  const counters = await apiJson<{ meta_data: Record<string, number> }>(page, '/api/meta');
  await expect(page.getByTestId('total-metas')).toHaveText(String(counters.meta_data.total_metas));
  await expect(page.getByTestId('total-datasets')).toHaveText(
    String(counters.meta_data.total_bv_specifications),
  );
  await expect(page.getByTestId('total-references')).toHaveText(String(counters.meta_data.total_references));
  for (const title of ['Meta-analysis list', 'All BV estimates', 'Measurands']) {
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
  }
  // The home page leads to the laboratory's tools (issue 42.9).
  const tools = page.getByTestId('home-tools');
  for (const [name, href] of <[string, string][]>[
    ['The estimator', '/estimate'],
    ['The specifications table', '/applications'],
    ['The test menu', '/applications/menu'],
    ['The releases', '/releases'],
  ])
    await expect(tools.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
  await expect(page.getByText(/copyright of the European Federation/)).toBeVisible();
  const demoNote = page.getByRole('note').filter({ hasText: 'Demo data' });
  await expect(demoNote).toContainText('not official BIVAC assessments. Not for clinical use.');
  await page.getByRole('button', { name: 'BV Data' }).click();
  for (const [name, href] of <[string, string][]>[
    ['By Reference', '/references'],
    ['By Measurands', '/bv_specifications/measurand'],
    ['List of Matricies', '/matrices'],
    ['List of BV estimates', '/meta_calculations'],
    ['All BV Data', '/bv_specifications'],
    ['BV and performance specifications', '/applications'],
    ['Releases', '/releases'],
    ['Your test menu', '/applications/menu'],
  ]) {
    await expect(page.getByRole('navigation').getByRole('link', { name, exact: true })).toHaveAttribute(
      'href',
      href,
    );
  }
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Calculators' }).click();
  await expect(
    page.getByRole('navigation').getByRole('link', { name: 'Estimate BV from raw results', exact: true }),
  ).toHaveAttribute('href', '/estimate');
  await expect(page.getByRole('button', { name: 'Administration' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/users/sign_in');
  await page.keyboard.press('Escape');
  await expectNoAxeViolations(page);
  await context.close();
});

test('home: the counters failure shows the error text', async ({ page }) => {
  await page.route('**/api/meta', (r) =>
    r.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }),
  );
  await openInApp(page, '/');
  await expect(page.getByRole('alert')).toContainText('Error: boom');
});

test('deep links load the app, unknown API paths answer JSON', async ({ page }) => {
  await page.goto('/references/1');
  await expect(page.getByRole('heading', { name: 'Reference', exact: true })).toBeVisible();
  const res = await page.request.get('/api/nothing-here');
  expect(res.status()).toBe(404);
  expect(await res.json()).toMatchObject({ statusCode: 404 });
});

test('works at 375 px wide', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
  const page = await context.newPage();
  await waitForApp(page, await page.goto('/'));
  await expect(page.getByTestId('total-datasets')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  await page.getByRole('button', { name: 'Toggle navigation' }).click();
  await expect(page.getByRole('button', { name: 'BV Data' })).toBeVisible();
  await context.close();
});

test('the demo data notice can be hidden, and stays hidden while the tab is open', async ({ page }) => {
  await page.goto('/');
  const demoNote = page.getByRole('note').filter({ hasText: 'Demo data' });
  await expect(demoNote).toBeVisible();
  await page.getByRole('button', { name: 'Hide the demo data notice' }).click();
  await expect(demoNote).toHaveCount(0);
  await page.goto('/matrices');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(demoNote).toHaveCount(0);
});

test('a visitor subscribes to the mailing list from the home page', async ({ page }) => {
  await page.goto('/');
  // The form's code comes when the reader scrolls near it.
  await page.locator('footer').scrollIntoViewIfNeeded();
  const email = page.getByRole('textbox', { name: 'Email address' });
  await email.fill('not an address');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByText('Email address must be a valid e-mail address')).toBeVisible();
  await email.fill('visitor@example.org');
  await page.getByRole('textbox', { name: 'Name' }).fill('A Visitor');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Thank you' })).toHaveText(
    'Thank you: visitor@example.org is subscribed.',
  );
  await expect(email).toHaveValue('');
  await expectNoAxeViolations(page);
});
