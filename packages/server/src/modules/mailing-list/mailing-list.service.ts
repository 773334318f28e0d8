import type { MailingListMember } from '@bvdb/contract';
import { AppError } from '../../lib/app-error.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { isUniqueViolation, NO_PUBLIC_DATA, writeTransaction } from '../../lib/write-transaction.js';
import { addMailgunListMember, MailgunError, type MailgunSettings } from './mailgun-client.js';
import { presentMember } from './mailing-list.presenter.js';
import * as repo from './mailing-list.repository.js';
import type { DbOrTx } from '../../db/client.js';

/** Every member's address (a release's notes go to each, decision 058). */
export const listMemberAddresses = (db: DbOrTx) => repo.listAllAddresses(db);

/**
 * Members are kept in our database first (one per e-mail address, case-insensitive), then sent to the
 * provider when one is configured; a provider failure leaves the member stored and unsynced.
 */
export class MailingListService {
  constructor(
    private readonly deps: Pick<ServiceDeps, 'db' | 'cache' | 'log'>,
    private readonly provider: MailgunSettings | null,
  ) {}

  async list(): Promise<MailingListMember[]> {
    return (await repo.listMembers(this.deps.db)).map(presentMember);
  }

  /** An administrator adds or edits a member: the name given replaces the stored one. */
  async add(input: {
    email: string;
    name?: string | undefined;
  }): Promise<{ member: MailingListMember; synced: boolean }> {
    return this.storeAndSync(input, 'update');
  }

  /**
   * A visitor subscribes: an address already on the list stays exactly as stored (its name and
   * spelling), so anyone who knows a member's address cannot rename them.
   */
  async subscribe(input: {
    email: string;
    name?: string | undefined;
  }): Promise<{ member: MailingListMember; synced: boolean }> {
    return this.storeAndSync(input, 'keep');
  }

  private async storeAndSync(
    input: { email: string; name?: string | undefined },
    existing: 'update' | 'keep',
  ): Promise<{ member: MailingListMember; synced: boolean }> {
    const name = input.name?.trim() ? input.name.trim() : null;
    let row: repo.MemberRow;
    try {
      row = await this.store(input.email, name, existing);
    } catch (err) {
      // The same address added twice at once: the second one finds the first.
      if (!isUniqueViolation(err)) throw err;
      row = await this.store(input.email, name, existing);
    }
    if (!this.provider) return { member: presentMember(row), synced: false };
    try {
      await addMailgunListMember(this.provider, { email: row.email, name: row.name });
    } catch (err) {
      if (!(err instanceof MailgunError)) throw err;
      this.deps.log.warn({ err: err.message }, 'mailing list: provider sync failed');
      throw new AppError(
        'bad_gateway',
        `${row.email} was saved here, but the mailing-list provider did not accept it: ${err.message}. Try again later.`,
      );
    }
    const synced = await repo.markMemberSynced(this.deps.db, row.id);
    return { member: presentMember(synced ?? row), synced: true };
  }

  private store(email: string, name: string | null, onExisting: 'update' | 'keep'): Promise<repo.MemberRow> {
    return writeTransaction(
      this.deps,
      async (tx) => {
        const existing = await repo.lockMemberByEmail(tx, email);
        if (existing && onExisting === 'keep') return existing;
        if (existing) return repo.updateMember(tx, existing.id, { email, name: name ?? existing.name });
        return repo.insertMember(tx, email, name);
      },
      NO_PUBLIC_DATA,
    );
  }
}
