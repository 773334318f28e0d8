import { v1Applications, v1ApplicationsFile, type ApplicationsQuery } from '@bvdb/contract';
import contentDisposition from 'content-disposition';
import type { FastifyInstance } from 'fastify';
import { cachedFile, cachedText, serialiseFor } from '../../lib/cached-json.js';
import { answerInSteps, joinedText } from '../../lib/contract-json.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route } from '../../plugins/contract-routes.js';
import { exportNotice } from '../../lib/export-notice.js';
import { buildTableOffThread, csvReleaseHeaders } from '../exports/index.js';
import { applicationsTable } from './applications-file.js';
import { presentApplications, presentApplicationsRow } from './applications.presenter.js';
import { buildApplications, type ApplicationsGroup } from './applications.service.js';

const TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/**
 * The laboratory's workbench (issue 32): the summary table "BV and performance specifications" as
 * JSON and as CSV/xlsx. Public and the same for everyone (published estimates only): kept per
 * validated query and data generation like the other public reads (decision 021).
 */
export function registerApplicationsRoutes(app: FastifyInstance): void {
  const table = async (query: ApplicationsQuery) => {
    const { z, groups, population } = await buildApplications(serviceDeps(app), query);
    return presentApplications(query, z, groups, population);
  };

  // Public and the same for everyone. At 100× the demo data the table has thousands of rows: they
  // are presented, checked and written a few hundred at a time, the event loop let go between
  // (issue 44.1: presenting and checking them at once held it ~200 ms); the same bytes.
  route(app, v1Applications, async ({ query, request, reply }) =>
    cachedText(request, reply, async () => {
      const { z, groups, population } = await buildApplications(serviceDeps(app), query);
      return joinedText(
        answerInSteps(
          (value) => serialiseFor(reply, value),
          { ...presentApplications(query, z, [], population), data: groups },
          'data',
          v1Applications.responses[200].shape.data.element,
          (group) => presentApplicationsRow(group as ApplicationsGroup, population),
        ),
      );
    }),
  );

  route(app, v1ApplicationsFile, async ({ params, query, request, reply }) => {
    const format = params.file.endsWith('.csv') ? 'csv' : 'xlsx';
    const notice = exportNotice(app.deps.config);
    const stamp = new Date().toISOString().slice(0, 10);
    return cachedFile(
      request,
      reply,
      { type: TYPES[format], compress: format === 'csv', sameForEveryone: true },
      async () => ({
        bytes: await buildTableOffThread(format, applicationsTable(await table(query), notice, new Date())),
        headers: {
          'Content-Disposition': contentDisposition(`bv_applications_${query.level}_${stamp}.${format}`),
          ...(format === 'csv' ? csvReleaseHeaders(notice) : {}),
        },
      }),
    );
  });
}
