import { expect, test } from './helpers';

test('autocomplete by keyboard: arrows fill the text, Enter opens the measurand', async ({ page }) => {
  await page.goto('/');
  const box = page.getByRole('main').getByRole('combobox');
  await box.fill('creat');
  const options = page.getByRole('main').getByRole('option');
  await expect(options.first()).toBeVisible();
  const first = (await options.first().textContent())!;
  await box.press('ArrowDown');
  await expect(box).toHaveValue(first);
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/analytes\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(first);
});

test('autocomplete: a click selects and clears the list; empty and failure messages', async ({ page }) => {
  await page.goto('/');
  const main = page.getByRole('main');
  const box = main.getByRole('combobox');
  await box.fill('zzqqxx');
  await expect(main.getByText('No suggestions found. Please try a different query.')).toBeVisible();
  await page.route('**/autocomplete?**', (r) => r.abort());
  await box.fill('sodi');
  await expect(main.getByText('Failed to fetch suggestions. Please check your network.')).toBeVisible();
  await page.unroute('**/autocomplete?**');
  await box.fill('sodium');
  await main.getByRole('option', { name: 'Sodium' }).click();
  await expect(page).toHaveURL(/\/analytes\/\d+$/);
  await expect(main.getByRole('option')).toHaveCount(0);
});

test('the search form leads to the results; one result opens by itself; none says so', async ({ page }) => {
  await page.goto('/');
  const main = page.getByRole('main');
  await main.getByRole('combobox').fill('glucose');
  await main.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/search\?query=glucose/);
  await expect(page.getByRole('button', { name: 'Glucose' })).toHaveAttribute('aria-expanded', 'true');
  await page.goto('/search?query=nothing-like-this');
  await expect(page.getByText('No Results found for "nothing-like-this"')).toBeVisible();
});
