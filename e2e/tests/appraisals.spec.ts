import { QUALITY_ITEMS } from '@bvdb/domain';
import type { Browser, Page } from '@playwright/test';
import { expect, expectNoAxeViolations, signIn, test, waitForApp } from './helpers';

const PASSWORD = 'assessor-e2e-123';
const ASSESSORS = ['ann.assessor@example.org', 'ben.assessor@example.org', 'cat.assessor@example.org'];

interface Meta {
  id: number;
  var_type: string;
  median: number | null;
  number_used: number;
  datasets: { bv_specification_id: number; reference_id: number }[];
}

/** A browser of its own (its own cookies), signed in as one user. */
async function signedInBrowser(browser: Browser, email: string, password: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const response = await page.goto('/users/sign_in');
  await waitForApp(page, response);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('link', { name: 'My appraisals' })).toBeVisible();
  return page;
}

async function openMyAppraisal(page: Page, uniqueIdentifier: string) {
  const response = await page.goto('/appraisals');
  await waitForApp(page, response);
  await expect(page.getByRole('heading', { name: 'My appraisals' })).toBeVisible();
  await page.getByRole('link', { name: uniqueIdentifier }).click();
  await expect(page.getByRole('heading', { name: 'BIVAC appraisal' })).toBeVisible();
}

async function gradeAll(page: Page, grades: Record<string, string>) {
  for (const item of QUALITY_ITEMS) {
    await page.getByLabel(`Grade for QI${item.number} ${item.label}`).selectOption(grades[item.key] ?? 'A');
  }
}

test('two assessors disagree on one item, a third resolves it, and the estimate changes', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  // The administrator creates the three assessors on the Users page.
  await signIn(page);
  await page.goto('/users');
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  for (const email of ASSESSORS) {
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Role', { exact: true }).selectOption('assessor');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create user' }).click();
    await expect(page.getByText(`Created assessor ${email}`)).toBeVisible();
  }
  await expect(page.getByRole('row', { name: new RegExp(ASSESSORS[2]!) })).toContainText('Active');
  await expectNoAxeViolations(page);

  // A CVI estimate of several studies, and one dataset in it.
  const list = await (await page.request.get('/api/v1/metas?limit=100')).json();
  const candidates = (list.data as { analyte_id: number; var_type: string; number_used: number }[]).filter(
    (m) => m.var_type === ':cvi' && m.number_used >= 3,
  );
  expect(candidates.length).toBeGreaterThan(0);
  const analyteId = candidates[0]!.analyte_id;
  const metasOf = async () =>
    ((await (await page.request.get(`/api/v1/measurands/${analyteId}/metas`)).json()).metas as Meta[]).filter(
      (m) => m.var_type === ':cvi',
    );
  const before = (await metasOf()).find((m) => m.number_used >= 3)!;
  const datasetId = before.datasets[0]!.bv_specification_id;
  const dataset = (await (await page.request.get(`/api/bv_specifications/${datasetId}`)).json()).dataset as {
    unique_identifier: string;
  };
  const uid = dataset.unique_identifier;

  // The curator (here the administrator) sends it to appraisal and assigns A and B.
  await page.goto(`/bv_specifications/${datasetId}`);
  await page.getByRole('button', { name: 'Send to appraisal' }).click();
  await expect(page.getByText('Sent to appraisal.')).toBeVisible();
  await page.goto('/appraisals/board');
  await expect(page.getByRole('heading', { name: 'Appraisal board' })).toBeVisible();
  await page.getByLabel(`Assessor A of ${uid}`).selectOption({ label: `${ASSESSORS[0]} (assessor)` });
  await expect(page.getByText(`Assigned A of ${uid}`)).toBeVisible();
  await page.getByLabel(`Assessor B of ${uid}`).selectOption({ label: `${ASSESSORS[1]} (assessor)` });
  await expect(page.getByRole('region', { name: /Waiting for A\/B/ })).toContainText(uid);
  await expectNoAxeViolations(page);

  // Two assessors, each in a browser of their own, appraise blind and disagree on QI3 Samples.
  const ann = await signedInBrowser(browser, ASSESSORS[0]!, PASSWORD);
  const ben = await signedInBrowser(browser, ASSESSORS[1]!, PASSWORD);
  await openMyAppraisal(ann, uid);
  await gradeAll(ann, {});
  await ann.getByLabel('Comment on QI3 Samples').fill('Ann: sampling described well');
  await ann.getByRole('button', { name: 'Submit appraisal' }).click();
  await expect(ann.getByText('Submitted — thank you.')).toBeVisible();

  await openMyAppraisal(ben, uid);
  await expect(ben.locator('body')).not.toContainText('Ann: sampling described well');
  await expectNoAxeViolations(ben);
  await gradeAll(ben, { samples: 'D' });
  await ben.getByLabel('Comment on QI3 Samples').fill('Ben: too few samples per subject');
  await ben.getByRole('button', { name: 'Submit appraisal' }).click();
  await expect(ben.getByText('Submitted — thank you.')).toBeVisible();

  // Disputed: the curator assigns a third assessor.
  await page.reload();
  const disputed = page.getByRole('region', { name: /Disputed/ });
  await expect(disputed).toContainText(uid);
  await expect(disputed).toContainText('Disputed: QI3 Samples');
  await expect(disputed).not.toContainText('Disputed: samples');
  await page.getByLabel(`Assessor Third of ${uid}`).selectOption({ label: `${ASSESSORS[2]} (assessor)` });
  await expect(page.getByText(`Assigned Third of ${uid}`)).toBeVisible();

  // The third sees both appraisals side by side and decides the disputed item.
  const cat = await signedInBrowser(browser, ASSESSORS[2]!, PASSWORD);
  await openMyAppraisal(cat, uid);
  const samplesRow = cat.getByRole('row', { name: /QI3 Samples/ });
  await expect(samplesRow).toContainText('Ann: sampling described well');
  await expect(samplesRow).toContainText('Ben: too few samples per subject');
  await expect(cat.getByRole('row', { name: /QI1 Scale/ })).toContainText('A (agreed)');
  await expectNoAxeViolations(cat);
  await cat.getByLabel('Grade for QI3 Samples').selectOption('D');
  await cat.getByRole('button', { name: 'Submit appraisal' }).click();
  await expect(cat.getByText('Submitted — thank you.')).toBeVisible();

  // Final grades: overall D, so the dataset leaves the estimate once the recompute job has run.
  // The recompute is asynchronous (the outbox and its worker): poll until the new result is there.
  await expect
    .poll(async () => (await metasOf()).find((m) => m.id === before.id)?.number_used, { timeout: 60_000 })
    .toBe(before.number_used - 1);
  const after = (await metasOf()).find((m) => m.id === before.id)!;
  expect(after.datasets.map((d) => d.bv_specification_id)).not.toContain(datasetId);

  await page.reload();
  await expect(page.getByRole('region', { name: /Final/ })).toContainText(uid);
  const spec = (await (await page.request.get(`/api/bv_specifications/${datasetId}`)).json()).dataset as {
    samples: string;
  };
  expect(spec.samples).toBe('D');
});
