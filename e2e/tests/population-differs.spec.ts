import type { Page } from '@playwright/test';
import { apiJson, expect, expectNoAxeViolations, signIn, test } from './helpers';

// Issue 47, "How we know it is right" 1–2 in the browser: on a measurand's page two values of one
// facet that each have two studies or more get the subgroup test — the sentence with its p-value,
// read as the API answers it, kept by the permalink, named in the citation; axe; a 375 px phone.
// The demo holds no such pair in one matrix, so the journey enters its own studies through the API,
// as a curator would: four references, one dataset each, of Lipase in plasma — a measurand with no
// estimate in the demo and no other journey.

const SHOTS = process.env.E2E_SCREENSHOTS;

interface Comparison {
  facet: string;
  var_type: string;
  matrix: string;
  a: { value: string; label: string; median: number; number_used: number };
  b: { value: string; label: string; median: number; number_used: number };
  p: number;
  sentence: string;
}
interface FacetAnswer {
  permalink: string;
  note: string | null;
  datasets: number;
  metas: { matrix: string; var_type: string; median: number; number_used: number }[];
  comparisons: Comparison[];
}

const MEASURAND = 'Lipase';
const MATRIX = 'Plasma';
/**
 * Two studies of women, two of men: the men's CVI clearly higher, the CIs wide enough that the
 * test's p is a number (0.03), not "p < 0.001". The values are the journey's, entered here.
 */
const STUDIES = [
  { sex: 'females', cvi: 9, lower: 6, upper: 13.5 },
  { sex: 'females', cvi: 11, lower: 7.3, upper: 16.5 },
  { sex: 'males', cvi: 14, lower: 9.3, upper: 21 },
  { sex: 'males', cvi: 17, lower: 11.3, upper: 25.5 },
] as const;

/** Every BIVAC quality item graded A: an eligible, final appraisal. */
const GRADES_A = Object.fromEntries(
  [
    'scale',
    'study_population',
    'samples',
    'measurand',
    'pre_analytical',
    'replicate_analysis',
    'steady_state',
    'outlier_analysis',
    'normality',
    'variance_homogeneity',
    'anova',
    'ci',
    'number_of_results',
    'concentrations',
  ].map((k) => [k, 'A']),
);

/** The p-value as the sentence writes it (domain formatPValue). */
const pText = (p: number) => (p < 0.001 ? 'p < 0.001' : `p = ${p < 0.01 ? p.toFixed(3) : p.toFixed(2)}`);
const possessive = (label: string) => (label.endsWith('s') ? `${label}'` : `${label}'s`);

const facetsOf = async (page: Page, id: number, query: string) =>
  (await apiJson<{ facets: FacetAnswer }>(page, `/api/v1/measurands/${id}/metas?${query}`)).facets;

/** Enters the journey's four studies of the measurand as the administrator; the measurand's id. */
async function enterStudies(page: Page): Promise<number> {
  const { analytes } = await apiJson<{ analytes: { id: number; display_name: string }[] }>(
    page,
    '/api/analytes_with_bv_specifications',
  );
  const measurandId = analytes.find((a) => a.display_name === MEASURAND)!.id;
  const lookups = await apiJson<{
    matrices: { id: number; matrix_expansion: string }[];
    states_of_well_being: { id: number; state_of_well_being_descriptor_expansion: string }[];
  }>(page, '/api/lookups');
  const matrixId = lookups.matrices.find((m) => m.matrix_expansion === MATRIX)!.id;
  const healthyId = lookups.states_of_well_being.find(
    (s) => s.state_of_well_being_descriptor_expansion === 'Healthy',
  )!.id;

  await signIn(page);
  const { csrf_token } = await apiJson<{ csrf_token: string }>(page, '/api/session');
  const headers = { 'X-CSRF-Token': csrf_token };
  const stamp = `${Date.now()}`;
  for (const [i, s] of STUDIES.entries()) {
    // A study is a reference: each dataset its own reference, so each is a study of its own.
    const ref = await page.request.post('/api/references', {
      headers,
      data: {
        title: `Lipase in ${s.sex}, study ${i + 1} (${stamp})`,
        author: 'Doe J',
        year_of_publication: 2024,
      },
    });
    expect(ref.status(), await ref.text()).toBe(201);
    const referenceId = ((await ref.json()) as { reference: { id: number } }).reference.id;
    const men = s.sex === 'males' ? 24 : 0;
    const dataset = await page.request.post('/bv_specifications', {
      headers,
      data: {
        bv_specification: {
          analyte_id: measurandId,
          reference_id: referenceId,
          unique_identifier: `DIFFER-${stamp}-${i + 1}`,
          matrix_id: matrixId,
          ...GRADES_A,
          state_of_well_being_id: healthyId,
          sex_for_meta_analysis: s.sex === 'males' ? 'Males' : 'Females',
          age_min: 20,
          age_max: 60,
          number_of_subjects: 24,
          number_of_males: men,
          number_of_females: 24 - men,
          estimates_of_cvi: s.cvi,
          reported_cvi_lower_confidence_interval: s.lower,
          reported_cvi_upper_confidence_interval: s.upper,
          healthy: 1,
          adult: 1,
          published: 1,
          include_in_meta_analysis: 1,
          evidence_class: 'direct-anova',
        },
      },
    });
    expect(dataset.status(), await dataset.text()).toBe(201);
  }
  // The worker recomputes the global estimate (decision 048): wait for it, so the page's "Global
  // estimate" column is the one of these studies too.
  await expect
    .poll(
      async () => {
        const { metas } = await apiJson<{
          metas: { matrix: string; var_type: string; number_used: number }[];
        }>(page, `/api/v1/measurands/${measurandId}/metas`);
        return metas.find((m) => m.matrix === MATRIX && m.var_type === ':cvi')?.number_used ?? 0;
      },
      { timeout: 30_000 },
    )
    .toBe(STUDIES.length);
  await page.context().clearCookies();
  return measurandId;
}

async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1366, 375]) {
    await page.setViewportSize({ width, height: 900 });
    const box = page.getByTestId('population-estimate');
    await box.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
    await box.screenshot({ path: `${SHOTS}/${name}-box-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test('does it differ: two values with two studies each give the test, its p-value and a plain sentence; permalink, citation, axe, 375 px', async ({
  page,
  baseURL,
}) => {
  const id = await enterStudies(page);

  // A visitor opens the measurand's page and chooses women and men, then the matrix.
  await page.goto(`/analytes/${id}`);
  const section = page.getByTestId('population-facets');
  await expect(section.getByRole('heading', { name: 'Estimate for a population' })).toBeVisible();
  // The counts before any choice: the journey's two studies of each sex.
  const females = section.getByRole('checkbox', { name: 'Females (2 datasets)', exact: true });
  const males = section.getByRole('checkbox', { name: 'Males (2 datasets)', exact: true });
  const plasma = section
    .getByTestId('facet-matrix')
    .getByRole('checkbox', { name: new RegExp(`^${MATRIX} \\(`) });
  await females.click();
  await males.click();
  await plasma.click();
  for (const box of [females, males, plasma]) await expect(box).toBeChecked();
  await expect(page).toHaveURL(/facet\.sex=females(,|%2C)males/);
  await expect(page).toHaveURL(/facet\.matrix=plasma/);

  // The API's answer for this choice: the pooled estimate and one comparison of CVI in plasma.
  const query = 'facet.sex=females,males&facet.matrix=plasma';
  const api = await facetsOf(page, id, query);
  const cvi = api.metas.find((m) => m.matrix === MATRIX && m.var_type === ':cvi')!;
  expect(cvi.number_used).toBe(STUDIES.length);
  // CVI only: the studies give no CVG, so one test.
  expect(api.comparisons).toHaveLength(1);
  const c = api.comparisons.find((x) => x.matrix === MATRIX && x.var_type === ':cvi')!;
  expect(c, 'a subgroup test of CVI in plasma').toBeDefined();
  expect([c.a.value, c.b.value]).toEqual(['females', 'males']);
  expect([c.a.number_used, c.b.number_used]).toEqual([2, 2]);
  // The studies entered: women's CVI lower, the difference significant, the p a number.
  expect(c.a.median).toBeLessThan(c.b.median);
  expect(c.p).toBeLessThan(0.05);
  expect(c.p).toBeGreaterThanOrEqual(0.001);

  const box = section.getByTestId('population-estimate');
  const population = `Sex: Females, Males; Matrix: ${MATRIX}`;
  await expect(box.getByTestId('population-name')).toHaveText(population);
  const row = box.getByTestId('population-CVI');
  await expect(row.getByTestId('population-median')).toHaveText(cvi.median.toFixed(1));
  await expect(row.locator('td[data-label="N (studies)"]')).toHaveText(String(cvi.number_used));

  // Does it differ? The sentence is the API's, its numbers the two medians, its wording theirs.
  const differs = box.getByTestId('population-differs');
  await expect(differs.getByRole('heading', { name: 'Does it differ?' })).toBeVisible();
  await expect(differs.getByTestId('population-not-tested')).toHaveCount(0);
  const sentence = differs.getByTestId('population-sentence');
  await expect(sentence).toHaveCount(1);
  await expect(sentence).toHaveText(c.sentence);
  const relation = c.a.median > c.b.median ? 'is higher than' : 'is lower than';
  expect(c.sentence).toBe(
    `${possessive(c.a.label)} CVI of ${MEASURAND} ${relation} ${possessive(c.b.label)}: ` +
      `${c.a.median.toFixed(1)} % vs ${c.b.median.toFixed(1)} %, ${pText(c.p)}.`,
  );
  expect(c.sentence).toMatch(
    /^Females' CVI of Lipase is lower than Males': \d+\.\d % vs \d+\.\d %, p = 0\.0\d\.$/,
  );
  await expect(differs).toContainText(`(${MATRIX}, ${c.a.number_used} vs ${c.b.number_used} studies;`);
  await expectNoAxeViolations(page);
  await shots(page, 'population-differs');

  // The permalink: its URL carries the facets; a new page reads the same sentence.
  const link = box.getByTestId('population-permalink');
  const href = await link.getAttribute('href');
  expect(href).toBe(api.permalink);
  expect(href).toBe(`/analytes/${id}?${query}`);
  await link.click();
  await expect(page).toHaveURL(`${baseURL}${href}`);
  await page.reload();
  const again = page.getByTestId('population-facets');
  for (const name of [/^Females \(/, /^Males \(/])
    await expect(again.getByRole('checkbox', { name })).toBeChecked();
  await expect(
    again.getByTestId('facet-matrix').getByRole('checkbox', { name: new RegExp(`^${MATRIX} \\(`) }),
  ).toBeChecked();
  await expect(again.getByTestId('population-sentence')).toHaveText(c.sentence);
  await expect(again.getByTestId('population-CVI').getByTestId('population-median')).toHaveText(
    cvi.median.toFixed(1),
  );

  // Cite it: the citation names the population and links to it.
  await again
    .getByRole('button', { name: new RegExp(`^Cite this estimate: ${MATRIX} CVI, population`) })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Cite this estimate' });
  const text = await dialog.getByTestId('citation-text').inputValue();
  expect(text).toContain(`${MEASURAND} (${MATRIX}, population ${population})`);
  expect(text).toContain(`Available from: ${baseURL}${api.permalink}`);
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(dialog).toHaveCount(0);

  // A phone: the estimate and the whole sentence on screen, nothing cut off, no sideways scroll.
  await page.setViewportSize({ width: 375, height: 800 });
  const median = again.getByTestId('population-CVI').getByTestId('population-median');
  await median.scrollIntoViewIfNeeded();
  await expect(median).toBeInViewport();
  await expect(median).toHaveText(cvi.median.toFixed(1));
  const phoneSentence = again.getByTestId('population-sentence');
  await phoneSentence.scrollIntoViewIfNeeded();
  await expect(phoneSentence).toBeInViewport();
  await expect(phoneSentence).toHaveText(c.sentence);
  for (const el of [median, phoneSentence]) {
    const b = (await el.boundingBox())!;
    expect(b.x).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width).toBeLessThanOrEqual(375);
  }
  // Not clipped: the estimates' region shows all it holds without scrolling inside it.
  const region = again.getByRole('region', { name: 'Population estimates' });
  expect(await region.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectNoAxeViolations(page);
});
