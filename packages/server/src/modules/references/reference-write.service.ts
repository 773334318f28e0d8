import { normaliseDoi, type Reference, type ReferenceBody } from '@bvdb/contract';
import { and, count, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { DbOrTx } from '../../db/client.js';
import { bvSpecifications, references } from '../../db/schema.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { isUniqueViolation, writeTransaction } from '../../lib/write-transaction.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { recordAudit } from '../audit/audit.service.js';
import { presentReference } from './references.presenter.js';
import { findReference } from './references.repository.js';

type Row = typeof references.$inferSelect;

const blankToNull = (v: string | null | undefined) => (v === undefined || v === null || v === '' ? null : v);

/** The stored columns of a reference body: blanks become null, a DOI loses its doi.org prefix. */
function columnsOf(body: ReferenceBody) {
  const doi = blankToNull(body.doi);
  return {
    title: body.title,
    author: blankToNull(body.author),
    journal: blankToNull(body.journal),
    volume: body.volume ?? null,
    pages: blankToNull(body.pages),
    yearOfPublication: body.year_of_publication ?? null,
    pubmedLink: blankToNull(body.pubmed_link),
    doi: doi === null ? null : normaliseDoi(doi),
    link: blankToNull(body.link),
    linkToSpanishDatabase: body.link_to_spanish_database ?? 0,
    articleUrl: blankToNull(body.article_url),
  };
}

/** What the audit trail keeps of a reference: its public fields, without derived ones. */
export function auditSnapshot(r: Row): Record<string, unknown> {
  const { label: _label, bv_specifications_count: _count, ...rest } = presentReference(r, 0);
  return rest;
}

export async function countAllDatasetsOfReference(db: DbOrTx, id: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(bvSpecifications)
    .where(eq(bvSpecifications.referenceId, id));
  return row?.n ?? 0;
}

const DUPLICATE_DOI = 'Another reference already has this doi';

async function assertDoiFree(tx: DbOrTx, doi: string | null, exceptId?: number): Promise<void> {
  if (doi === null) return;
  const [other] = await tx
    .select({ id: references.id })
    .from(references)
    .where(
      and(
        sql`lower(${references.doi}) = lower(${doi})`,
        exceptId === undefined ? undefined : sql`${references.id} <> ${exceptId}`,
      ),
    )
    .limit(1);
  if (other)
    throw new AppError('conflict', `${DUPLICATE_DOI} (reference ${other.id})`, {
      fields: [{ path: 'body.doi', message: DUPLICATE_DOI }],
    });
}

/** Create, edit and delete references: one transaction each, with the audit entry and the cache bump. */
export class ReferenceWriteService {
  constructor(private readonly app: FastifyInstance) {}

  async create(body: ReferenceBody, userId: number): Promise<Reference> {
    try {
      return await writeTransaction(serviceDeps(this.app), async (tx) => {
        const values = columnsOf(body);
        await assertDoiFree(tx, values.doi);
        const [row] = await tx.insert(references).values(values).returning();
        await recordAudit(tx, {
          userId,
          entity: 'reference',
          entityId: row!.id,
          action: 'create',
          after: auditSnapshot(row!),
        });
        return presentReference(row!, 0);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('conflict', DUPLICATE_DOI);
      throw err;
    }
  }

  async update(id: number, body: ReferenceBody & { version: number }, userId: number): Promise<Reference> {
    try {
      return await writeTransaction(serviceDeps(this.app), async (tx) => {
        const before = await findReference(tx, id);
        if (!before) throw notFound(`Reference ${id}`);
        const used = await countAllDatasetsOfReference(tx, id);
        if (before.version !== body.version) {
          throw new AppError(
            'conflict',
            'Someone else saved this reference after you opened it; your changes were not saved. The form now shows the current values.',
            { current: presentReference(before, used) },
          );
        }
        const values = columnsOf(body);
        await assertDoiFree(tx, values.doi, id);
        const [row] = await tx
          .update(references)
          .set({ ...values, version: sql`${references.version} + 1`, updatedAt: new Date() })
          .where(and(eq(references.id, id), eq(references.version, body.version)))
          .returning();
        if (!row)
          throw new AppError('conflict', 'Someone else saved this reference at the same time; try again');
        await recordAudit(tx, {
          userId,
          entity: 'reference',
          entityId: id,
          action: 'update',
          before: auditSnapshot(before),
          after: auditSnapshot(row),
        });
        return presentReference(row, used);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('conflict', DUPLICATE_DOI);
      throw err;
    }
  }

  async remove(id: number, userId: number): Promise<void> {
    await writeTransaction(serviceDeps(this.app), async (tx) => {
      // Lock the row so no dataset can be attached between the count and the delete.
      const [before] = await tx.select().from(references).where(eq(references.id, id)).for('update');
      if (!before) throw notFound(`Reference ${id}`);
      const used = await countAllDatasetsOfReference(tx, id);
      if (used > 0) {
        throw new AppError(
          'conflict',
          `This reference cannot be deleted: ${used} dataset${used === 1 ? ' uses' : 's use'} it. Delete those datasets or move them to another reference first.`,
        );
      }
      await tx.delete(references).where(eq(references.id, id));
      await recordAudit(tx, {
        userId,
        entity: 'reference',
        entityId: id,
        action: 'delete',
        before: auditSnapshot(before),
      });
    });
  }
}
