import type { Page } from '@playwright/test';
import { E2E_ADMIN, expect, expectNoAxeViolations, test } from './helpers';

const NEW_PASSWORD = 'a-new-password-456';

async function signIn(page: Page, password: string) {
  await page.goto('/users/sign_in');
  await page.getByLabel('Email').fill(E2E_ADMIN.email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

async function changePassword(page: Page, current: string, next: string, confirmation = next) {
  await page.getByLabel('Current password').fill(current);
  await page.getByLabel('New password (8 to 128 characters)').fill(next);
  await page.getByLabel('Confirm new password').fill(confirmation);
  await page.getByRole('button', { name: 'Change Password' }).click();
}

test('change the password from the account menu, sign out, sign in with the new one', async ({ page }) => {
  await signIn(page, E2E_ADMIN.password);
  await expect(page.getByRole('button', { name: 'Administration' })).toBeVisible();
  await page.getByRole('button', { name: /Administrator|admin@/ }).click();
  await page.getByRole('link', { name: 'Change Password' }).click();
  await expect(page).toHaveURL(/\/users\/edit$/);
  await expectNoAxeViolations(page);

  await changePassword(page, 'not-the-password', NEW_PASSWORD);
  await expect(page.getByRole('alert')).toContainText('Current password is invalid');
  await changePassword(page, E2E_ADMIN.password, NEW_PASSWORD, 'something-else-1');
  await expect(page.getByRole('alert')).toBeVisible();
  await changePassword(page, E2E_ADMIN.password, NEW_PASSWORD);
  await expect(page.getByRole('alert')).toHaveText('Your password has been changed.');

  await page.getByRole('button', { name: /Administrator|admin@/ }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();

  await signIn(page, E2E_ADMIN.password);
  await expect(page.getByText('Invalid email or password.')).toBeVisible();
  await signIn(page, NEW_PASSWORD);
  await expect(page.getByRole('button', { name: 'Administration' })).toBeVisible();

  // Put the password back: the other journeys sign in with it.
  await page.goto('/users/edit');
  await changePassword(page, NEW_PASSWORD, E2E_ADMIN.password);
  await expect(page.getByRole('alert')).toHaveText('Your password has been changed.');
});

test('signed out, Change Password says Not Authorised', async ({ page }) => {
  await page.goto('/users/edit');
  await expect(page.getByText('Not Authorised')).toBeVisible();
});
