import { describe, expect, it } from 'vitest';
import { signInAs } from '../../test/sign-in.js';
import { useTestApp } from '../../test/test-app.js';

const ctx = useTestApp({ demo: false });

interface User {
  id: number;
  email: string;
  role: string;
  active: boolean;
  version: number;
}

describe('the administration of users', () => {
  it('creates, lists, changes the role of, resets the password of and deactivates a user', async () => {
    const admin = await signInAs(ctx.app);
    const call = (method: 'POST' | 'PATCH' | 'PUT', url: string, payload: object) =>
      ctx.app.inject({ method, url, payload, headers: admin.headers });

    const created = await call('POST', '/api/users', {
      email: 'new.assessor@example.org',
      name: 'New Assessor',
      role: 'assessor',
      password: 'first-password-1',
    });
    expect(created.statusCode, created.body).toBe(201);
    const user = created.json<User>();
    expect(user).toMatchObject({ role: 'assessor', active: true, version: 1 });
    expect(created.body).not.toContain('password');
    const again = await call('POST', '/api/users', {
      email: 'NEW.assessor@example.org',
      role: 'curator',
      password: 'first-password-1',
    });
    expect(again.statusCode).toBe(409);
    expect(
      (await call('POST', '/api/users', { email: 'x@example.org', role: 'boss', password: 'p' })).statusCode,
    ).toBe(400);

    const list = (await ctx.app.inject({ url: '/api/users', headers: { cookie: admin.cookie } })).json<{
      data: User[];
    }>();
    expect(list.data.map((u) => [u.email, u.role])).toEqual([
      ['admin@example.org', 'admin'],
      ['new.assessor@example.org', 'assessor'],
    ]);

    // The assessor signs in, and loses the session when the role changes.
    const session = await signInAs(ctx.app, 'new.assessor@example.org', 'first-password-1');
    const promoted = await call('PATCH', `/api/users/${user.id}`, { version: 1, role: 'curator' });
    expect(promoted.json<User>()).toMatchObject({ role: 'curator', version: 2 });
    expect((await call('PATCH', `/api/users/${user.id}`, { version: 1, role: 'admin' })).statusCode).toBe(
      409,
    );
    const who = await ctx.app.inject({ url: '/api/session', headers: { cookie: session.cookie } });
    expect(who.json<{ user: unknown }>().user).toBeNull();

    expect(
      (await call('PUT', `/api/users/${user.id}/password`, { password: 'second-password-2' })).statusCode,
    ).toBe(200);
    await expect(signInAs(ctx.app, 'new.assessor@example.org', 'first-password-1')).rejects.toThrow(/401/);
    await signInAs(ctx.app, 'new.assessor@example.org', 'second-password-2');

    expect((await call('PATCH', `/api/users/${user.id}`, { version: 2, active: false })).statusCode).toBe(
      200,
    );
    await expect(signInAs(ctx.app, 'new.assessor@example.org', 'second-password-2')).rejects.toThrow(/401/);

    // An administrator cannot lock themselves out.
    const me = list.data.find((u) => u.email === 'admin@example.org')!;
    expect(
      (await call('PATCH', `/api/users/${me.id}`, { version: me.version, role: 'curator' })).statusCode,
    ).toBe(422);
    expect(
      (await call('PATCH', `/api/users/${me.id}`, { version: me.version, active: false })).statusCode,
    ).toBe(422);
    expect(
      (await call('PUT', '/api/users/999999/password', { password: 'second-password-2' })).statusCode,
    ).toBe(404);
  });
});
