import { and, asc, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { bvSpecifications, references } from '../../db/schema.js';

export async function findReference(db: DbOrTx, id: number) {
  const [row] = await db.select().from(references).where(eq(references.id, id));
  return row;
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

/** References with how many datasets (visible to the caller) use each. */
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
    .orderBy(desc(references.yearOfPublication), asc(references.title), asc(references.id))
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
