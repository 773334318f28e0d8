import { and, asc, count, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { idIn } from '../../db/id-in.js';
import { bvSpecifications, references } from '../../db/schema.js';

export async function findReference(db: DbOrTx, id: number) {
  const [row] = await db.select().from(references).where(eq(references.id, id));
  return row;
}

/** The titles of references by id, in one query (ids that do not exist are left out). */
export async function findReferenceTitles(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: references.id, title: references.title })
    .from(references)
    .where(idIn(references.id, ids));
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function searchCondition(search: string | undefined): SQL | undefined {
  const s = search?.trim();
  if (!s) return undefined;
  const pattern = `%${escapeLike(s)}%`;
  return or(
    ilike(references.title, pattern),
    ilike(references.author, pattern),
    ilike(references.journal, pattern),
    ilike(references.doi, pattern),
    sql`${references.yearOfPublication}::text = ${s}`,
  );
}

/**
 * References with how many datasets (visible to the caller) use each. Those with a dataset come
 * first, newest first, a reference without a year after the dated ones; references nobody's
 * dataset uses yet close the list (docs/decisions/023).
 */
export async function listReferences(
  db: DbOrTx,
  opts: { signedIn: boolean; search?: string; limit?: number; offset?: number },
) {
  const used = db
    .select({ referenceId: bvSpecifications.referenceId, n: count().as('n') })
    .from(bvSpecifications)
    .where(opts.signedIn ? undefined : eq(bvSpecifications.published, true))
    .groupBy(bvSpecifications.referenceId)
    .as('used');
  let q = db
    .select({ reference: references, usedIn: sql<number>`coalesce(${used.n}, 0)::int` })
    .from(references)
    .leftJoin(used, eq(used.referenceId, references.id))
    .where(and(searchCondition(opts.search)))
    .orderBy(
      sql`coalesce(${used.n}, 0) = 0`,
      sql`${references.yearOfPublication} desc nulls last`,
      asc(references.title),
      asc(references.id),
    )
    .$dynamic();
  if (opts.limit !== undefined) q = q.limit(opts.limit);
  if (opts.offset !== undefined) q = q.offset(opts.offset);
  return q;
}

export async function countReferences(db: DbOrTx, search?: string) {
  const [row] = await db.select({ n: count() }).from(references).where(searchCondition(search));
  return row?.n ?? 0;
}

export async function countDatasetsOfReference(db: DbOrTx, id: number, signedIn: boolean) {
  const [row] = await db
    .select({ n: count() })
    .from(bvSpecifications)
    .where(
      and(eq(bvSpecifications.referenceId, id), signedIn ? undefined : eq(bvSpecifications.published, true)),
    );
  return row?.n ?? 0;
}

/** Datasets using the reference, published or not (what blocks a delete). */
export async function countAllDatasetsOfReference(db: DbOrTx, id: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(bvSpecifications)
    .where(eq(bvSpecifications.referenceId, id));
  return row?.n ?? 0;
}

/** Another reference with this DOI (DOIs compare case-insensitively), if any. */
export async function findReferenceWithDoi(db: DbOrTx, doi: string, exceptId?: number) {
  const [row] = await db
    .select({ id: references.id })
    .from(references)
    .where(
      and(
        sql`lower(${references.doi}) = lower(${doi})`,
        exceptId === undefined ? undefined : sql`${references.id} <> ${exceptId}`,
      ),
    )
    .limit(1);
  return row;
}

/** The reference, locked until the end of the transaction (nothing can attach to it meanwhile). */
export async function lockReference(tx: DbOrTx, id: number) {
  const [row] = await tx.select().from(references).where(eq(references.id, id)).for('update');
  return row;
}

export async function insertReference(tx: DbOrTx, values: typeof references.$inferInsert) {
  const [row] = await tx.insert(references).values(values).returning();
  return row!;
}

/** Saves the reference as its next version if it is still at `version`; undefined when it was not. */
export async function updateReference(
  tx: DbOrTx,
  id: number,
  version: number,
  values: Partial<typeof references.$inferInsert>,
) {
  const [row] = await tx
    .update(references)
    .set({ ...values, version: sql`${references.version} + 1`, updatedAt: new Date() })
    .where(and(eq(references.id, id), eq(references.version, version)))
    .returning();
  return row;
}

export async function deleteReference(tx: DbOrTx, id: number): Promise<void> {
  await tx.delete(references).where(eq(references.id, id));
}

/** Points the reference at its article file (or at none), as its next version. */
export async function setArticleFile(
  tx: DbOrTx,
  id: number,
  file: { name: string; key: string; type: string } | null,
) {
  const [row] = await tx
    .update(references)
    .set({
      articleFileName: file?.name ?? null,
      articleFileKey: file?.key ?? null,
      articleFileType: file?.type ?? null,
      version: sql`${references.version} + 1`,
      updatedAt: new Date(),
    })
    .where(eq(references.id, id))
    .returning();
  return row!;
}

/** What tells references apart (doi, PubMed address, title): for duplicates in imported citation files. */
export async function listReferenceKeys(db: DbOrTx) {
  return db
    .select({
      id: references.id,
      doi: references.doi,
      pubmedLink: references.pubmedLink,
      title: references.title,
    })
    .from(references);
}
