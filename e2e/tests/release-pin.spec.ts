import { apiJson, expect, expectNoAxeViolations, signIn, test } from './helpers';

interface Meta {
  matrix: string;
  matrix_id: number | null;
  var_type: string;
  median: number;
  estimate_id: number | null;
  version: number | null;
  datasets: { bv_specification_id: number; cv: number }[];
}
interface Release {
  version: string;
  published_at: string;
}

const SHOTS = process.env.E2E_SHOTS_DIR;

// Issue 30.3: a permalink pinned to a release shows that release's value, with a note when the
// current value differs; the citation names the release.
test('a permalink pinned to a release shows that release’s value and says the current one differs', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page);
  const { csrf_token } = await apiJson<{ csrf_token: string }>(page, '/api/session');

  // A measurand's CVI of one matrix, and a dataset it uses.
  const list = await apiJson<{ data: { analyte_id: number; var_type: string }[] }>(
    page,
    '/api/v1/metas?limit=50',
  );
  let analyteId = 0;
  let meta: Meta | undefined;
  for (const candidate of new Set(list.data.filter((m) => m.var_type === ':cvi').map((m) => m.analyte_id))) {
    const body = await apiJson<{ metas: Meta[] }>(page, `/api/v1/measurands/${candidate}/metas`);
    meta = body.metas.find((m) => m.var_type === ':cvi' && m.matrix_id !== null && m.datasets.length > 1);
    if (meta) {
      analyteId = candidate;
      break;
    }
  }
  expect(meta, 'a CVI estimate with datasets').toBeDefined();
  const before = meta!;

  // A release of the data as they are (another build may be running: then wait and ask again).
  const known = new Set(
    (await apiJson<{ data: Release[] }>(page, '/api/v1/releases')).data.map((r) => r.version),
  );
  await expect
    .poll(
      async () =>
        (await page.request.post('/api/v1/releases', { headers: { 'x-csrf-token': csrf_token } })).status(),
      { timeout: 60_000, intervals: [2_000] },
    )
    .toBe(202);
  let release: Release | undefined;
  await expect
    .poll(
      async () => {
        const { data } = await apiJson<{ data: Release[] }>(page, '/api/v1/releases');
        release = data.find((r) => !known.has(r.version));
        return release?.version ?? null;
      },
      { timeout: 90_000 },
    )
    .not.toBeNull();
  const version = release!.version;

  // Then a dataset of that estimate changes: its value moves on.
  const used = before.datasets[0]!;
  await page.goto(`/bv_specifications/${used.bv_specification_id}/edit`);
  await expect(page.getByRole('heading', { name: 'Edit Dataset' })).toBeVisible();
  await page.getByLabel('Estimate of CVI (%)').fill(String(Math.round((used.cv * 3 + 7) * 100) / 100));
  await page.getByRole('button', { name: 'Save Dataset' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Dataset' })).toHaveCount(0);
  await expect
    .poll(
      async () => {
        const body = await apiJson<{ metas: Meta[] }>(page, `/api/v1/measurands/${analyteId}/metas`);
        return body.metas.find((m) => m.estimate_id === before.estimate_id)?.median;
      },
      { timeout: 30_000 },
    )
    .not.toBe(before.median);

  // The pinned permalink: the release's value, and a note with the current one.
  const query = new URLSearchParams({ matrix: before.matrix, type: 'CVI', release: version });
  await page.goto(`/analytes/${analyteId}?${query.toString()}`);
  const notice = page.getByTestId('release-pin');
  await expect(notice).toContainText(`Values of release ${version}`);
  await expect(notice).toContainText('The current value differs:');
  await expect(notice).toContainText(`${before.matrix} CVI: in this release ${before.median.toFixed(1)} %`);
  const row = page.locator(`#estimate-${before.matrix.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-cvi`);
  await expect(row).toContainText(before.median.toFixed(1));
  await expectNoAxeViolations(page);
  if (SHOTS) {
    for (const width of [1366, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}/release-pin-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  // The citation of the pinned value names the release, and its permalink keeps the pin.
  await row.getByRole('button', { name: /Cite/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`release ${version}`);
  await expect(dialog).toContainText(`release=${version}`);
  await page.keyboard.press('Escape');

  // `?as_of=` as the API takes it (issue 42.9): the values at that moment, with the same note.
  await page.goto(`/analytes/${analyteId}?as_of=${encodeURIComponent(release!.published_at)}`);
  const asOf = page.getByTestId('release-pin');
  await expect(asOf).toContainText(`Values as of ${release!.published_at}`);
  await expect(asOf).toContainText(`${before.matrix} CVI: then ${before.median.toFixed(1)} %`);
  await expect(row).toContainText(before.median.toFixed(1));
  await expectNoAxeViolations(page);
  await page.goto(
    `/analytes/${analyteId}?matrix=${encodeURIComponent(before.matrix)}&type=CVI&release=${version}`,
  );

  // "Show the current values" drops the pin.
  await notice.getByRole('link', { name: 'Show the current values' }).click();
  await expect(page.getByTestId('release-pin')).toHaveCount(0);
  // An unknown release is said, and the current values are shown.
  await page.goto(`/analytes/${analyteId}?release=1999-01-01`);
  await expect(page.getByText('There is no release 1999-01-01: the current values are shown.')).toBeVisible();
});
