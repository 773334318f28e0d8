import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The administrator the e2e server is started with (playwright.config.ts). */
export const E2E_ADMIN = { email: 'admin@example.org', password: 'e2e-password-123' };

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
