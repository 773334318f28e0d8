import { apiJson, expect, expectNoAxeViolations, test } from './helpers';

interface Row {
  display_name: string;
  cvi: { median: number } | null;
  population?: { sentence: string; note: string | null };
}

/**
 * A population where a laboratory decides (issue 47.3, decision 098): chosen on the specifications
 * table, said above the table and on every row, in the URL (a link gives the same table), and the
 * same rows the API gives for it.
 */
test('the specifications table for a population: chosen, said on every row, linkable; axe; 375 px', async ({
  page,
}) => {
  await page.goto('/applications');
  const rows = page.locator('#applications tbody tr');
  await expect(rows.first()).toBeVisible();
  await page.getByRole('button', { name: 'Choose a population…' }).click();
  await page.getByLabel('Sex').selectOption('mixed');
  await expect(page).toHaveURL(/facet\.sex=mixed/);
  const api = await apiJson<{ data: Row[]; population: { sentence: string } }>(
    page,
    '/api/v1/applications?facet.sex=mixed',
  );
  await expect(page.getByTestId('applications-population')).toHaveText(`${api.population.sentence}.`);
  await expect(rows).toHaveCount(api.data.length);
  await expect(page.getByTestId('row-population')).toHaveCount(api.data.length);
  const first = api.data[0]!;
  await expect(rows.first().getByTestId('row-population')).toHaveText(first.population!.sentence);
  await expectNoAxeViolations(page);

  // The link gives the same table (rendered by the server with the population).
  await page.goto('/applications?facet.sex=mixed');
  await expect(page.getByTestId('applications-population')).toHaveText(`${api.population.sentence}.`);
  await expect(page.getByLabel('Sex')).toHaveValue('mixed');

  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByTestId('applications-population')).toBeVisible();
  await expect(rows.first().getByTestId('row-population')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  await expectNoAxeViolations(page);
});
