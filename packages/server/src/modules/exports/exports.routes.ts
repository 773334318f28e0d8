import { exportByAnalyte, exportByReference, exportDatabase, type MetaRecord } from '@bvdb/contract';
import contentDisposition from 'content-disposition';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cachedCatalogue, cachedFile } from '../../lib/cached-json.js';
import { notFound } from '../../lib/app-error.js';
import { route, seesUnpublished } from '../../plugins/contract-routes.js';
import { buildCrosswalkCsv, findAnalyte, loincNoticeHeader } from '../analytes/index.js';
import { findReference } from '../references/index.js';
import { CATALOGUE_JSON, listPresentedDatasets, presentedDatasetPages } from '../datasets/index.js';
import { listPresentedMetasInPages, listPresentedMetasOfAnalyte } from '../meta-analysis/index.js';
import { Readable } from 'node:stream';
import { backupScopeFor, exportDatabaseJson, streamPublishedDatabaseJson } from '../backup/index.js';
import { exportNotice } from '../../lib/export-notice.js';
import { csvReleaseHeaders } from './exports.service.js';
import { buildCsvOffThread, buildWorkbookOffThread, streamWorkbookOffThread } from './export-worker.js';
import { datasetsCsvHeader, datasetsCsvRows } from './datasets-csv.js';
import type { ExportInput } from './xlsx-writer.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A file name a person recognises in their downloads folder, safe in a header. */
function fileName(...parts: string[]): string {
  return parts
    .join('_')
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/_+/g, '_')
    .slice(0, 120);
}

// The package quotes and escapes the name; fileName() has already made it plain ASCII.
const attachment = (name: string) => ({ 'Content-Disposition': contentDisposition(name) });

/**
 * A spreadsheet download, built once per data generation for anonymous callers (lib/cached-json.ts).
 * `build` looks the record up too, so a repeated download costs no query; it names the file.
 */
function sendXlsx(
  request: FastifyRequest,
  reply: FastifyReply,
  sameForEveryone: boolean,
  build: () => Promise<{ name: string; workbook: ExportInput }>,
): Promise<FastifyReply> {
  return cachedFile(request, reply, { type: XLSX, compress: false, sameForEveryone }, async () => {
    const { name, workbook } = await build();
    return { bytes: await buildWorkbookOffThread(workbook), headers: attachment(`${name}.xlsx`) };
  });
}

export function registerExportRoutes(app: FastifyInstance): void {
  const db = () => app.deps.database.db;
  const notice = exportNotice(app.deps.config);
  // The export thread started (and its spreadsheet code loaded) once the server is ready: the first
  // whole-database workbook's first bytes then leave at once instead of after ~1.3 s of a thread's
  // start on a busy machine (issue 44.2).
  app.lifecycle.afterReady.push(async () => {
    await buildCsvOffThread([]);
  });

  route(app, exportByAnalyte, async ({ params, request, reply }) =>
    sendXlsx(request, reply, false, async () => {
      const analyte = await findAnalyte(db(), params.file);
      if (!analyte) throw notFound(`Measurand ${params.file}`);
      const datasets = await listPresentedDatasets(db(), {
        signedIn: seesUnpublished(request),
        analyteId: analyte.id,
      });
      const metas = await listPresentedMetasOfAnalyte(db(), analyte.id);
      return {
        name: fileName('BV', analyte.displayName),
        workbook: {
          title: `Biological variation data: ${analyte.displayName}`,
          datasets,
          metas,
          generatedAt: new Date(),
          notice,
        },
      };
    }),
  );

  route(app, exportByReference, async ({ params, request, reply }) =>
    sendXlsx(request, reply, false, async () => {
      const reference = await findReference(db(), params.file);
      if (!reference) throw notFound(`Reference ${params.file}`);
      const firstAuthor = reference.author?.split(',')[0] ?? 'reference';
      const datasets = await listPresentedDatasets(db(), {
        signedIn: seesUnpublished(request),
        referenceId: reference.id,
      });
      const analyteIds = [...new Set(datasets.map((d) => d.analyte_id))];
      const metas: (MetaRecord & { analyte: string })[] = [];
      for (const id of analyteIds) {
        const all = await listPresentedMetasOfAnalyte(db(), id);
        metas.push(...all.filter((m) => m.datasets.some((d) => d.reference_id === reference.id)));
      }
      return {
        name: fileName('BV', firstAuthor, String(reference.yearOfPublication ?? ''), `ref${reference.id}`),
        workbook: {
          title: `Biological variation data from: ${reference.title}`,
          datasets,
          metas,
          generatedAt: new Date(),
          notice,
        },
      };
    }),
  );

  route(app, exportDatabase, async ({ params, query, request, reply }) => {
    const stamp = new Date().toISOString().slice(0, 10);
    if (params.file === 'bv_database.json') {
      // The lossless file `npm run import` reads (docs/decisions/024). Its published form is the
      // same for everyone who gets it: a kept file (decision 039); the others may hold unpublished
      // records and are built for each request. A backup is blind where its maker is (decision 038).
      const scope = backupScopeFor(request.user, query.full === '1');
      const name = scope === 'full' ? `bv_database_backup_${stamp}.json` : `bv_database_${stamp}.json`;
      if (scope === 'published') {
        return cachedCatalogue(
          request,
          reply,
          { type: 'application/json; charset=utf-8', compress: true, headers: attachment(name) },
          // Its head leaves before the tables are read: the first bytes go out at once (issue 44.2).
          () => streamPublishedDatabaseJson(db(), { release: notice }),
        );
      }
      const by = request.user ? { userId: request.user.id, email: request.user.email } : null;
      const chunks = await exportDatabaseJson(db(), scope, by, {
        sendsFile: request.method !== 'HEAD',
        release: notice,
      });
      return reply
        .type('application/json; charset=utf-8')
        .header('Cache-Control', 'private, no-store')
        .headers(attachment(name))
        .send(Readable.from(chunks));
    }
    if (params.file === 'bv_measurand_codes.csv') {
      // The crosswalk (decision 093): as /api/v1/measurand-codes.csv, with the release's headers too.
      return cachedFile(
        request,
        reply,
        { type: 'text/csv; charset=utf-8', compress: true, sameForEveryone: true, scopes: ['analytes'] },
        async () => ({
          bytes: Buffer.from(await buildCrosswalkCsv(db()), 'utf8'),
          headers: {
            ...attachment('bv_measurand_codes.csv'),
            ...csvReleaseHeaders(notice),
            'Bvdb-Loinc-Notice': loincNoticeHeader,
          },
        }),
      );
    }
    // Published data only, whoever asks: the same file for everyone, kept (decision 039). Read a
    // page at a time, the event loop free between pages (decision 085: 20,000 rows mapped and
    // presented in one go held it for over a second at 100× the demo data).
    if (params.file === 'bv_database.csv') {
      return cachedCatalogue(
        request,
        reply,
        {
          type: 'text/csv; charset=utf-8',
          compress: true,
          scopes: CATALOGUE_JSON.scopes,
          cacheControl: 'no-cache',
          headers: { ...attachment(`bv_database_${stamp}.csv`), ...csvReleaseHeaders(notice) },
        },
        // Sent a page at a time as it is read: the first bytes leave at once on the first ask
        // (issue 44.2), and a page's lines are a few milliseconds of work.
        async function* () {
          yield datasetsCsvHeader();
          for await (const page of presentedDatasetPages(db(), { signedIn: false }))
            yield datasetsCsvRows(page);
        },
      );
    }
    return cachedCatalogue(
      request,
      reply,
      {
        type: XLSX,
        compress: false,
        cacheControl: 'no-cache',
        headers: attachment(`bv_database_${stamp}.xlsx`),
      },
      // Written in the export thread as the results and the dataset pages are read, its bytes sent
      // as they are made: the first leave at once (issue 44.2).
      () =>
        streamWorkbookOffThread(
          { title: 'Biological variation database: all published data', generatedAt: new Date(), notice },
          listPresentedMetasInPages(db()),
          presentedDatasetPages(db(), { signedIn: false }),
        ),
    );
  });
}
