import { apiJson, expect, signIn, test, waitForApp } from './helpers';

/** Every public screen at a phone's width: nothing wider than the screen but the tables' own scroll. */
test('every public screen fits 375 px without sideways scrolling', async ({ browser, page }) => {
  const suggestions = await apiJson<{ id: number; display_name: string }[]>(
    page,
    '/autocomplete?query=Creatinine',
  );
  const analyteId = suggestions.find((s) => s.display_name === 'Creatinine')!.id;
  const datasets = await apiJson<{ id: number; reference_id: number }[]>(
    page,
    `/api/analyte_specifications/${analyteId}`,
  );
  const paths = [
    '/',
    '/references',
    `/references/${datasets[0]!.reference_id}`,
    '/bv_specifications',
    '/bv_specifications/measurand',
    `/bv_specifications/${datasets[0]!.id}`,
    `/analytes/${analyteId}`,
    '/matrices',
    '/meta_calculations',
    '/search?query=creat',
    '/calculators/aps',
    '/calculators/rcv',
    '/calculators/rcv-application',
    '/calculators/individuality',
    '/about',
    '/users/sign_in',
  ];
  const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
  const phone = await context.newPage();
  for (const path of paths) {
    await waitForApp(phone, await phone.goto(path));
    await expect(phone.getByRole('main')).toBeVisible();
    await expect(phone.getByText('Loading...')).toHaveCount(0);
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} is ${overflow}px wider than the screen`).toBeLessThanOrEqual(1);
  }
  await context.close();
});

test('a modal traps the focus and gives it back to the button that opened it', async ({ page }) => {
  const suggestions = await apiJson<{ id: number; display_name: string }[]>(
    page,
    '/autocomplete?query=Creatinine',
  );
  const analyteId = suggestions.find((s) => s.display_name === 'Creatinine')!.id;
  await page.goto(`/analytes/${analyteId}`);
  const opener = page.getByRole('button', { name: 'Analytical Performance Specification' });
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Analytical Performance Specification Calculation' });
  await expect(dialog).toBeVisible();
  // Tabbing many times never leaves the dialog.
  for (let i = 0; i < 15; i++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});

test('signed in, the navigation is one row from 1200 px, its search box whole', async ({ page }) => {
  await signIn(page);
  for (const width of [1200, 1280, 1366, 1440, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${overflow}px too wide at ${width}px`).toBeLessThanOrEqual(1);
    const navHeight = await page.locator('header .navbar').evaluate((n) => n.getBoundingClientRect().height);
    expect(navHeight, `navigation ${navHeight}px high at ${width}px`).toBeLessThan(70);
    // The placeholder fits its box: the search box is not cut short.
    const search = page.locator('header').getByPlaceholder('Search for analyte');
    const cut = await search.evaluate((i: HTMLInputElement) => i.scrollWidth > i.clientWidth);
    expect(cut, `search box truncated at ${width}px`).toBe(false);
    await page.getByRole('button', { name: 'More', exact: true }).click();
    await expect(page.getByRole('link', { name: 'How to Write a Paper on BV' })).toBeVisible();
    await page.keyboard.press('Escape');
  }
});
