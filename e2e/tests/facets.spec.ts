import type { Page } from '@playwright/test';
import { apiJson, expect, expectNoAxeViolations, test } from './helpers';

// Issue 47.1 (decision 097): on a measurand's page, choose a population by its facets, read its
// estimate and whether it differs, follow the permalink, cite it; axe; a 375 px phone.

interface FacetAnswer {
  permalink: string;
  note: string | null;
  metas: {
    matrix: string;
    var_type: string;
    median: number;
    number_used: number;
    note: string | null;
  }[];
  comparisons: { sentence: string }[];
}

async function measurandId(page: Page, name: string): Promise<number> {
  const list = await apiJson<{ data: { id: number; display_name: string }[] }>(
    page,
    '/api/v1/measurands?limit=500',
  );
  return list.data.find((m) => m.display_name === name)!.id;
}

const facetsOf = async (page: Page, id: number, query: string) =>
  (await apiJson<{ facets: FacetAnswer }>(page, `/api/v1/measurands/${id}/metas?${query}`)).facets;

const POPULATION = 'Sex: Males; Sampling interval: Weeks (twice a week to every 4 weeks)';

test('choose two facets: the estimate, whether it differs, the permalink, the citation; axe; 375 px', async ({
  page,
  baseURL,
}) => {
  // The demo's leukocytes: datasets of men, of women and of both, some sampled weekly.
  const id = await measurandId(page, 'Leukocytes (WBC)');
  const counts = await apiJson<{
    facets: { facet: string; values: { value: string; label: string; datasets: number }[] }[];
  }>(page, `/api/v1/measurands/${id}/facets`);
  const males = counts.facets.find((f) => f.facet === 'sex')!.values.find((v) => v.value === 'males')!;
  expect(males.datasets).toBeGreaterThan(0);

  await page.goto(`/analytes/${id}`);
  const section = page.getByTestId('population-facets');
  await expect(section.getByRole('heading', { name: 'Estimate for a population' })).toBeVisible();
  // The counts before any choice.
  const malesBox = section.getByRole('checkbox', { name: `Males (${males.datasets} datasets)`, exact: true });
  await expect(malesBox).not.toBeChecked();
  const globalRow = page.locator('#estimate-whole-blood-edta-cvi');
  const globalBefore = await globalRow.innerText();

  // Two quick clicks: each choice builds on the one before.
  const weeksBox = section.getByRole('checkbox', { name: /^Weeks \(twice a week to every 4 weeks\)/ });
  await malesBox.click();
  await weeksBox.click();
  await expect(malesBox).toBeChecked();
  await expect(weeksBox).toBeChecked();
  await expect(page).toHaveURL(/facet\.sex=males/);
  await expect(page).toHaveURL(/facet\.interval=weeks/);

  // The population's estimate, as the API computes it.
  const api = await facetsOf(page, id, 'facet.sex=males&facet.interval=weeks');
  const cvi = api.metas.find((m) => m.var_type === ':cvi')!;
  const box = section.getByTestId('population-estimate');
  await expect(box.getByTestId('population-name')).toHaveText(POPULATION);
  const row = box.getByTestId('population-CVI');
  await expect(row.getByTestId('population-median')).toHaveText(cvi.median.toFixed(1));
  await expect(row).toContainText(String(cvi.number_used));
  if (cvi.note) await expect(row.getByTestId('population-one-study')).toHaveText(cvi.note);
  // Whether it differs: one value a facet is no comparison; the page says how to ask.
  await expect(box.getByTestId('population-not-tested')).toHaveText(
    'Choose two values of one facet (for instance Males and Females) to test whether they differ.',
  );
  await expect(box.getByTestId('population-forest').getByRole('figure')).toHaveCount(api.metas.length);
  // The global estimate is shown unchanged.
  expect(await globalRow.innerText()).toBe(globalBefore);

  // Two values of one facet: the test, or why there is none, as the API answers.
  await section.getByRole('checkbox', { name: /^Females/ }).click();
  await expect(section.getByRole('checkbox', { name: /^Females/ })).toBeChecked();
  // The demo's leukocytes have one eligible study of men and one of women in a matrix: too few for
  // the test, and the page says why (the sentence itself: population-facets.test.tsx, and the
  // server's meta-facets tests on datasets made for it).
  const both = await facetsOf(page, id, 'facet.sex=females,males&facet.interval=weeks');
  expect(both.comparisons).toEqual([]);
  await expect(box.getByTestId('population-not-tested')).toHaveText(
    'Not tested: each of the two values needs at least two studies in the same matrix.',
  );
  await section.getByRole('checkbox', { name: /^Females/ }).click();
  await expect(box.getByTestId('population-not-tested')).toHaveText(/^Choose two values/);

  // The permalink: a new page shows the same choice and the same numbers.
  const link = box.getByTestId('population-permalink');
  const href = await link.getAttribute('href');
  expect(href).toBe(api.permalink);
  await page.goto(href!);
  const again = page.getByTestId('population-facets');
  await expect(again.getByRole('checkbox', { name: /^Males / })).toBeChecked();
  await expect(again.getByRole('checkbox', { name: /^Weeks/ })).toBeChecked();
  await expect(again.getByRole('checkbox', { name: /^Females/ })).not.toBeChecked();
  await expect(again.getByTestId('population-CVI').getByTestId('population-median')).toHaveText(
    cvi.median.toFixed(1),
  );

  // Cite it: the facets are in the citation, the permalink is the population's.
  await again
    .getByRole('button', { name: new RegExp(`^Cite this estimate: ${cvi.matrix} CVI, population`) })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Cite this estimate' });
  const text = await dialog.getByTestId('citation-text').inputValue();
  expect(text).toContain(`Leukocytes (WBC) (${cvi.matrix}, population ${POPULATION})`);
  expect(text).toContain(`Available from: ${baseURL}${api.permalink}`);
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expectNoAxeViolations(page);

  // A phone: the population's numbers are on screen without scrolling sideways.
  await page.setViewportSize({ width: 375, height: 800 });
  const median = again.getByTestId('population-CVI').getByTestId('population-median');
  await median.scrollIntoViewIfNeeded();
  await expect(median).toBeInViewport();
  const boxOf = await median.boundingBox();
  expect(boxOf!.x + boxOf!.width).toBeLessThanOrEqual(375);
  const n = again.getByTestId('population-CVI').locator('td[data-label="N (studies)"]');
  await expect(n).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});

test('a page pinned to a moment shows the population as of then, and its permalink keeps the moment', async ({
  page,
}) => {
  const id = await measurandId(page, 'Leukocytes (WBC)');
  const asOf = new Date().toISOString();
  const api = await facetsOf(page, id, `facet.sex=males&as_of=${encodeURIComponent(asOf)}`);
  const cvi = api.metas.find((m) => m.var_type === ':cvi')!;
  await page.goto(`/analytes/${id}?facet.sex=males&as_of=${encodeURIComponent(asOf)}`);
  const box = page.getByTestId('population-estimate');
  await expect(box.getByText(`As of ${asOf.slice(0, 10)}`)).toBeVisible();
  await expect(box.getByTestId('population-CVI').getByTestId('population-median')).toHaveText(
    cvi.median.toFixed(1),
  );
  await expect(box.getByTestId('population-permalink')).toHaveAttribute(
    'href',
    `/analytes/${id}?facet.sex=males&as_of=${encodeURIComponent(asOf)}`,
  );
});

test('every value says what kind of evidence it is: the estimates, a population, a dataset (issue 47.4)', async ({
  page,
}) => {
  const id = await measurandId(page, 'Leukocytes (WBC)');
  const { metas } = await apiJson<{
    metas: {
      matrix: string;
      var_type: string;
      evidence: { label: string };
      datasets: { bv_specification_id: number }[];
    }[];
  }>(page, `/api/v1/measurands/${id}/metas`);
  const cvi = metas.find((m) => m.var_type === ':cvi' && m.matrix === 'Whole Blood EDTA')!;
  // The global estimate pools direct ANOVA studies only (decision 099): its row says so.
  expect(cvi.evidence.label).toBe('direct study (ANOVA, confidence interval)');
  await page.goto(`/analytes/${id}`);
  await expect(page.locator('#estimate-whole-blood-edta-cvi')).toContainText(cvi.evidence.label);

  // A population's value says it too, as the API does.
  await page.goto(`/analytes/${id}?facet.sex=males`);
  const api = await facetsOf(page, id, 'facet.sex=males');
  const first = api.metas[0]! as FacetAnswer['metas'][number] & { evidence: { label: string } };
  const type = first.var_type === ':cvi' ? 'CVI' : 'CVG';
  await expect(
    page
      .getByTestId('population-estimate')
      .getByTestId(`population-${type}`)
      .first()
      .getByTestId('population-evidence'),
  ).toHaveText(`Evidence: ${first.evidence.label}`);

  // A dataset's page says its class.
  await page.goto(`/bv_specifications/${cvi.datasets[0]!.bv_specification_id}`);
  await expect(page.getByTestId('dataset-evidence')).toHaveText(
    'Evidence: direct study (ANOVA, confidence interval)',
  );
  await expectNoAxeViolations(page);
});
