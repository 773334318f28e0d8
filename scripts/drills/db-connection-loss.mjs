#!/usr/bin/env node
// Drill (issue 25, point 2): signed-in writes and anonymous reads against a running server on
// PostgreSQL while every connection of its database is ended, round after round. Counts answers by
// status and says whether the process survived and answers again afterwards.
//   node scripts/drills/db-connection-loss.mjs --base=http://127.0.0.1:3102 --db=bvdb_kill \
//     --admin=postgres://postgres@127.0.0.1:5432/postgres --email=… --password=… [--rounds=4]
import pg from 'pg';

const arg = (name, fallback) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const base = arg('base', 'http://127.0.0.1:3102');
const dbName = arg('db', 'bvdb_kill');
const rounds = Number(arg('rounds', '4'));

const signIn = await fetch(`${base}/users/sign_in`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: arg('email'), password: arg('password') }),
});
const cookie = signIn.headers
  .getSetCookie()
  .map((c) => c.split(';')[0])
  .join('; ');
const { csrf_token: csrf } = await signIn.json();
const admin = new pg.Client({
  connectionString: arg('admin', 'postgres://postgres@127.0.0.1:5432/postgres'),
});
await admin.connect();

const statuses = {};
const count = (s) => (statuses[s] = (statuses[s] ?? 0) + 1);
for (let round = 0; round < rounds; round++) {
  const requests = [];
  for (let i = 0; i < 30; i++) {
    const name = `drill-${Date.now()}-${round}-${i}`;
    requests.push(
      fetch(`${base}/api/units`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf },
        body: JSON.stringify({ name }),
      }).then(
        (r) => r.status,
        () => 'connection failed',
      ),
      fetch(`${base}/api/analytes/${(i % 40) + 1}?r=${round}`).then(
        (r) => r.status,
        () => 'connection failed',
      ),
    );
  }
  await new Promise((r) => setTimeout(r, 15));
  await admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [dbName],
  );
  for (const s of await Promise.all(requests)) count(s);
  await new Promise((r) => setTimeout(r, 1000));
}
await admin.end();
const after = await fetch(`${base}/readyz`).then(
  (r) => r.status,
  () => 'process gone',
);
console.log(JSON.stringify({ rounds, statuses, readyzAfter: after }));
