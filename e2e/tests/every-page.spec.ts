import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { apiJson, expect, expectNoAxeViolations, signIn, test } from './helpers';

// Issue 18: every page, signed out and in, at a desk (1366 px) and on a phone (375 px): WCAG 2.1
// AA by axe, exactly one h1, no hydration error, and (on a phone) the numbers on screen.

/** Every path of the route table (packages/web/src/app/route-table.ts), as the app declares it. */
function declaredPaths(): string[] {
  const web = path.resolve(import.meta.dirname, '../../packages/web/src');
  // The record pages' patterns live in lib/paths.ts (decision 079); the table names them.
  const patterns = new Map(
    [...fs.readFileSync(path.join(web, 'lib/paths.ts'), 'utf8').matchAll(/^\s+(\w+): '(\/[^']*)',$/gm)].map(
      (m) => [m[1]!, m[2]!] as const,
    ),
  );
  return [
    ...fs
      .readFileSync(path.join(web, 'app/route-table.ts'), 'utf8')
      .matchAll(/path: (?:'([^']+)'|recordPage\.(\w+))/g),
  ].map((m) => m[1] ?? patterns.get(m[2]!) ?? `unknown record page ${m[2]}`);
}

interface Ids {
  analyte: number;
  dataset: number;
  reference: number;
  /** A kept test menu's link id (decision 064). */
  menu: string;
}

/** Keeps a two-test menu in a link, as a visitor's "Keep this menu" does (with the visitor's CSRF token). */
async function keptMenu(page: Page): Promise<string> {
  const { csrf_token } = await apiJson<{ csrf_token: string }>(page, '/api/session');
  const res = await page.request.post('/api/v1/menus', {
    headers: { 'x-csrf-token': csrf_token },
    data: {
      tests: [
        { name: 'Sodium', cva: 0.5, bias: 0.2 },
        { name: 'Creatinine', cva: 2, bias: 1 },
      ],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function demoIds(page: Page): Promise<Ids> {
  const suggestions = await apiJson<{ id: number; display_name: string }[]>(
    page,
    '/autocomplete?query=Creatinine',
  );
  const analyte = suggestions.find((s) => s.display_name === 'Creatinine')!.id;
  const datasets = await apiJson<{ id: number; reference_id: number }[]>(
    page,
    `/api/analyte_specifications/${analyte}`,
  );
  return {
    analyte,
    dataset: datasets[0]!.id,
    reference: datasets[0]!.reference_id,
    menu: await keptMenu(page),
  };
}

/** Route pattern → a URL to visit. */
function urlOf(pattern: string, ids: Ids): string {
  if (pattern === '*') return '/no-such-page';
  if (pattern === '/applications/menu/:id') return `/applications/menu/${ids.menu}`;
  const id = pattern.startsWith('/analytes/')
    ? ids.analyte
    : pattern.startsWith('/references/')
      ? ids.reference
      : ids.dataset;
  return pattern.replace(':id', String(id));
}

/** Pages anyone may read; the rest are for signed-in staff (signed out they say "Not Authorised"). */
const PUBLIC = new Set([
  '/',
  '/search',
  '/matrices',
  '/references',
  '/references/:id',
  '/bv_specifications',
  '/bv_specifications/measurand',
  '/bv_specifications/:id',
  '/analytes/:id',
  '/meta_calculations',
  '/calculators/aps',
  '/calculators/rcv',
  '/calculators/rcv-application',
  '/calculators/individuality',
  '/applications',
  '/releases',
  '/applications/menu',
  '/applications/menu/:id',
  '/estimate',
  '/indirect',
  '/about',
  '/eflm-wg',
  '/publication_structure',
  '/background',
  '/disclaimer',
  '/users/sign_in',
  '*',
]);

const withQuery = (url: string) => (url === '/search' ? '/search?query=creat' : url);

/** Errors React reports when the server's markup and the first client render differ, and page errors. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && /#41[89]|#42[35]|hydrat/i.test(m.text())) errors.push(m.text());
  });
  return errors;
}

async function expectOneH1(page: Page, url: string) {
  await expect(page.getByRole('main')).toBeVisible();
  await expect(page.getByText('Loading...')).toHaveCount(0);
  await expect(page.locator('h1'), `${url}: exactly one h1`).toHaveCount(1);
}

test('the lists below cover every route of the app', () => {
  const declared = declaredPaths();
  expect(declared.length).toBeGreaterThan(30);
  for (const p of declared) expect(p.startsWith('/') || p === '*', p).toBe(true);
  // Every public page of the list exists in the route table (a renamed route fails here).
  for (const p of PUBLIC) expect(declared, `${p} in the route table`).toContain(p);
});

/** The public pages in the route table's order, in runs of this many a test (each well inside its time). */
const PUBLIC_PAGES = declaredPaths().filter((p) => PUBLIC.has(p));
const PAGES_A_TEST = 5;

// One test per run of pages and width, not one per width: at 1366 px all of them in one test came
// near its 240 s limit on a loaded machine (decision 070). Every public page is still visited at both.
for (const width of [1366, 375]) {
  for (let from = 0; from < PUBLIC_PAGES.length; from += PAGES_A_TEST) {
    const patterns = PUBLIC_PAGES.slice(from, from + PAGES_A_TEST);
    test(`public pages ${from + 1}–${from + patterns.length} of ${PUBLIC_PAGES.length} at ${width} px: no axe violation, one h1, no hydration error`, async ({
      page,
    }) => {
      test.setTimeout(120_000);
      const ids = await demoIds(page);
      await page.setViewportSize({ width, height: 900 });
      const errors = watchErrors(page);
      for (const pattern of patterns) {
        const url = withQuery(urlOf(pattern, ids));
        await page.goto(url);
        await expectOneH1(page, url);
        await test.step(`axe ${url} at ${width} px`, () => expectNoAxeViolations(page));
        if (width === 375) await expectNothingScrollsSideways(page, url);
      }
      expect(errors, errors.join('\n')).toEqual([]);
    });
  }
}

/** On a phone: whatever still scrolls sideways is reachable by keyboard and named; the page is no wider than the screen. */
async function expectNothingScrollsSideways(page: Page, url: string) {
  const unnamed = await page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('main *'))
      .filter((el) => {
        const { overflowX } = getComputedStyle(el);
        return (overflowX === 'auto' || overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1;
      })
      .filter(
        (el) => el.tabIndex < 0 || !(el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')),
      )
      .map((el) => el.outerHTML.slice(0, 120)),
  );
  expect(unnamed, `${url}: a region scrolls sideways without focus or name`).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${url} is ${overflow}px wider than the screen`).toBeLessThanOrEqual(1);
}

test('the runs of public pages visit every public page once', () => {
  const visited: string[] = [];
  for (let from = 0; from < PUBLIC_PAGES.length; from += PAGES_A_TEST)
    visited.push(...PUBLIC_PAGES.slice(from, from + PAGES_A_TEST));
  expect(new Set(visited)).toEqual(PUBLIC);
  expect(visited).toHaveLength(PUBLIC.size);
});

test('signed out, every page of the route table has one h1 and hydrates without error', async ({ page }) => {
  test.setTimeout(180_000);
  const ids = await demoIds(page);
  const errors = watchErrors(page);
  for (const pattern of declaredPaths()) {
    const url = withQuery(urlOf(pattern, ids));
    await page.goto(url);
    await expectOneH1(page, url);
    if (!PUBLIC.has(pattern)) {
      await expect(page.getByRole('heading', { level: 1, name: 'Not Authorised' })).toBeVisible();
      // No editing offered to a visitor anywhere on it.
      await expect(page.getByRole('main').getByRole('link', { name: /^Edit/ })).toHaveCount(0);
    }
  }
  expect(errors, errors.join('\n')).toEqual([]);
});

test('signed in, every page of the route table has one h1', async ({ page }) => {
  test.setTimeout(180_000);
  const ids = await demoIds(page);
  await signIn(page);
  const errors = watchErrors(page);
  for (const pattern of declaredPaths()) {
    const url = withQuery(urlOf(pattern, ids));
    await page.goto(url);
    await expectOneH1(page, url);
  }
  expect(errors, errors.join('\n')).toEqual([]);
});

test('signed out, no page offers an Edit button or link', async ({ page }) => {
  const ids = await demoIds(page);
  for (const url of [
    `/analytes/${ids.analyte}`,
    `/bv_specifications/${ids.dataset}`,
    `/references/${ids.reference}`,
    '/bv_specifications',
    '/references',
  ]) {
    await page.goto(url);
    await expect(page.getByRole('main').getByRole('link', { name: /^Edit\b/ }), url).toHaveCount(0);
    await expect(page.getByRole('main').getByRole('button', { name: /^Edit\b/ }), url).toHaveCount(0);
  }
  await page.goto('/bv_specifications');
  await page.getByRole('tab', { name: 'Specifications table' }).click();
  await expect(page.locator('#specs_table tbody tr').first()).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: /^Edit\b/ })).toHaveCount(0);
  await expect(page.getByRole('main').getByRole('button', { name: /^Edit\b/ })).toHaveCount(0);
});

/** The element's box lies within the 375 px screen, horizontally. */
async function expectOnScreen(page: Page, selector: string, what: string) {
  const el = page.locator(selector).first();
  await el.scrollIntoViewIfNeeded();
  await expect(el, what).toBeVisible();
  const box = (await el.boundingBox())!;
  expect(box.x, `${what} starts left of the screen`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what} ends past the right edge`).toBeLessThanOrEqual(376);
}

test.describe('on a 375 px phone the numbers are on screen without sideways scrolling', () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test('the dataset page: CVI and CVG with their limits', async ({ page }) => {
    const ids = await demoIds(page);
    await page.goto(`/bv_specifications/${ids.dataset}`);
    await expectOnScreen(page, '[data-testid="summary-cvi"]', 'CVI');
    await expectOnScreen(page, '[data-testid="summary-cvg"]', 'CVG');
    await expect(page.getByTestId('summary-cvi')).toHaveText(/\d+\.\d+ \(\d+\.\d+ – \d+\.\d+\)/);
    await expect(page.getByTestId('summary-cvg')).toHaveText(/\d|N\/A/);
  });

  test('the measurand page: the estimates, their limits, and each dataset’s CVI and CVG', async ({
    page,
  }) => {
    const ids = await demoIds(page);
    await page.goto(`/analytes/${ids.analyte}`);
    for (const label of ['median CV estimate', 'lower CI limit', 'higher CI limit'])
      await expectOnScreen(page, `[data-testid^="meta-row-"] td[data-label="${label}"]`, label);
    for (const label of ['Estimate of CVI', 'Estimate of CVG'])
      await expectOnScreen(page, `tr[data-used] td[data-label="${label}"]`, label);
  });

  test('the list of BV estimates: median, low and high', async ({ page }) => {
    await page.goto('/meta_calculations');
    for (const label of ['Median', 'Low', 'High']) {
      await expectOnScreen(page, `td[data-label="${label}"]`, label);
      await expect(page.locator(`td[data-label="${label}"]`).first()).toHaveText(/\d/);
    }
  });

  test('By Measurand: a study’s CVI and CVG', async ({ page }) => {
    await page.goto('/bv_specifications/measurand');
    await page.locator('.accordion-button').first().click();
    await expectOnScreen(page, '.accordion-body p:visible', 'CVI and CVG');
    await expect(page.locator('.accordion-body p:visible').first()).toContainText(/CVI .*% · CVG .*%/);
  });

  test('All BV Data and the references: every column readable, nothing wider than the screen', async ({
    page,
  }) => {
    for (const url of ['/bv_specifications', '/references']) {
      await page.goto(url);
      await page.waitForLoadState('networkidle');
      await expect(page.locator('main tbody tr:visible').first()).toBeVisible();
      // The first visible row's cells, measured at one moment (the list may re-render as it loads).
      const rights = await page
        .locator('main tbody tr:visible')
        .first()
        .evaluate((tr) =>
          Array.from(tr.querySelectorAll('td'))
            .filter((td) => td.offsetParent !== null)
            .map((td) => td.getBoundingClientRect().right),
        );
      expect(rights.length).toBeGreaterThan(1);
      for (const right of rights)
        expect(right, `${url}: a cell past the right edge`).toBeLessThanOrEqual(376);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${url} is ${overflow}px wider than the screen`).toBeLessThanOrEqual(1);
    }
  });
});

test('printed, the measurand, dataset and list pages show no navigation, banner or buttons', async ({
  page,
}, testInfo) => {
  const ids = await demoIds(page);
  for (const url of [
    `/analytes/${ids.analyte}`,
    `/bv_specifications/${ids.dataset}`,
    `/references/${ids.reference}`,
    '/meta_calculations',
    '/bv_specifications',
  ]) {
    await page.goto(url);
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('header')).toBeHidden();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await expect(page.getByRole('complementary', { name: 'Demo data notice' })).toBeHidden();
    // Not one button or button-looking link is printed; a sortable column's name (its button)
    // prints as a plain heading, without its arrows.
    const visibleButtons = await page
      .locator('button, .btn, [role="button"]')
      .evaluateAll(
        (els) =>
          els.filter((e) => (e as HTMLElement).offsetParent !== null && !e.matches('thead th > button'))
            .length,
      );
    expect(visibleButtons, `${url}: buttons in print`).toBe(0);
    const blankHeadings = await page
      .locator('thead th')
      .evaluateAll((ths) => ths.filter((th) => (th as HTMLElement).innerText.trim() === '').length);
    expect(blankHeadings, `${url}: column headings missing in print`).toBe(0);
    const arrows = await page
      .locator('thead th')
      .evaluateAll((ths) => ths.filter((th) => /[▲▼↕]/.test((th as HTMLElement).innerText)).length);
    expect(arrows, `${url}: sort arrows in print`).toBe(0);
    await expect(page.getByText(/^Printed from http:\/\/\S+ on \d{4}-\d{2}-\d{2}$/)).toBeVisible();
    const shot = await page.screenshot({ fullPage: true });
    await testInfo.attach(`print ${url}`, { body: shot, contentType: 'image/png' });
    await page.emulateMedia({ media: 'screen' });
  }
});
