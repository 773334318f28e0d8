import { E2E_ADMIN, expect, test } from './helpers';

test('sign in, edit a built-in page in Markdown, see it, sign out', async ({ page }) => {
  await page.goto('/users/sign_in');
  await page.getByLabel('Email').fill(E2E_ADMIN.email);
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Invalid email or password.')).toBeVisible();
  await page.getByLabel('Password').fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Administration' })).toBeVisible();
  await page.goto('/background');
  await page.getByRole('button', { name: 'Edit page' }).click();
  await page.getByLabel('Text (Markdown)').fill('Updated **background** <script>window.__x = 1</script>');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('article strong')).toHaveText('background');
  expect(await page.evaluate(() => (window as unknown as { __x?: number }).__x)).toBeUndefined();
  await page.getByRole('button', { name: /Administrator|admin@/ }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Administration' })).toHaveCount(0);
});
