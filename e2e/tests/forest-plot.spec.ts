import { apiJson, expect, expectNoAxeViolations, test } from './helpers';

interface Meta {
  matrix: string;
  var_type: string;
  datasets: { study_id: string; reference_title: string }[];
}

test('measurand page: the forest plot loads when scrolled to, with its table alternative and leave-one-out table', async ({
  page,
}) => {
  const suggestions = await apiJson<{ id: number; display_name: string }[]>(
    page,
    '/autocomplete?query=Creatinine',
  );
  const id = suggestions.find((s) => s.display_name === 'Creatinine')!.id;
  const meta = await apiJson<{ metas: Meta[] }>(page, `/api/v1/measurands/${id}/metas`);
  const cvi = meta.metas.filter((m) => m.matrix === 'Serum' && m.var_type === ':cvi').at(-1)!;
  const studies = new Set(cvi.datasets.map((d) => d.study_id));

  await page.goto(`/analytes/${id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Creatinine');
  // Not in the first load: the chart code comes when the section is scrolled near.
  const section = page.getByTestId('forest-plots');
  await section.scrollIntoViewIfNeeded();
  const figure = page.getByRole('figure', {
    name: 'Forest plot — Within-subject (CVI), Serum',
    exact: true,
  });
  await figure.scrollIntoViewIfNeeded();
  await expect(figure).toBeVisible();
  await expect(figure.getByRole('img', { name: /^Forest plot of/ })).toBeVisible();
  await expect(figure.getByTestId('forest-row')).toHaveCount(studies.size);

  const data = figure.getByRole('table', { name: /^Forest plot data/ });
  await expect(data.locator('tbody tr')).toHaveCount(studies.size);
  for (const title of new Set(cvi.datasets.map((d) => d.reference_title))) {
    await expect(data.locator('tbody th').filter({ hasText: title }).first()).toBeVisible();
  }
  await expect(data.locator('tfoot')).toContainText('Weighted median');
  if (studies.size > 1) {
    const loo = figure.getByRole('table', { name: /^Leave-one-out/ });
    await expect(loo.locator('tbody tr')).toHaveCount(studies.size);
    await expect(loo.getByText('(moves it most)')).toHaveCount(1);
  }
  await expectNoAxeViolations(page);
});
