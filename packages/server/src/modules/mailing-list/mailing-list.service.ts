import type { MailingListMember } from '@bvdb/contract';
import { desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { mailingListMembers } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { isUniqueViolation, writeTransaction } from '../../lib/write-transaction.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { addMailgunListMember, MailgunError, type MailgunSettings } from './mailgun-client.js';

type Row = typeof mailingListMembers.$inferSelect;

export function presentMember(r: Row): MailingListMember {
  return {
    id: r.id,
    email: r.email,
    name: r.name,
    synced_at: r.syncedAt?.toISOString() ?? null,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

/**
 * Members are kept in our database first (one per e-mail address, case-insensitive), then sent to the
 * provider when one is configured; a provider failure leaves the member stored and unsynced.
 */
export class MailingListService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly provider: MailgunSettings | null,
  ) {}

  list(): Promise<MailingListMember[]> {
    return this.app.deps.database.db
      .select()
      .from(mailingListMembers)
      .orderBy(desc(mailingListMembers.updatedAt), desc(mailingListMembers.id))
      .limit(1000)
      .then((rows) => rows.map(presentMember));
  }

  async add(input: {
    email: string;
    name?: string | undefined;
  }): Promise<{ member: MailingListMember; synced: boolean }> {
    const name = input.name?.trim() ? input.name.trim() : null;
    let row: Row;
    try {
      row = await this.store(input.email, name);
    } catch (err) {
      // Two admins adding the same address at once: the second one updates.
      if (!isUniqueViolation(err)) throw err;
      row = await this.store(input.email, name);
    }
    if (!this.provider) return { member: presentMember(row), synced: false };
    try {
      await addMailgunListMember(this.provider, { email: row.email, name: row.name });
    } catch (err) {
      if (!(err instanceof MailgunError)) throw err;
      this.app.log.warn({ err: err.message }, 'mailing list: provider sync failed');
      throw new AppError(
        'bad_gateway',
        `${row.email} was saved here, but the mailing-list provider did not accept it: ${err.message}. Try again later.`,
      );
    }
    const [synced] = await this.app.deps.database.db
      .update(mailingListMembers)
      .set({ syncedAt: new Date() })
      .where(eq(mailingListMembers.id, row.id))
      .returning();
    return { member: presentMember(synced ?? row), synced: true };
  }

  private store(email: string, name: string | null): Promise<Row> {
    return writeTransaction(serviceDeps(this.app), async (tx) => {
      const [existing] = await tx
        .select()
        .from(mailingListMembers)
        .where(sql`lower(${mailingListMembers.email}) = lower(${email})`)
        .for('update');
      if (existing) {
        const [updated] = await tx
          .update(mailingListMembers)
          .set({ email, name: name ?? existing.name, updatedAt: new Date() })
          .where(eq(mailingListMembers.id, existing.id))
          .returning();
        return updated!;
      }
      const [inserted] = await tx.insert(mailingListMembers).values({ email, name }).returning();
      return inserted!;
    });
  }
}
