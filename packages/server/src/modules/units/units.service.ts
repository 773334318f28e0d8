import type { Unit } from '@bvdb/contract';
import type { DbOrTx } from '../../db/client.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { isUniqueViolation, writeTransaction } from '../../lib/write-transaction.js';
import { recordAudit } from '../audit/index.js';
import { auditSnapshot, presentUnit } from './units.presenter.js';
import * as repo from './units.repository.js';

const nameTaken = (name: string) =>
  new AppError('conflict', `A unit named "${name}" already exists`, {
    fields: [{ path: 'body.name', message: 'This unit already exists' }],
  });

async function assertNameFree(tx: DbOrTx, name: string, exceptId?: number): Promise<void> {
  const other = await repo.findUnitByName(tx, name);
  if (other && other.id !== exceptId) throw nameTaken(name);
}

/** Units of measurement that datasets refer to: add, rename (optimistic version), delete when unused. */
export class UnitService {
  constructor(private readonly deps: Pick<ServiceDeps, 'db' | 'cache'>) {}

  async list(): Promise<Unit[]> {
    return (await repo.listUnitsWithUsage(this.deps.db)).map((u) => presentUnit(u, u.usageCount));
  }

  async create(name: string, userId: number): Promise<Unit> {
    try {
      return await writeTransaction(
        this.deps,
        async (tx) => {
          await assertNameFree(tx, name);
          const row = await repo.insertUnit(tx, name);
          await recordAudit(tx, {
            userId,
            entity: 'unit',
            entityId: row.id,
            action: 'create',
            after: auditSnapshot(row),
          });
          return presentUnit(row, 0);
        },
        ['lookups'],
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken(name);
      throw err;
    }
  }

  async rename(id: number, input: { name: string; version: number }, userId: number): Promise<Unit> {
    try {
      return await writeTransaction(
        this.deps,
        async (tx) => {
          const before = await repo.findUnitWithUsage(tx, id);
          if (!before) throw notFound(`Unit ${id}`);
          if (before.version !== input.version) {
            throw new AppError(
              'conflict',
              `Someone else changed this unit after you opened it (it is now "${before.name}"); your change was not saved`,
              { current: presentUnit(before, before.usageCount) },
            );
          }
          await assertNameFree(tx, input.name, id);
          const row = await repo.renameUnit(tx, id, input.name, input.version);
          if (!row)
            throw new AppError('conflict', 'Someone else changed this unit at the same time; try again');
          await recordAudit(tx, {
            userId,
            entity: 'unit',
            entityId: id,
            action: 'update',
            before: auditSnapshot(before),
            after: auditSnapshot(row),
          });
          return presentUnit(row, before.usageCount);
        },
        ['lookups'],
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken(input.name);
      throw err;
    }
  }

  /** Deletes an unused unit; with `version`, only if nobody renamed it since that version. */
  async remove(id: number, userId: number, version?: number): Promise<void> {
    await writeTransaction(
      this.deps,
      async (tx) => {
        const before = await repo.lockUnit(tx, id);
        if (!before) throw notFound(`Unit ${id}`);
        const used = await repo.countDatasetsUsingUnit(tx, id);
        if (version !== undefined && before.version !== version) {
          throw new AppError(
            'conflict',
            `Someone else changed this unit after you opened it (it is now "${before.name}"); it was not deleted`,
            { current: presentUnit(before, used) },
          );
        }
        if (used > 0) {
          throw new AppError(
            'conflict',
            `The unit "${before.name}" cannot be deleted: ${used} dataset${used === 1 ? ' uses' : 's use'} it. Change those datasets first.`,
          );
        }
        await repo.deleteUnit(tx, id);
        await recordAudit(tx, {
          userId,
          entity: 'unit',
          entityId: id,
          action: 'delete',
          before: auditSnapshot(before),
        });
      },
      ['lookups'],
    );
  }
}
