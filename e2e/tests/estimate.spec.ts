import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, signIn, test } from './helpers';

const SHOTS = process.env.E2E_SHOTS_DIR;

/** With E2E_SHOTS_DIR set: the page at a desktop and a phone width, to look at. */
async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1366, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The template as a visitor downloads it from the page. */
async function template(page: Page): Promise<Buffer> {
  const res = await page.request.get('/api/v1/estimations/template.csv');
  expect(res.ok()).toBe(true);
  return Buffer.from(await res.body());
}

async function estimate(page: Page) {
  await page.goto('/estimate');
  await expect(
    page.getByRole('heading', { name: 'Estimate biological variation from raw results' }),
  ).toBeVisible();
  await page.getByLabel(/Results file/).setInputFiles({
    name: 'template.csv',
    mimeType: 'text/csv',
    buffer: await template(page),
  });
  // The CSV's header is read in the browser: the columns can be mapped from it.
  await expect(
    page.getByLabel('Subject', { exact: true }).locator('option', { hasText: 'subject' }),
  ).toHaveCount(1);
  await page.getByRole('button', { name: 'Estimate', exact: true }).click();
  // The first estimation starts the pool's thread: slow on a loaded machine.
  await expect(page.getByRole('heading', { name: 'Report: template.csv' })).toBeVisible({ timeout: 45_000 });
}

async function pickFirst(page: Page, label: string) {
  const select = page.getByLabel(label, { exact: true });
  await expect(select.locator('option').nth(1)).toBeAttached();
  await select.selectOption(await select.locator('option').nth(1).getAttribute('value'));
}

test('a visitor uploads the template and reads the report; no draft button without a curator', async ({
  page,
}) => {
  await page.goto('/calculators/aps');
  await page.getByRole('button', { name: 'Calculators' }).click();
  await page.getByRole('link', { name: 'Estimate BV from raw results' }).click();
  await expect(page).toHaveURL(/\/estimate$/);
  await expectNoAxeViolations(page);
  await estimate(page);
  const pipeline = page.getByRole('table', { name: /Each step in order/ });
  // header, at least one row per outlier step, steady state, two normality and two homogeneity rows
  expect(await pipeline.getByRole('row').count()).toBeGreaterThanOrEqual(1 + 3 + 5);
  await expect(pipeline).toContainText("Cochran's C, replicate variances");
  await expect(pipeline).toContainText('Steady state');
  await expect(page.getByRole('table', { name: /All subjects/ })).toContainText('Classic nested ANOVA');
  await expect(page.getByText('Missing values: 1 (left out, never imputed): row 61 (S04/6/2)')).toBeVisible();
  await expect(page.getByRole('img', { name: /Subject S01/ })).toBeVisible();
  await expect(page.getByRole('table', { name: /Group F/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create a draft dataset' })).toHaveCount(0);
  // One minus sign for the RCV down, and every interval with one decimal at both ends (issue 42.8).
  await expect(page.getByTestId('report-rcv')).toHaveText(/^\+\d+\.\d % \/ −\d+\.\d %$/);
  await expect(page.getByText('−-')).toHaveCount(0);
  const intervals = (await page.getByRole('table', { name: /All subjects/ }).textContent())!.match(
    /\(([^()]*–[^()]*)\)/g,
  )!;
  expect(intervals.length).toBeGreaterThan(0);
  for (const i of intervals) expect(i).toMatch(/^\(\d+\.\d – \d+\.\d\)$/);
  // On a phone the estimates and the ANOVA are one card per row: every number inside the screen.
  await page.setViewportSize({ width: 375, height: 800 });
  for (const table of [
    page.getByTestId('estimation-anova'),
    page.getByRole('table', { name: /All subjects/ }),
  ]) {
    for (const cell of await table.locator('tbody td').all()) {
      await expect(cell).toBeVisible();
      const box = (await cell.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
    }
  }
  await expect(page.getByTestId('estimation-anova').locator('td[data-label="MS"]')).toHaveCount(3);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.setViewportSize({ width: 1280, height: 900 });
  const json = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download JSON' }).click();
  expect((await json).suggestedFilename()).toBe('template-report.json');
  const xlsx = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download xlsx' }).click();
  expect((await xlsx).suggestedFilename()).toBe('template-report.xlsx');
  await expectNoAxeViolations(page);
  await shots(page, 'estimate-report');
});

test('a curator turns the report into a pre-filled draft dataset; the form opened directly keeps its defaults', async ({
  page,
}) => {
  await signIn(page);
  await estimate(page);
  const cvi = await page
    .getByRole('table', { name: /All subjects/ })
    .getByRole('row')
    .nth(1)
    .textContent();
  expect(cvi).toBeTruthy();
  await page.getByRole('button', { name: 'Create a draft dataset' }).click();
  await expect(page).toHaveURL(/\/bv_specifications\/new$/);
  await expect(page.getByText('Pre-filled from your estimation report')).toBeVisible();
  await expect(page.getByLabel('Number of Subjects', { exact: true })).toHaveValue('12');
  // The sampling the template's dates show, the sex from its group column and the method.
  await expect(page.getByLabel('Samples Per', { exact: true })).toHaveValue('1');
  await expect(page.getByLabel('Interval Units', { exact: true })).toHaveValue('Week');
  await expect(page.getByLabel('Study Duration', { exact: true })).toHaveValue('7');
  await expect(page.getByLabel('Sampling Start Time', { exact: true })).toHaveValue('07:30');
  await expect(page.getByLabel('Sampling End Time', { exact: true })).toHaveValue('09:15');
  await expect(page.getByLabel('Weekly Samplings', { exact: true })).toBeChecked();
  await expect(page.getByLabel('Number of Males', { exact: true })).toHaveValue('6');
  await expect(page.getByLabel('Sex for Meta-Analysis', { exact: true })).toHaveValue('Mixed');
  await expect(page.getByLabel('Comment', { exact: true })).toHaveValue(
    /^Estimated in bvdb from the raw results/,
  );
  await expect(page.getByLabel('Estimate of CVI (%)')).not.toHaveValue('');
  await expect(page.getByLabel('Estimate of CVG (%)')).not.toHaveValue('');
  await expect(page.getByLabel('QI8 Outlier')).toHaveValue('A');
  await expect(page.getByLabel('QI11 Statistical Method')).toHaveValue('A');
  await expect(page.getByLabel('Scoring Comment')).toHaveValue(/QI7 Steady State \([ABC]\): /);
  // What the estimator did not assess starts empty and must be chosen (issue 42.4); its grades are drafts.
  const unassessed = [
    'QI1 Scale',
    'QI2 Subjects',
    'QI3 Samples',
    'QI4 Measurand',
    'QI5 Pre-Analytical',
    'QI14 Concentrations',
    'State of Well Being',
    'Ethnicity',
  ];
  for (const label of unassessed) await expect(page.getByLabel(label, { exact: true })).toHaveValue('');
  await expect(page.getByLabel('QI8 Outlier', { exact: true })).toHaveAccessibleDescription(
    'Draft from the estimation report: check it.',
  );
  await expect(page.getByLabel('QI1 Scale', { exact: true })).toHaveAccessibleDescription(
    'Not assessed by the estimator: choose one.',
  );
  await pickFirst(page, 'Measurand');
  await page.getByLabel('Unique Identifier').fill(`DRAFT-${Date.now()}`);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Please correct the fields marked in red.')).toBeVisible();
  await expect(page.getByText('Not assessed by the estimator: choose one before saving.')).toHaveCount(
    unassessed.length,
  );
  await expect(page.getByLabel('QI1 Scale', { exact: true })).toHaveClass(/is-invalid/);
  await expect(page.getByText('Form submitted successfully!')).toHaveCount(0);
  await expectNoAxeViolations(page);
  await shots(page, 'estimate-draft');
  // Opened directly (a new history entry, no router state): the spec's defaults.
  await page.goto('/');
  await page.goto('/bv_specifications/new');
  await expect(page.getByText('Pre-filled from your estimation report')).toHaveCount(0);
  await expect(page.getByLabel('Estimate of CVI (%)')).toHaveValue('');
  await expect(page.getByLabel('QI8 Outlier')).toHaveValue('A');
  await expect(page.getByLabel('Scoring Comment')).toHaveValue('');
  await expect(page.getByLabel('Samples Per', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Weekly Samplings', { exact: true })).not.toBeChecked();
});

/** A small study of four subjects whose means lie far apart: Reed's criterion takes two (issue 42.8). */
function smallStudy(): string {
  const lines = ['subject,sample,replicate,value'];
  const means: Record<string, number> = { L: 5, M1: 50, M2: 55, H: 150 };
  const samples = [0, 0.5, -0.3];
  const replicates = [0.1, -0.1];
  for (const [subject, mean] of Object.entries(means))
    samples.forEach((ds, i) =>
      replicates.forEach((dr, j) =>
        lines.push(`${subject},${i + 1},${j + 1},${(mean + ds + dr).toFixed(2)}`),
      ),
    );
  return `${lines.join('\n')}\n`;
}

test("a step that removes more than a fifth of the subjects says so beside it; Reed's criterion looks at the low end first (issue 42.8)", async ({
  page,
}) => {
  await page.goto('/estimate');
  await page.getByLabel(/Results file/).setInputFiles({
    name: 'small.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(smallStudy()),
  });
  await page.getByRole('button', { name: 'Estimate', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Report: small.csv' })).toBeVisible({ timeout: 45_000 });
  const pipeline = page.getByRole('table', { name: /Each step in order/ });
  const reed = pipeline.getByRole('row').filter({ hasText: "Reed's criterion" });
  // The high mean (150) first, as the low gap (45 of 145) is under a third; then the low (5), low end first.
  await expect(reed).toHaveCount(2);
  await expect(reed.nth(0)).toContainText('Excluded subject H');
  await expect(reed.nth(1)).toContainText('Excluded subject L');
  await expect(reed.nth(1).getByTestId('step-warning')).toHaveText(
    'This step removed 2 of the 4 subjects it was given, more than a fifth: check that they are outliers and not the spread of the study.',
  );
  // Per-subject plots (issue 42.7): the excluded subjects apart, labelled; the kept ones on their own scale.
  const kept = page.getByTestId('subject-plots-kept');
  const apart = page.getByTestId('subject-plots-excluded');
  await expect(apart.getByRole('heading', { name: 'Excluded subjects (2)' })).toBeVisible();
  await expect(apart.getByTestId('subject-panel-H')).toContainText(
    "All results excluded: subject-mean outlier (Reed's criterion).",
  );
  await expect(kept.getByTestId('subject-panel-H')).toHaveCount(0);
  // M1 and M2 (means 50 and 55) set the kept scale, not H's 150.
  const top = Number(await kept.getByTestId('subject-panel-M2').getByTestId('y-max').textContent());
  expect(top).toBeGreaterThan(55);
  expect(top).toBeLessThan(60);
  await expect(page.getByText(/hover or focus a point/)).toHaveCount(0);
  await expectNoAxeViolations(page);
  await shots(page, 'estimate-small-study');
});

test('a tab-separated .txt with its own header names and decimal commas, as a study is published; messages name the page controls (issue 42.6)', async ({
  page,
}) => {
  const csv = (await template(page)).toString('utf8');
  const txt = csv
    .replace(/^subject,sample,replicate,value,group,date/, 'pat,time.point,rep,meas,sex,date')
    .replace(/(\d)\.(\d)/g, '$1#$2')
    .replace(/,/g, '\t')
    .replace(/#/g, ',');
  await page.goto('/estimate');
  await page.getByLabel(/Results file/).setInputFiles({
    name: 'example-study.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from(txt),
  });
  // The page reads the header from the content: the tab-separated names are offered.
  await page.getByLabel('Subject', { exact: true }).selectOption('pat');
  await page.getByLabel('Sample (time point)', { exact: true }).selectOption('time.point');
  await page.getByLabel('Replicate', { exact: true }).selectOption('rep');
  await page.getByLabel('Value', { exact: true }).selectOption('meas');
  await page.getByRole('button', { name: 'Estimate', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Report: example-study.txt' })).toBeVisible({
    timeout: 45_000,
  });
  await expect(
    page.getByText(/Decimal commas read as decimal points in \d+ values \(e\.g\. "5,1" as 5\.1\)/),
  ).toBeVisible();
  await expectNoAxeViolations(page);

  // A file without a value column: the message names the page's "Value" list, not an API parameter.
  await page.getByLabel(/Results file/).setInputFiles({
    name: 'no-value.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('pat\ttime.point\nA\t1\nA\t2\n'),
  });
  await page.getByRole('button', { name: 'Estimate', exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: /No .*value column/ });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('“Value” list');
  await expect(alert).not.toContainText('_column');
});
