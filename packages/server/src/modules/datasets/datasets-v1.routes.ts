import { v1BulkDatasets, v1GetDataset, v1ListDatasets } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { cachedCatalogue, cachedItemsJson, cachedJson, cachedText } from '../../lib/cached-json.js';
import { jsonStreamText, sendJsonStream } from '../../lib/json-stream.js';
import { mapInTurns } from '../../lib/loop-turns.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route, seesUnpublished } from '../../plugins/contract-routes.js';
import { presentDataset } from './datasets.presenter.js';
import { datasetJson, publicRecordAnswer } from './dataset-fragments.js';
import { batchesOfDatasets } from './datasets.service.js';
import { CATALOGUE_JSON } from './catalogue-json.js';
import { datasetByIdOr404, datasetPage, type PublicDatasets } from './public-datasets.service.js';

/** The datasets part of the versioned API (`/api/v1`); shapes in packages/contract/src/v1.contract.ts. */
export function registerDatasetV1Routes(app: FastifyInstance, publicDatasets: PublicDatasets): void {
  const { db } = serviceDeps(app);

  // Each item's JSON is made once per kept row (decision 065): the page is their concatenation.
  route(app, v1ListDatasets, async ({ query, request, reply }) =>
    cachedItemsJson(request, reply, async () => {
      const { rows, total } = await datasetPage(db, publicDatasets, seesUnpublished(request), {
        limit: query.limit,
        offset: query.offset,
        ...(query.updated_since ? { updatedSince: new Date(query.updated_since) } : {}),
        ...(query.analyte_id !== undefined ? { analyteId: query.analyte_id } : {}),
      });
      const next = query.offset + query.limit;
      return {
        envelope: {
          meta: { total, limit: query.limit, offset: query.offset, next_offset: next < total ? next : null },
          data: [],
        },
        items: await mapInTurns(rows, datasetJson),
      };
    }),
  );

  route(app, v1GetDataset, async ({ params, request, reply }) => {
    const read = () => datasetByIdOr404(db, publicDatasets, seesUnpublished(request), params.id);
    if (request.user != null)
      return cachedJson(request, reply, async () => ({ data: presentDataset(await read()) }));
    // A public record's text is its page fragment (checked against the contract once per kept row,
    // decision 065) in `{"data":…}`: the bytes the serialiser writes, without presenting and
    // checking the row again on a first ask (decision 089); made ahead by the fill as a gzip copy
    // with its ETag once it reached the row (decision 113).
    return cachedText(request, reply, async () => publicRecordAnswer(await read(), 'v1'), {
      pool: 'records',
    });
  });

  route(app, v1BulkDatasets, async ({ request, reply }) => {
    const signedIn = seesUnpublished(request);
    const whole = () => ({
      head: `{"meta":{"generated_at":"${new Date().toISOString()}"},"data":[`,
      batches: (async function* () {
        for await (const rows of batchesOfDatasets(db, { signedIn })) yield rows.map(presentDataset);
      })(),
      tail: (n: number) => `],"total":${n}}`,
    });
    // Published data: one kept file, `generated_at` the moment it was built (decision 039).
    if (signedIn) return sendJsonStream(request, reply, whole);
    return cachedCatalogue(request, reply, CATALOGUE_JSON, () => jsonStreamText(whole()));
  });
}
