import type { ServiceDeps } from '../../lib/service-deps.js';
import { deliverMessages, siteLink } from '../mail/index.js';
import { listMemberAddresses } from '../mailing-list/index.js';
import * as repo from './releases.repository.js';

/**
 * Tells the mailing list (issue 30.4): the release notes to every member, one message each,
 * through Mailgun when it is configured. The message is kept with the release either way
 * (`release_mailings`), so administrators see on /releases what was sent, or what would have been.
 */
export async function announceRelease(
  deps: Pick<ServiceDeps, 'db' | 'config' | 'log'>,
  release: repo.ReleaseRow,
): Promise<void> {
  const subject = `EFLM Biological Variation Database: release ${release.version}`;
  const text =
    `${release.notes}\n` +
    `Files (JSON, CSV, xlsx, data package, citation, checksums): ${siteLink(deps, '/releases')}\n`;
  const to = await listMemberAddresses(deps.db);
  const outcome = await deliverMessages(
    deps,
    to.map((address) => ({ to: address, subject, text })),
  );
  await repo.saveMailing(deps.db, {
    releaseId: release.id,
    subject,
    text,
    recipients: to.length,
    sent: outcome?.sent ?? 0,
    failed: outcome?.failed ?? 0,
    delivery: outcome ? 'sent' : 'stored',
  });
}
