import { PasswordSchema } from '@bvdb/contract';
import { z } from 'zod';
import { resetPassword } from '../modules/auth/index.js';
import { argValue, openCliDatabase, readPassword } from './cli-database.js';

// npm run user:password -- --email someone@example.org   (ends the user's sessions)
const email = z.email().safeParse(argValue('email'));
if (!email.success) {
  console.error('usage: npm run user:password -- --email someone@example.org');
  process.exit(2);
}
const password = PasswordSchema.safeParse(await readPassword('New password (8-128 characters): '));
if (!password.success) {
  console.error(password.error.issues[0]?.message);
  process.exit(2);
}
const database = await openCliDatabase();
try {
  if (await resetPassword({ db: database.db }, email.data, password.data)) {
    console.log(`Password changed for ${email.data}; their sessions have ended.`);
  } else {
    console.error(`No user with the e-mail ${email.data}.`);
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
