import { expect, test } from './helpers';

// Decision 107: a first-time page goes as a gzip member stitched from pieces made beforehand. The
// browser must read it as the page: the same JSON as the uncompressed answer.
test('a first-time page of datasets arrives stitched as gzip and the browser reads it as the page', async ({
  page,
}) => {
  await page.goto('/');
  // A page size no other test asks for: a first ask.
  const limit = 60 + Math.floor(Math.random() * 30);
  const url = `/api/v1/datasets?limit=${limit}&offset=11`;
  const seen = await page.evaluate(async (u) => {
    const res = await fetch(u);
    return { encoding: res.headers.get('content-encoding'), text: await res.text() };
  }, url);
  expect(seen.encoding).toBe('gzip');
  const plain = await page.request.get(url, { headers: { 'accept-encoding': 'identity' } });
  expect(plain.headers()['content-encoding']).toBeUndefined();
  expect(seen.text).toBe(await plain.text());
  expect((JSON.parse(seen.text) as { data: unknown[] }).data).toHaveLength(limit);
});
