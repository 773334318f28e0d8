import type { ContentSlug } from '@bvdb/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { contentPages } from '../../db/schema.js';

export async function findContentPage(db: DbOrTx, slug: ContentSlug) {
  const [row] = await db.select().from(contentPages).where(eq(contentPages.slug, slug));
  return row;
}

/** Saves the page if it is still at `version`, as the next version; undefined when it was not. */
export async function updateContentPage(
  db: DbOrTx,
  slug: ContentSlug,
  input: { title: string; markdown: string; version: number },
) {
  const [row] = await db
    .update(contentPages)
    .set({
      title: input.title,
      markdown: input.markdown,
      version: sql`${contentPages.version} + 1`,
      updatedAt: new Date(),
    })
    .where(and(eq(contentPages.slug, slug), eq(contentPages.version, input.version)))
    .returning();
  return row;
}

/** Adds the pages that are missing; an existing page (perhaps edited) is left as it is. */
export async function insertMissingPages(
  db: DbOrTx,
  pages: { id: number; slug: ContentSlug; title: string; markdown: string }[],
): Promise<void> {
  for (const page of pages) await db.insert(contentPages).values(page).onConflictDoNothing();
}
