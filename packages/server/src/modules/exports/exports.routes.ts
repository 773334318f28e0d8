import { exportByAnalyte, exportByReference, exportDatabase, type MetaRecord } from '@bvdb/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cachedFile } from '../../lib/cached-json.js';
import { notFound } from '../../lib/app-error.js';
import { route } from '../../plugins/contract-routes.js';
import { findAnalyte } from '../analytes/analytes.repository.js';
import { findReference } from '../references/references.repository.js';
import { listDatasets } from '../datasets/datasets.repository.js';
import { presentDataset } from '../datasets/datasets.presenter.js';
import { listDatasetsOfMetas, listDisplayedMetas, listMetasOfAnalyte } from '../metas/metas.repository.js';
import { presentMeta } from '../metas/metas.presenter.js';
import { CITATION, DATA_USE_NOTICE } from './export-columns.js';
import { datasetsToCsv, streamWorkbook } from './xlsx-writer.js';

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

async function workbookBuffer(input: Parameters<typeof streamWorkbook>[0]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of streamWorkbook(input)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A spreadsheet download, built once per data generation for anonymous callers (lib/cached-json.ts). */
function sendXlsx(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  sameForEveryone: boolean,
  build: () => Promise<Buffer>,
): Promise<FastifyReply> {
  const headers = { 'Content-Disposition': `attachment; filename="${name}.xlsx"` };
  return cachedFile(request, reply, { type: XLSX, compress: false, headers, sameForEveryone }, build);
}

export function registerExportRoutes(app: FastifyInstance): void {
  const db = () => app.deps.database.db;
  const notice = {
    dataUse: app.deps.config.DATA_USE_NOTICE ?? DATA_USE_NOTICE,
    citation: app.deps.config.CITATION ?? CITATION,
  };

  async function metasWithDatasets(rows: Awaited<ReturnType<typeof listMetasOfAnalyte>>) {
    const links = await listDatasetsOfMetas(
      db(),
      rows.map((r) => r.meta.id),
    );
    return rows.map((r) => ({
      ...presentMeta(
        r,
        links.filter((l) => l.metaId === r.meta.id),
      ),
      analyte: r.analyteName,
    }));
  }

  route(app, exportByAnalyte, async ({ params, request, reply }) => {
    const analyte = await findAnalyte(db(), params.file);
    if (!analyte) throw notFound(`Measurand ${params.file}`);
    return sendXlsx(request, reply, fileName('BV', analyte.displayName), false, async () => {
      const datasets = (
        await listDatasets(db(), { signedIn: request.user != null, analyteId: analyte.id })
      ).map(presentDataset);
      const metas = await metasWithDatasets(await listMetasOfAnalyte(db(), analyte.id));
      return workbookBuffer({
        title: `Biological variation data: ${analyte.displayName}`,
        datasets,
        metas,
        generatedAt: new Date(),
        notice,
      });
    });
  });

  route(app, exportByReference, async ({ params, request, reply }) => {
    const reference = await findReference(db(), params.file);
    if (!reference) throw notFound(`Reference ${params.file}`);
    const firstAuthor = reference.author?.split(',')[0] ?? 'reference';
    const name = fileName('BV', firstAuthor, String(reference.yearOfPublication ?? ''), `ref${reference.id}`);
    return sendXlsx(request, reply, name, false, async () => {
      const datasets = (
        await listDatasets(db(), { signedIn: request.user != null, referenceId: reference.id })
      ).map(presentDataset);
      const analyteIds = [...new Set(datasets.map((d) => d.analyte_id))];
      const metas: (MetaRecord & { analyte: string })[] = [];
      for (const id of analyteIds) {
        const all = await metasWithDatasets(await listMetasOfAnalyte(db(), id));
        metas.push(...all.filter((m) => m.datasets.some((d) => d.reference_id === reference.id)));
      }
      return workbookBuffer({
        title: `Biological variation data from: ${reference.title}`,
        datasets,
        metas,
        generatedAt: new Date(),
        notice,
      });
    });
  });

  route(app, exportDatabase, async ({ params, request, reply }) => {
    // Published data only, whoever asks: the same file for everyone, so always cached.
    const stamp = new Date().toISOString().slice(0, 10);
    const published = async () => (await listDatasets(db(), { signedIn: false })).map(presentDataset);
    if (params.file === 'bv_database.csv') {
      return cachedFile(
        request,
        reply,
        {
          type: 'text/csv; charset=utf-8',
          compress: true,
          sameForEveryone: true,
          headers: { 'Content-Disposition': `attachment; filename="bv_database_${stamp}.csv"` },
        },
        async () => Buffer.from(datasetsToCsv(await published()), 'utf8'),
      );
    }
    return sendXlsx(request, reply, `bv_database_${stamp}`, true, async () =>
      workbookBuffer({
        title: 'Biological variation database: all published data',
        datasets: await published(),
        metas: await metasWithDatasets(await listDisplayedMetas(db())),
        generatedAt: new Date(),
        notice,
      }),
    );
  });
}
