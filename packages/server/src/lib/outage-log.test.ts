import { describe, expect, it } from 'vitest';
import { causeOf, OutageLog } from './outage-log.js';

/** What Drizzle throws for a query the database did not answer: the SQL and its parameters on top. */
function failedQuery(reason: string, code: string): Error {
  const driver = Object.assign(new Error(reason), { code });
  return Object.assign(
    new Error(
      'Failed query: update meta_recompute_requests set claimed_by = $1 where id in (select id from meta_recompute_requests limit $2)\nparams: worker-1,200',
    ),
    { cause: driver },
  );
}

function recorder() {
  const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
  return {
    lines,
    log: {
      error: (obj: object, msg: string) => lines.push({ level: 'error', obj: obj as never, msg }),
      info: (obj: object, msg: string) => lines.push({ level: 'info', obj: obj as never, msg }),
    },
  };
}

describe('an outage is logged once when it starts and once when it is over (issue 43.11)', () => {
  it('one line for 60 failures in a row, with the driver reason and code, none of the SQL; one at recovery', () => {
    const { lines, log } = recorder();
    let now = 1_000_000;
    const outage = new OutageLog(log, 'recompute drain', () => now);
    for (let i = 0; i < 60; i++) {
      outage.failed(failedQuery('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'));
      now += 1000;
    }
    outage.succeeded();
    outage.succeeded();
    expect(lines).toEqual([
      {
        level: 'error',
        obj: { cause: { message: 'connect ECONNREFUSED 127.0.0.1:5432', code: 'ECONNREFUSED' } },
        msg: 'recompute drain failed',
      },
      { level: 'info', obj: { failures: 60, seconds: 60 }, msg: 'recompute drain recovered' },
    ]);
    const text = JSON.stringify(lines);
    expect(text).not.toMatch(/meta_recompute_requests|select|update|params|worker-1/i);
  });

  it('a second outage is logged again; no recovery line without a failure', () => {
    const { lines, log } = recorder();
    const outage = new OutageLog(log, 'database connection');
    outage.succeeded();
    outage.failed(
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    );
    outage.succeeded();
    outage.failed(new Error('Connection terminated unexpectedly'));
    outage.failed(new Error('Connection terminated unexpectedly'));
    outage.succeeded();
    expect(lines.map((l) => l.msg)).toEqual([
      'database connection failed',
      'database connection recovered',
      'database connection failed',
      'database connection recovered',
    ]);
    expect(lines[0]!.obj).toEqual({
      cause: { message: 'terminating connection due to administrator command', code: '57P01' },
    });
  });

  it('a wrapper without the driver error underneath gives no SQL either', () => {
    expect(causeOf(new Error('Failed query: select secret from users where id = $1\nparams: 7'))).toEqual({
      message: 'a query failed (no reason given by the driver)',
    });
  });
});
