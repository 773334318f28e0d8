import { createHash } from 'node:crypto';
import { apiJson, expect, expectNoAxeViolations, signIn, test } from './helpers';

interface Release {
  version: string;
  notes: string;
  files: { name: string; bytes: number; sha256: string; url: string }[];
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

test('a curator publishes a release; the public page lists it; a download matches the manifest', async ({
  page,
  browser,
}) => {
  await signIn(page);
  await page.goto('/releases');
  await expect(page.getByRole('heading', { name: 'Releases', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Publish a release' }).click();
  const day = new Date().toISOString().slice(0, 10);
  // Built in the background; the page shows it when done.
  const heading = page.getByRole('heading', { name: new RegExp(`^Release ${day}(\\.\\d+)?$`) }).first();
  await expect(heading).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(/Notes for \d+ mailing-list members stored, not sent/).first()).toBeVisible();
  await expectNoAxeViolations(page);

  const { data } = await apiJson<{ data: Release[] }>(page, '/api/v1/releases');
  const release = data[0]!;
  const manifest = (await (await page.request.get(release.files.at(-1)!.url)).body()).toString('utf8');
  const csv = release.files.find((f) => f.name === 'bv_database.csv')!;
  const body = await (await page.request.get(csv.url)).body();
  expect(manifest).toContain(`${sha256(body)}  bv_database.csv\n`);
  expect(sha256(body)).toBe(csv.sha256);

  // A visitor, without scripts: the release is in the server-rendered page, with its downloads.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const anon = await context.newPage();
  await anon.goto('/releases');
  await expect(anon.getByRole('heading', { name: `Release ${release.version}` })).toBeVisible();
  await expect(anon.getByRole('link', { name: 'bv_database.xlsx' }).first()).toBeVisible();
  await expect(anon.getByRole('button', { name: 'Publish a release' })).toHaveCount(0);
  await context.close();
});

test('the releases page is readable on a phone and passes axe with the notes open', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/releases');
  await expect(page.getByRole('heading', { name: 'Releases', level: 1 })).toBeVisible();
  const notes = page.getByText('Release notes').first();
  if (await notes.isVisible()) await notes.click();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  expect(overflow).toBe(false);
  await expectNoAxeViolations(page);
});
