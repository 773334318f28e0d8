import { normaliseDoi, type Reference, type ReferenceBody } from '@bvdb/contract';
import type { DbOrTx } from '../../db/client.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { FileCache } from '../../lib/file-cache.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { isUniqueViolation, writeTransaction } from '../../lib/write-transaction.js';
import { recordAudit } from '../audit/index.js';
import { fileCopyGroup } from './reference-file.service.js';
import { auditSnapshot, presentReference } from './references.presenter.js';
import * as repo from './references.repository.js';

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

const DUPLICATE_DOI = 'Another reference already has this doi';

async function assertDoiFree(tx: DbOrTx, doi: string | null, exceptId?: number): Promise<void> {
  if (doi === null) return;
  const other = await repo.findReferenceWithDoi(tx, doi, exceptId);
  if (other)
    throw new AppError('conflict', `${DUPLICATE_DOI} (reference ${other.id})`, {
      fields: [{ path: 'body.doi', message: DUPLICATE_DOI }],
    });
}

/** Create, edit and delete references: one transaction each, with the audit entry and the cache bump. */
export class ReferenceWriteService {
  /** `copies`: the article files' copies on disk, dropped with their reference (none in a CLI). */
  constructor(
    private readonly deps: Pick<ServiceDeps, 'db' | 'cache'>,
    private readonly copies?: FileCache,
  ) {}

  async create(body: ReferenceBody, userId: number): Promise<Reference> {
    try {
      return await writeTransaction(
        this.deps,
        async (tx) => {
          const values = columnsOf(body);
          await assertDoiFree(tx, values.doi);
          const row = await repo.insertReference(tx, values);
          await recordAudit(tx, {
            userId,
            entity: 'reference',
            entityId: row.id,
            action: 'create',
            after: auditSnapshot(row),
          });
          return presentReference(row, 0);
        },
        ['references'],
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('conflict', DUPLICATE_DOI);
      throw err;
    }
  }

  /** Several references at once (a citation file): one transaction, an audit entry each; all or none. */
  async createMany(bodies: ReferenceBody[], userId: number): Promise<Reference[]> {
    try {
      return await writeTransaction(this.deps, async (tx) => {
        const created: Reference[] = [];
        for (const body of bodies) {
          const values = columnsOf(body);
          await assertDoiFree(tx, values.doi);
          const row = await repo.insertReference(tx, values);
          await recordAudit(tx, {
            userId,
            entity: 'reference',
            entityId: row.id,
            action: 'create',
            after: auditSnapshot(row),
          });
          created.push(presentReference(row, 0));
        }
        return created;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('conflict', DUPLICATE_DOI);
      throw err;
    }
  }

  async update(id: number, body: ReferenceBody & { version: number }, userId: number): Promise<Reference> {
    try {
      return await writeTransaction(
        this.deps,
        async (tx) => {
          const before = await repo.findReference(tx, id);
          if (!before) throw notFound(`Reference ${id}`);
          const used = await repo.countAllDatasetsOfReference(tx, id);
          if (before.version !== body.version) {
            throw new AppError(
              'conflict',
              'Someone else saved this reference after you opened it; your changes were not saved. The form now shows the current values.',
              { current: presentReference(before, used) },
            );
          }
          const values = columnsOf(body);
          await assertDoiFree(tx, values.doi, id);
          const row = await repo.updateReference(tx, id, body.version, values);
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
        },
        ['references'],
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('conflict', DUPLICATE_DOI);
      throw err;
    }
  }

  /** Deletes an unused reference; with `version`, only if nobody saved it since that version. */
  async remove(id: number, userId: number, version?: number): Promise<void> {
    await writeTransaction(
      this.deps,
      async (tx) => {
        // Lock the row so no dataset can be attached between the count and the delete.
        const before = await repo.lockReference(tx, id);
        if (!before) throw notFound(`Reference ${id}`);
        const used = await repo.countAllDatasetsOfReference(tx, id);
        if (version !== undefined && before.version !== version) {
          throw new AppError(
            'conflict',
            'Someone else saved this reference after you opened it; it was not deleted. Look at the current values first.',
            { current: presentReference(before, used) },
          );
        }
        if (used > 0) {
          throw new AppError(
            'conflict',
            `This reference cannot be deleted: ${used} dataset${used === 1 ? ' uses' : 's use'} it. Delete those datasets or move them to another reference first.`,
          );
        }
        await repo.deleteReference(tx, id);
        await recordAudit(tx, {
          userId,
          entity: 'reference',
          entityId: id,
          action: 'delete',
          before: auditSnapshot(before),
        });
      },
      ['references'],
    );
    // Its article file went with it (on delete cascade); so goes the copy on disk.
    await this.copies?.forget(fileCopyGroup(id));
  }
}
