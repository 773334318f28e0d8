import { apiJson, expect, expectNoAxeViolations, test } from './helpers';

const SHOTS = process.env.E2E_SHOTS_DIR;

interface KeptAnswer {
  menu: { population: { label: string; sentence: string } | null };
  sheet: {
    population?: { sentence: string };
    tests: { status: string; population?: { sentence: string } }[];
  };
}

/**
 * A kept menu keeps its population (issue 47.3, decision 101): a menu judged for a population on
 * the menu page is kept for it; its link opens the sheet judged for the same population, said above
 * the sheet and on every row, as the API answers it.
 */
test('a menu judged for a population is kept for it: its link opens judged for it, every row saying so; axe; 375 px', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.goto('/applications/menu');
  await page.getByLabel(/Menu file/).setInputFiles({
    name: 'menu.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('name,cva,bias\nSodium,0.5,0.2\nGlucose,2,1\nCholesterol (total),2,1\n'),
  });
  await page.getByRole('button', { name: 'Judge the menu' }).click();
  const rows = page.locator('.menu-sheet tbody tr[data-status="matched"]');
  await expect(rows).toHaveCount(3, { timeout: 45_000 });
  await page.getByRole('button', { name: 'Choose a population…' }).click();
  await page.getByLabel('Sex').selectOption('mixed');
  await expect(page.getByTestId('menu-population')).toContainText('Population: mixed', { timeout: 45_000 });
  await expect(page.getByText('Kept for the population mixed.')).toBeVisible();
  await page.getByRole('button', { name: 'Keep this menu' }).click();
  await expect(page.getByText(/^Kept for the population mixed\./)).toBeVisible();
  const link = await page.getByLabel('Link to this menu').inputValue();
  const id = link.split('/').at(-1)!;

  // Opened from its link: judged for the population, said above the sheet and on every row.
  await page.goto(link);
  await expect(page.getByTestId('kept-menu-population')).toContainText('Kept for a population: mixed.', {
    timeout: 30_000,
  });
  await expect(page.getByText(/^No change since/)).toBeVisible();
  const api = await apiJson<KeptAnswer>(page, `/api/v1/menus/${id}`);
  expect(api.menu.population?.label).toBe('mixed');
  await expect(page.getByTestId('menu-population')).toHaveText(`${api.sheet.population!.sentence}.`);
  const lines = page.locator('.menu-sheet tbody tr');
  await expect(lines).toHaveCount(api.sheet.tests.length);
  await expect(page.getByTestId('line-population')).toHaveCount(api.sheet.tests.length);
  for (const [i, t] of api.sheet.tests.entries()) {
    await expect(lines.nth(i).getByTestId('line-population')).toHaveText(t.population!.sentence);
  }
  await expectNoAxeViolations(page);
  if (SHOTS) {
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.screenshot({ path: `${SHOTS}/kept-menu-population-1366.png`, fullPage: true });
  }

  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByTestId('kept-menu-population')).toBeVisible();
  await expect(lines.first().getByTestId('line-population')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  await expectNoAxeViolations(page);
  if (SHOTS) {
    await page.screenshot({ path: `${SHOTS}/kept-menu-population-375.png`, fullPage: true });
    await page.screenshot({ path: `${SHOTS}/kept-menu-population-375-top.png` });
  }
});
