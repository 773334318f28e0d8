import type { CreateUserBody, Role, UpdateUserBody, User } from '@bvdb/contract';
import { AppError, notFound } from '../../lib/app-error.js';
import { hashPassword } from '../../lib/password.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { isUniqueViolation, NO_PUBLIC_DATA, writeTransaction } from '../../lib/write-transaction.js';
import { deleteSessionsOfUser } from './session.repository.js';
import { presentUser } from './users.presenter.js';
import * as repo from './users.repository.js';

type Deps = Pick<ServiceDeps, 'db'>;

/** Accounts as operators create them (the CLI and the first-start seed). */
export async function createUser(
  deps: Deps,
  input: { email: string; name: string | null; role: Role; password: string },
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

/** A user as other modules see them (the appraisal workflow's assessors). */
export interface UserBrief {
  id: number;
  email: string;
  name: string | null;
  role: string;
  active: boolean;
}

const briefOf = (r: repo.UserRow): UserBrief => ({
  id: r.id,
  email: r.email,
  name: r.name,
  role: r.role,
  active: r.active,
});

export async function findUserBrief(deps: Deps, id: number): Promise<UserBrief | undefined> {
  const row = await repo.findUserById(deps.db, id);
  return row ? briefOf(row) : undefined;
}

/** Active accounts of every role: anyone may be asked to appraise (decision 008). */
export async function listActiveUserBriefs(deps: Deps): Promise<UserBrief[]> {
  return (await repo.listActiveUsers(deps.db)).map(briefOf);
}

/** The administration of users (the /users page). */
export class UserAdminService {
  constructor(private readonly deps: Pick<ServiceDeps, 'db' | 'cache'>) {}

  async list(): Promise<User[]> {
    return (await repo.listUsers(this.deps.db)).map(presentUser);
  }

  async create(input: CreateUserBody): Promise<User> {
    if (await repo.findUserByEmail(this.deps.db, input.email)) {
      throw new AppError('conflict', `A user with the e-mail ${input.email} exists already.`);
    }
    const passwordHash = await hashPassword(input.password);
    try {
      const row = await writeTransaction(
        this.deps,
        (tx) =>
          repo.insertUser(tx, {
            email: input.email,
            name: input.name?.trim() ? input.name.trim() : null,
            role: input.role,
            passwordHash,
          }),
        NO_PUBLIC_DATA,
      );
      return presentUser(row);
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new AppError('conflict', `A user with the e-mail ${input.email} exists already.`);
      }
      throw err;
    }
  }

  async update(id: number, input: UpdateUserBody, actingUserId: number): Promise<User> {
    const row = await writeTransaction(
      this.deps,
      async (tx) => {
        const before = await repo.lockUser(tx, id);
        if (!before) throw notFound(`User ${id}`);
        if (before.version !== input.version) {
          throw new AppError('conflict', 'This user was changed after you loaded the list; reload it.', {
            current: presentUser(before),
          });
        }
        const demotes = input.role !== undefined && input.role !== 'admin';
        if (id === actingUserId && (demotes || input.active === false)) {
          throw new AppError(
            'unprocessable',
            'You cannot remove your own administrator role or deactivate yourself; ask another administrator.',
          );
        }
        const after = await repo.updateUserRow(tx, id, {
          ...(input.role !== undefined ? { role: input.role } : {}),
          ...(input.active !== undefined ? { active: input.active } : {}),
          version: before.version + 1,
        });
        if (after.role !== before.role || !after.active) await deleteSessionsOfUser(tx, id);
        return after;
      },
      NO_PUBLIC_DATA,
    );
    return presentUser(row);
  }

  async setPassword(id: number, password: string): Promise<void> {
    const user = await repo.findUserById(this.deps.db, id);
    if (!user) throw notFound(`User ${id}`);
    const passwordHash = await hashPassword(password);
    await writeTransaction(
      this.deps,
      async (tx) => {
        await repo.updatePasswordHash(tx, id, passwordHash);
        await deleteSessionsOfUser(tx, id);
      },
      NO_PUBLIC_DATA,
    );
  }
}
