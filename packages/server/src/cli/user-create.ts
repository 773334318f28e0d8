import { PasswordSchema, ROLES } from '@bvdb/contract';
import { z } from 'zod';
import { createUser } from '../modules/auth/index.js';
import { argValue, openCliDatabase, readPassword } from './cli-database.js';

// npm run user:create -- --email someone@example.org [--name "Full Name"] [--role admin|curator|assessor]
// The password comes from BVDB_PASSWORD, or is asked for.
const email = z.email('--email must be an e-mail address').safeParse(argValue('email'));
if (!email.success) {
  console.error(
    'usage: npm run user:create -- --email someone@example.org [--name "Name"] [--role admin|curator|assessor]',
  );
  process.exit(2);
}
const role = z.enum(ROLES).safeParse(argValue('role') ?? 'curator');
if (!role.success) {
  console.error('--role must be admin, curator or assessor');
  process.exit(2);
}
const password = PasswordSchema.safeParse(await readPassword('Password (8-128 characters): '));
if (!password.success) {
  console.error(password.error.issues[0]?.message);
  process.exit(2);
}
const database = await openCliDatabase();
try {
  const outcome = await createUser(
    { db: database.db },
    { email: email.data, name: argValue('name') ?? null, role: role.data, password: password.data },
  );
  if (outcome === 'exists') {
    console.error(`A user with the e-mail ${email.data} exists already (use npm run user:password).`);
    process.exitCode = 1;
  } else {
    console.log(`Created ${role.data} ${email.data}.`);
  }
} finally {
  await database.close();
}
