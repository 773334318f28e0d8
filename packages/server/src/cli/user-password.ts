import { PasswordSchema } from '@bvdb/contract';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { sessions, users } from '../db/schema.js';
import { hashPassword } from '../lib/password.js';
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
  const [user] = await database.db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email.data})`);
  if (!user) {
    console.error(`No user with the e-mail ${email.data}.`);
    process.exitCode = 1;
  } else {
    const passwordHash = await hashPassword(password.data);
    await database.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ passwordHash, failedAttempts: 0, lockedUntil: null })
        .where(eq(users.id, user.id));
      await tx.delete(sessions).where(eq(sessions.userId, user.id));
    });
    console.log(`Password changed for ${email.data}; their sessions have ended.`);
  }
} finally {
  await database.close();
}
