import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailingListMembers } from '../../db/schema.js';
import { startFakeMailgun } from '../../test/fake-mailgun.js';
import { signInAs } from '../../test/sign-in.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { addMailgunListMember, mailgunSettings } from './mailgun-client.js';

const URL = '/api/mailguns/bv_calculations/add_member_to_list';
const KEY = 'key-test-0123456789';

const rows = (ctx: TestContext, email: string) =>
  ctx.database.db
    .select()
    .from(mailingListMembers)
    .where(sql`lower(${mailingListMembers.email}) = lower(${email})`);

describe('mailing list without a provider', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ demo: false });
  });
  afterAll(async () => ctx.close());

  it('refuses anonymous callers (401) and writes without the CSRF header (403)', async () => {
    const anon = await ctx.app.inject({ method: 'POST', url: URL, payload: { email: 'a@example.org' } });
    expect(anon.statusCode).toBe(401);
    const s = await signInAs(ctx.app);
    const noCsrf = await ctx.app.inject({
      method: 'POST',
      url: URL,
      payload: { email: 'a@example.org' },
      headers: { cookie: s.cookie },
    });
    expect(noCsrf.statusCode).toBe(403);
    expect(await rows(ctx, 'a@example.org')).toHaveLength(0);
  });

  it('validates the address, with a field message', async () => {
    const s = await signInAs(ctx.app);
    for (const payload of [{ email: 'not-an-address' }, {}, { email: 'a@example.org', extra: 1 }]) {
      const res = await ctx.app.inject({ method: 'POST', url: URL, payload, headers: s.headers });
      expect(res.statusCode).toBe(400);
    }
    const bad = await ctx.app.inject({
      method: 'POST',
      url: URL,
      payload: { email: 'nope' },
      headers: s.headers,
    });
    expect(bad.json<{ fields: { path: string; message: string }[] }>().fields).toContainEqual({
      path: 'body.email',
      message: 'Email address must be a valid e-mail address',
    });
  });

  it('stores the member (upsert on the address, case-insensitive) and answers code success', async () => {
    const s = await signInAs(ctx.app);
    const first = await ctx.app.inject({
      method: 'POST',
      url: URL,
      payload: { email: 'Ana@Example.org', name: 'Ana' },
      headers: s.headers,
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      code: 'success',
      synced: false,
      member: { name: 'Ana', synced_at: null },
    });
    const again = await ctx.app.inject({
      method: 'POST',
      url: URL,
      payload: { email: 'ana@example.org', name: 'Ana Pérez' },
      headers: s.headers,
    });
    expect(again.json()).toMatchObject({
      code: 'success',
      member: { email: 'ana@example.org', name: 'Ana Pérez' },
    });
    expect(await rows(ctx, 'ANA@example.org')).toHaveLength(1);
    const list = await ctx.app.inject({
      url: '/api/mailguns/bv_calculations/members',
      headers: { cookie: s.cookie },
    });
    expect(list.json<{ data: { email: string }[] }>().data.map((m) => m.email)).toEqual(['ana@example.org']);
  });
});

describe('mailing list synced to Mailgun', () => {
  let ctx: TestContext;
  let mailgun: Awaited<ReturnType<typeof startFakeMailgun>>;
  beforeAll(async () => {
    mailgun = await startFakeMailgun({ apiKey: KEY, lists: ['bv-news@mg.example.org'] });
    ctx = await createTestApp({
      demo: false,
      env: {
        MAILGUN_API_KEY: KEY,
        MAILGUN_DOMAIN: 'mg.example.org',
        MAILGUN_LIST: 'bv-news',
        MAILGUN_BASE_URL: mailgun.url,
      },
    });
  });
  afterAll(async () => {
    await ctx.close();
    await mailgun.close();
  });

  it('adds the member through the real API shape and records syncedAt', async () => {
    const s = await signInAs(ctx.app);
    const res = await ctx.app.inject({
      method: 'POST',
      url: URL,
      payload: { email: 'bo@example.org', name: 'Bo' },
      headers: s.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 'success', synced: true });
    const sent = mailgun.requests.at(-1)!;
    expect(sent).toMatchObject({
      method: 'POST',
      path: '/v3/lists/bv-news@mg.example.org/members',
      authorization: `Basic ${Buffer.from(`api:${KEY}`).toString('base64')}`,
      form: { address: 'bo@example.org', name: 'Bo', subscribed: 'yes', upsert: 'yes' },
    });
    expect(sent.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(mailgun.members.get('bv-news@mg.example.org')!.get('bo@example.org')).toMatchObject({
      name: 'Bo',
    });
    const [row] = await rows(ctx, 'bo@example.org');
    expect(row!.syncedAt).toBeInstanceOf(Date);
    // Adding the same address again is an update on both sides (upsert), not an error.
    const again = await ctx.app.inject({
      method: 'POST',
      url: URL,
      payload: { email: 'BO@example.org' },
      headers: s.headers,
    });
    expect(again.statusCode).toBe(200);
    expect(await rows(ctx, 'bo@example.org')).toHaveLength(1);
  });

  it('a provider failure answers 502 with a clear message and keeps the member stored, unsynced', async () => {
    const s = await signInAs(ctx.app);
    mailgun.set('error');
    try {
      const res = await ctx.app.inject({
        method: 'POST',
        url: URL,
        payload: { email: 'cy@example.org', name: 'Cy' },
        headers: s.headers,
      });
      expect(res.statusCode).toBe(502);
      expect(res.json<{ message: string }>().message).toMatch(
        /cy@example\.org was saved here, but the mailing-list provider did not accept it: Mailgun answered 500/,
      );
      const [row] = await rows(ctx, 'cy@example.org');
      expect(row).toMatchObject({ name: 'Cy', syncedAt: null });
      mailgun.set('down');
      const down = await ctx.app.inject({
        method: 'POST',
        url: URL,
        payload: { email: 'cy@example.org' },
        headers: s.headers,
      });
      expect(down.statusCode).toBe(502);
      expect(down.json<{ message: string }>().message).toMatch(/could not be reached/);
    } finally {
      mailgun.set('ok');
    }
    const retry = await ctx.app.inject({
      method: 'POST',
      url: URL,
      payload: { email: 'cy@example.org' },
      headers: s.headers,
    });
    expect(retry.json()).toMatchObject({ synced: true, member: { name: 'Cy' } });
    const [row] = await ctx.database.db
      .select()
      .from(mailingListMembers)
      .where(eq(mailingListMembers.email, 'cy@example.org'));
    expect(row!.syncedAt).not.toBeNull();
  });

  it('the client reports a wrong key and a timeout as errors', async () => {
    const wrongKey = mailgunSettings({
      MAILGUN_API_KEY: 'wrong',
      MAILGUN_DOMAIN: 'mg.example.org',
      MAILGUN_LIST: 'bv-news@mg.example.org',
      MAILGUN_BASE_URL: mailgun.url,
    })!;
    await expect(addMailgunListMember(wrongKey, { email: 'x@example.org', name: null })).rejects.toThrow(
      'Mailgun refused the API key',
    );
    mailgun.set('slow');
    try {
      const quick = { ...wrongKey, apiKey: KEY, timeoutMs: 200 };
      await expect(addMailgunListMember(quick, { email: 'x@example.org', name: null })).rejects.toThrow(
        'Mailgun did not answer in time',
      );
    } finally {
      mailgun.set('ok');
    }
    expect(
      mailgunSettings({
        MAILGUN_API_KEY: KEY,
        MAILGUN_DOMAIN: undefined,
        MAILGUN_LIST: 'x',
        MAILGUN_BASE_URL: undefined,
      }),
    ).toBeNull();
  });
});
