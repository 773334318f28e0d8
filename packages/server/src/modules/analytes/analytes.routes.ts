import {
  exportMeasurandCodes,
  getAnalyte,
  importMeasurandCodes,
  getMeasurandCodes,
  getMeasurandNames,
  listAnalytesWithCounts,
  previewMeasurandCodesImport,
  updateMeasurandCodes,
  updateMeasurandNames,
} from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/app-error.js';
import { cachedFile, cachedJson } from '../../lib/cached-json.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route, seesUnpublished, unauthenticated } from '../../plugins/contract-routes.js';
import * as analytes from './analytes.service.js';
import * as codes from './measurand-codes.service.js';
import * as crosswalk from './measurand-crosswalk.service.js';
import * as names from './measurand-names.service.js';

export function registerAnalyteRoutes(app: FastifyInstance): void {
  const deps = serviceDeps(app);
  const { db } = deps;

  // One measurand is the same for everyone and changes only with the measurands: kept like one
  // dataset, so a page's worth of callers costs one query (decision 035).
  route(app, getAnalyte, async ({ params, request, reply }) =>
    cachedJson(
      request,
      reply,
      async () => {
        const analyte = await analytes.getAnalyte(db, params.id);
        if (!analyte) throw notFound(`Measurand ${params.id}`);
        return { analyte };
      },
      { varyByUser: false, scopes: ['analytes'], pool: 'records' },
    ),
  );

  route(app, listAnalytesWithCounts, async ({ request, reply }) =>
    cachedJson(request, reply, async () => ({
      analytes: await analytes.listAnalytesWithCounts(db, seesUnpublished(request)),
    })),
  );

  // The names the menu matches by (decision 083): read by anyone, replaced by curators.
  route(app, getMeasurandNames, async ({ params }) => names.getMeasurandNames(db, params.id));
  route(app, updateMeasurandNames, async ({ params, body, request }) => {
    if (!request.user) throw unauthenticated();
    return names.updateMeasurandNames(deps, params.id, body, request.user.id);
  });

  // The codes laboratory systems name it by (decision 091): read by anyone, replaced by curators.
  route(app, getMeasurandCodes, async ({ params }) => codes.getMeasurandCodes(db, params.id));
  route(app, updateMeasurandCodes, async ({ params, body, request }) => {
    if (!request.user) throw unauthenticated();
    return codes.updateMeasurandCodes(deps, params.id, body, request.user.id);
  });

  // The crosswalk file (decision 093): every code as one CSV for anyone, imported by curators
  // (a preview, then a confirm with the preview's plan). LOINC's notice rides in a header: the
  // file's first line is its header, so a reader's CSV tools read it unchanged.
  route(app, exportMeasurandCodes, async ({ request, reply }) =>
    cachedFile(
      request,
      reply,
      { type: 'text/csv; charset=utf-8', compress: true, sameForEveryone: true, scopes: ['analytes'] },
      async () => ({
        bytes: Buffer.from(await crosswalk.buildCrosswalkCsv(db), 'utf8'),
        headers: {
          'Content-Disposition': 'attachment; filename="bv_measurand_codes.csv"',
          'Bvdb-Loinc-Notice': crosswalk.loincNoticeHeader,
        },
      }),
    ),
  );
  route(app, previewMeasurandCodesImport, async ({ body }) => crosswalk.previewCrosswalk(db, body.text));
  route(app, importMeasurandCodes, async ({ body, request }) => {
    if (!request.user) throw unauthenticated();
    return crosswalk.importCrosswalk(deps, body.text, body.plan, request.user.id);
  });
}
