import { exportByAnalyte, exportByReference, exportDatabase, type MetaRecord } from '@bvdb/contract';
import contentDisposition from 'content-disposition';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cachedFile } from '../../lib/cached-json.js';
import { notFound } from '../../lib/app-error.js';
import { route } from '../../plugins/contract-routes.js';
import { findAnalyte } from '../analytes/analytes.service.js';
import { findReference } from '../references/references.service.js';
import { listPresentedDatasets } from '../datasets/datasets.service.js';
import {
  listPresentedMetas,
  listPresentedMetasOfAnalyte,
} from '../meta-analysis/results/meta-results.service.js';
import { exportNotice } from './exports.service.js';
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
  build: () => Promise<{ name: string; workbook: Parameters<typeof streamWorkbook>[0] }>,
): Promise<FastifyReply> {
  return cachedFile(request, reply, { type: XLSX, compress: false, sameForEveryone }, async () => {
    const { name, workbook } = await build();
    return { bytes: await workbookBuffer(workbook), headers: attachment(`${name}.xlsx`) };
  });
}

export function registerExportRoutes(app: FastifyInstance): void {
  const db = () => app.deps.database.db;
  const notice = exportNotice(app.deps.config);

  route(app, exportByAnalyte, async ({ params, request, reply }) =>
    sendXlsx(request, reply, false, async () => {
      const analyte = await findAnalyte(db(), params.file);
      if (!analyte) throw notFound(`Measurand ${params.file}`);
      const datasets = await listPresentedDatasets(db(), {
        signedIn: request.user != null,
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
        signedIn: request.user != null,
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

  route(app, exportDatabase, async ({ params, request, reply }) => {
    // Published data only, whoever asks: the same file for everyone, so always cached.
    const stamp = new Date().toISOString().slice(0, 10);
    const published = async () => await listPresentedDatasets(db(), { signedIn: false });
    if (params.file === 'bv_database.csv') {
      const type = 'text/csv; charset=utf-8';
      return cachedFile(request, reply, { type, compress: true, sameForEveryone: true }, async () => ({
        bytes: Buffer.from(datasetsToCsv(await published()), 'utf8'),
        headers: attachment(`bv_database_${stamp}.csv`),
      }));
    }
    return sendXlsx(request, reply, true, async () => ({
      name: `bv_database_${stamp}`,
      workbook: {
        title: 'Biological variation database: all published data',
        datasets: await published(),
        metas: await listPresentedMetas(db()),
        generatedAt: new Date(),
        notice,
      },
    }));
  });
}
