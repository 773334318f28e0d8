import { describe, expect, it } from 'vitest';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { checkReadiness } from './health.service.js';

const failing = (err: Error) =>
  ({ db: { execute: () => Promise.reject(err) } }) as unknown as Pick<ServiceDeps, 'db'>;

describe('readiness', () => {
  it('names the driver reason of a connection failure', async () => {
    const res = await checkReadiness(failing(new Error('connect ECONNREFUSED 127.0.0.1:5432')));
    expect(res).toEqual({
      ready: false,
      message: 'database unavailable: connect ECONNREFUSED 127.0.0.1:5432',
    });
  });

  it('never answers internal query text (it goes to the log only)', async () => {
    const logged: object[] = [];
    const err = new Error('Failed query: select password_hash from users where id = $1\nparams: 1');
    const res = await checkReadiness(failing(err), { warn: (obj) => logged.push(obj) });
    expect(res).toEqual({ ready: false, message: 'database unavailable' });
    expect(logged).toHaveLength(1);
  });
});
