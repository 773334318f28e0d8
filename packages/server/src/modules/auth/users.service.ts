import { hashPassword } from '../../lib/password.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { deleteSessionsOfUser } from './session.repository.js';
import * as repo from './users.repository.js';

type Deps = Pick<ServiceDeps, 'db'>;

/** Accounts as operators manage them (the CLI and the first-start seed); no HTTP route creates users. */
export async function createUser(
  deps: Deps,
  input: { email: string; name: string | null; role: 'admin' | 'curator'; password: string },
): Promise<'created' | 'exists'> {
  if (await repo.findUserByEmail(deps.db, input.email)) return 'exists';
  const { password, ...user } = input;
  await repo.insertUser(deps.db, { ...user, passwordHash: await hashPassword(password) });
  return 'created';
}

/** Sets a new password and ends every session of the user; false when no user has this e-mail. */
export async function resetPassword(deps: Deps, email: string, password: string): Promise<boolean> {
  const user = await repo.findUserByEmail(deps.db, email);
  if (!user) return false;
  const passwordHash = await hashPassword(password);
  await deps.db.transaction(async (tx) => {
    await repo.updatePasswordHash(tx, user.id, passwordHash);
    await deleteSessionsOfUser(tx, user.id);
  });
  return true;
}

export const hasAnyUser = (deps: Deps): Promise<boolean> => repo.hasAnyUser(deps.db);
