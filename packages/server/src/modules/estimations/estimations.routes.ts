import multipart from '@fastify/multipart';
import {
  createEstimation,
  ESTIMATION_MAX_FILE_BYTES,
  getEstimationTemplate,
  type EstimationResponse,
} from '@bvdb/contract';
import contentDisposition from 'content-disposition';
import type { FastifyInstance } from 'fastify';
import { readUploadForThread } from '../../lib/read-upload.js';
import { route } from '../../plugins/contract-routes.js';
import { buildEstimationTemplateCsv, buildEstimationTemplateXlsx } from './estimation-template.js';
import {
  checkJsonShape,
  checkTextSize,
  createEstimationPool,
  estimateOffThread,
  mappingFromQuery,
  optionsFromQuery,
} from './estimations.service.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Estimation of biological variation from raw results (issue 31, decision 054): public, nothing
 * stored, the work on a pool of threads. A plugin of its own: multipart and the TSV parser only here.
 */
export async function registerEstimationRoutes(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: ESTIMATION_MAX_FILE_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024 },
  });
  app.addContentTypeParser('text/tab-separated-values', { parseAs: 'string' }, (_req, text, done) =>
    done(null, text),
  );
  const pool = createEstimationPool();
  app.addHook('onClose', () => pool.close());

  route(app, createEstimation, async ({ request, reply, body, query }) => {
    const mapping = mappingFromQuery(query);
    const options = optionsFromQuery(query);
    const xlsx = query.format === 'xlsx';
    const answer = (result: EstimationResponse | Uint8Array) =>
      result instanceof Uint8Array
        ? reply
            .type(XLSX)
            .header('Content-Disposition', contentDisposition('bvdb_estimation_report.xlsx'))
            .send(Buffer.from(result.buffer, result.byteOffset, result.byteLength))
        : result;
    if (request.isMultipart()) {
      const upload = await readUploadForThread(request, {
        maxBytes: ESTIMATION_MAX_FILE_BYTES,
        choose: 'Choose a CSV, TSV or .xlsx file of subject, sample, replicate, value',
        hint: 'split the study by analyte',
      });
      return answer(await estimateOffThread(pool, { xlsx, kind: 'file', ...upload, mapping, options }));
    }
    if (typeof body === 'string') {
      checkTextSize(body);
      const tsv = /tab-separated/i.test(request.headers['content-type'] ?? '');
      return answer(await estimateOffThread(pool, { xlsx, kind: 'text', text: body, tsv, mapping, options }));
    }
    checkJsonShape(body);
    return answer(await estimateOffThread(pool, { xlsx, kind: 'json', body }));
  });

  let xlsx: Promise<Buffer> | null = null;
  route(app, getEstimationTemplate, async ({ params, reply }) => {
    if (params.file === 'template.csv') {
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', contentDisposition('bvdb_estimation_template.csv'))
        .header('Cache-Control', 'public, max-age=3600')
        .send(buildEstimationTemplateCsv());
    }
    xlsx ??= buildEstimationTemplateXlsx();
    return reply
      .type(XLSX)
      .header('Content-Disposition', contentDisposition('bvdb_estimation_template.xlsx'))
      .header('Cache-Control', 'public, max-age=3600')
      .send(await xlsx);
  });
}
