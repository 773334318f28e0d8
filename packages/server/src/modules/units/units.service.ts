import type { Unit } from '@bvdb/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { DbOrTx } from '../../db/client.js';
import { units } from '../../db/schema.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { isUniqueViolation, writeTransaction } from '../../lib/write-transaction.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { recordAudit } from '../audit/audit.service.js';
import * as repo from './units.repository.js';

const nameTaken = (name: string) =>
  new AppError('conflict', `A unit named "${name}" already exists`, {
    fields: [{ path: 'body.name', message: 'This unit already exists' }],
  });

async function assertNameFree(tx: DbOrTx, name: string, exceptId?: number): Promise<void> {
  const other = await repo.findUnitByName(tx, name);
  if (other && other.id !== exceptId) throw nameTaken(name);
}

const snapshot = (u: { id: number; name: string; version: number }) => ({
  id: u.id,
  name: u.name,
  version: u.version,
});

/** Units of measurement that datasets refer to: add, rename (optimistic version), delete when unused. */
export class UnitService {
  constructor(private readonly app: FastifyInstance) {}

  list(): Promise<Unit[]> {
    return repo.listUnitsWithUsage(this.app.deps.database.db);
  }

  async create(name: string, userId: number): Promise<Unit> {
    try {
      return await writeTransaction(serviceDeps(this.app), async (tx) => {
        await assertNameFree(tx, name);
        const [row] = await tx.insert(units).values({ name }).returning();
        await recordAudit(tx, {
          userId,
          entity: 'unit',
          entityId: row!.id,
          action: 'create',
          after: snapshot(row!),
        });
        return { id: row!.id, name: row!.name, version: row!.version, usage_count: 0 };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken(name);
      throw err;
    }
  }

  async rename(id: number, input: { name: string; version: number }, userId: number): Promise<Unit> {
    try {
      return await writeTransaction(serviceDeps(this.app), async (tx) => {
        const before = await repo.findUnitWithUsage(tx, id);
        if (!before) throw notFound(`Unit ${id}`);
        if (before.version !== input.version) {
          throw new AppError(
            'conflict',
            `Someone else changed this unit after you opened it (it is now "${before.name}"); your change was not saved`,
            { current: before },
          );
        }
        await assertNameFree(tx, input.name, id);
        const [row] = await tx
          .update(units)
          .set({ name: input.name, version: sql`${units.version} + 1`, updatedAt: new Date() })
          .where(and(eq(units.id, id), eq(units.version, input.version)))
          .returning();
        if (!row)
          throw new AppError('conflict', 'Someone else changed this unit at the same time; try again');
        await recordAudit(tx, {
          userId,
          entity: 'unit',
          entityId: id,
          action: 'update',
          before: snapshot(before),
          after: snapshot(row),
        });
        return { id: row.id, name: row.name, version: row.version, usage_count: before.usage_count };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken(input.name);
      throw err;
    }
  }

  async remove(id: number, userId: number): Promise<void> {
    await writeTransaction(serviceDeps(this.app), async (tx) => {
      const [before] = await tx.select().from(units).where(eq(units.id, id)).for('update');
      if (!before) throw notFound(`Unit ${id}`);
      const used = await repo.countDatasetsUsingUnit(tx, id);
      if (used > 0) {
        throw new AppError(
          'conflict',
          `The unit "${before.name}" cannot be deleted: ${used} dataset${used === 1 ? ' uses' : 's use'} it. Change those datasets first.`,
        );
      }
      await tx.delete(units).where(eq(units.id, id));
      await recordAudit(tx, {
        userId,
        entity: 'unit',
        entityId: id,
        action: 'delete',
        before: snapshot(before),
      });
    });
  }
}
