import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeWordPress } from '../../test/fake-wordpress.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';

describe('content configuration', () => {
  let ctx: TestContext;
  let main: Awaited<ReturnType<typeof startFakeWordPress>>;
  let other: Awaited<ReturnType<typeof startFakeWordPress>>;
  beforeAll(async () => {
    main = await startFakeWordPress();
    other = await startFakeWordPress();
    ctx = await createTestApp({
      demo: false,
      env: {
        CONTENT_URL: main.url,
        CONTENT_DISCLAIMER_URL: other.url,
        CONTENT_PAGE_IDS: 'about=99',
        DATA_USE_NOTICE: 'Our notice.',
        CITATION: 'Cite us like this.',
      },
    });
  });
  afterAll(async () => {
    await ctx.close();
    await main.close();
    await other.close();
  });

  it('maps pages to the configured ids and the disclaimer to its own site', async () => {
    await ctx.app.inject({ url: '/api/content/about' });
    expect(main.requests).toContain('/wp-json/wp/v2/pages/99');
    await ctx.app.inject({ url: '/api/content/disclaimer' });
    expect(other.requests).toContain('/wp-json/wp/v2/pages/25');
    expect(main.requests).not.toContain('/wp-json/wp/v2/pages/25');
  });

  it('serves the data-use notice and citation from configuration', async () => {
    const res = await ctx.app.inject({ url: '/api/site' });
    expect(res.json()).toEqual({
      data_use_notice: 'Our notice.',
      citation: 'Cite us like this.',
      content_source: 'remote',
      // This catalogue is empty: no demo records, so no demo banner.
      demo_data: false,
    });
  });

  it('defaults the notice and citation when not configured', async () => {
    const plain = await createTestApp({ demo: true });
    try {
      const body = (await plain.app.inject({ url: '/api/site' })).json<{
        data_use_notice: string;
        citation: string;
        demo_data: boolean;
      }>();
      // The demo catalogue says so, for the banner the UI shows.
      expect(body.demo_data).toBe(true);
      expect(body.data_use_notice).toMatch(/copyright/);
      expect(body.citation).toMatch(/Biological Variation Database/);
    } finally {
      await plain.close();
    }
  });
});
