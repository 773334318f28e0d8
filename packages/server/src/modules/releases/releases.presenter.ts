import type { Release, ReleaseBuild } from '@bvdb/contract';
import type { FileInfo, MailingRow, ReleaseRow } from './releases.repository.js';

export const releaseFileUrl = (version: string, name: string) =>
  `/api/v1/releases/${version}/files/${encodeURIComponent(name)}`;

export function presentRelease(row: ReleaseRow, files: FileInfo[]): Release {
  return {
    version: row.version,
    published_at: (row.publishedAt ?? row.requestedAt).toISOString(),
    notes: row.notes,
    files: files.map((f) => ({
      name: f.name,
      bytes: f.size,
      sha256: f.sha256,
      url: releaseFileUrl(row.version, f.name),
    })),
  };
}

export function presentBuild(row: ReleaseRow, mailing: MailingRow | null): ReleaseBuild {
  return {
    version: row.version,
    status: row.status as ReleaseBuild['status'],
    cause: row.cause as ReleaseBuild['cause'],
    requested_at: row.requestedAt.toISOString(),
    published_at: row.publishedAt?.toISOString() ?? null,
    error: row.error,
    mailing: mailing
      ? {
          subject: mailing.subject,
          text: mailing.text,
          recipients: mailing.recipients,
          sent: mailing.sent,
          failed: mailing.failed,
          delivery: mailing.delivery as 'sent' | 'stored',
        }
      : null,
  };
}
