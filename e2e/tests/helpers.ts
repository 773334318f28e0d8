import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page, type Response } from '@playwright/test';

export { expect };

/**
 * Waits until the app runs the page (`data-app-ready`, app/layout.tsx). A public page arrives
 * rendered by the server and shows before its code runs; a click in that moment does nothing yet.
 */
export async function waitForApp(page: Page, response: Response | null) {
  if (response && !(response.headers()['content-type'] ?? '').startsWith('text/html')) return;
  if (page.url() === 'about:blank') return; // no app to wait for
  await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
}

/** Playwright's `test` with a page whose goto and reload return once the app runs the page. */
export const test = base.extend({
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    page.goto = async (...args) => {
      const response = await goto(...args);
      await waitForApp(page, response);
      return response;
    };
    page.reload = async (...args) => {
      const response = await reload(...args);
      await waitForApp(page, response);
      return response;
    };
    await use(page);
  },
});

/** The administrator the e2e server is started with (playwright.config.ts). */
export const E2E_ADMIN = { email: 'admin@example.org', password: 'e2e-password-123' };

/** Signs in as the e2e administrator and waits for the Administration menu. */
export async function signIn(page: Page) {
  await page.goto('/users/sign_in');
  await page.getByLabel('Email').fill(E2E_ADMIN.email);
  await page.getByLabel('Password').fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Administration' })).toBeVisible();
}

/** WCAG 2.1 AA scan of the page as it is now; any violation fails with its rule and targets. */
export async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(summary).toEqual([]);
}

export async function apiJson<T>(page: Page, url: string): Promise<T> {
  const res = await page.request.get(url);
  expect(res.ok()).toBe(true);
  return (await res.json()) as T;
}

/**
 * Opens `path` the way a click inside the app does: the browser fetches the page's data itself.
 * A first visit to a public page comes rendered with its data in the HTML, so the states a failed
 * read shows (error texts) are met after in-app navigation; this starts from a page the browser
 * renders (the sign-in page) and moves as back/forward would.
 */
export async function openInApp(page: Page, path: string) {
  await page.goto('/users/sign_in');
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect(page).toHaveURL(path);
}
