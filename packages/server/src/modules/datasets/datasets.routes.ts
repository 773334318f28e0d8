import {
  datasetsByMeasurand,
  datasetsOfAnalyte,
  datasetsOfReference,
  getDataset,
  getDiseasesOfDataset,
  listDatasets,
  manageByAnalyte,
  manageByReference,
  specsForAnalytes,
  type Dataset,
} from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/app-error.js';
import {
  cachedCatalogue,
  cachedItemsJson,
  cachedJson,
  cachedText,
  serialiseFor,
} from '../../lib/cached-json.js';
import { mapInTurns } from '../../lib/loop-turns.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route, seesUnpublished } from '../../plugins/contract-routes.js';
import { findAnalyte } from '../analytes/index.js';
import { listDiseasesOfDataset } from '../lookups/index.js';
import { findReference } from '../references/index.js';
import { jsonStreamText, sendJsonStream } from '../../lib/json-stream.js';
import {
  batchesOfDatasets,
  findVisibleDataset,
  listDatasets as listDatasetRows,
} from './datasets.service.js';
import { presentBvEstimates, presentDataset } from './datasets.presenter.js';
import { legacyPageItemJson, prepareKeptRows, publicRecordAnswer } from './dataset-fragments.js';
import { registerDatasetV1Routes } from './datasets-v1.routes.js';
import { changeLogOf } from '../changes/index.js';
import { CATALOGUE_JSON } from './catalogue-json.js';
import { datasetByIdOr404, datasetPage, PublicDatasets } from './public-datasets.service.js';

/** Page size of the paged legacy list when only `offset` is given. */
const LEGACY_DEFAULT_LIMIT = 100;

function groupByMeasurand(datasets: Dataset[]): Record<string, Dataset[]> {
  const out: Record<string, Dataset[]> = {};
  for (const d of datasets) (out[d.analyte_display_name] ??= []).push(d);
  return out;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The kept public rows (benches await `publicDatasets.settled()`: the background fill is over). */
    publicDatasets: PublicDatasets;
  }
}

export function registerDatasetRoutes(app: FastifyInstance): void {
  const { db, cache, config } = serviceDeps(app);
  const publicDatasets = new PublicDatasets(
    db,
    cache,
    config.READ_CACHE_ROWS,
    config.READ_CACHE_PREFILL,
    prepareKeptRows,
    changeLogOf(db),
  );
  // The first anonymous read starts the background fill (decision 049); it stops before the
  // database closes.
  app.addHook('onClose', () => publicDatasets.close());
  app.decorate('publicDatasets', publicDatasets);

  // A dataset's disease states (lookup rows), 404 for a dataset the caller may not see. Here, not in
  // the lookups module: lookups are read by datasets, never the other way round (decision 048).
  route(app, getDiseasesOfDataset, async ({ params, request }) => {
    const dataset = await findVisibleDataset(db, params.id, seesUnpublished(request));
    if (!dataset) throw notFound(`Dataset ${params.id}`);
    return { diseases: await listDiseasesOfDataset(db, params.id) };
  });

  // Legacy list, two forms (docs/api.md): with limit or offset the live paged shape {meta, data} with
  // `measurand` a name; without, the spec's {code, datasets} streamed from the database in id order.
  route(app, listDatasets, async ({ request, reply, query }) => {
    const signedIn = seesUnpublished(request);
    const updatedSince = query.updated_since ? { updatedSince: new Date(query.updated_since) } : {};
    if (query.limit === undefined && query.offset === undefined) {
      const whole = () => ({
        head: '{"code":"success","datasets":[',
        batches: (async function* () {
          for await (const rows of batchesOfDatasets(db, { signedIn, ...updatedSince }))
            yield rows.map(presentDataset);
        })(),
        tail: (n: number) => `],"total":${n}}`,
      });
      // The whole published catalogue is one kept file (decision 039); a signed-in reader's list
      // (unpublished too) and `updated_since` slices are streamed from the database as they are read.
      if (signedIn || query.updated_since) return sendJsonStream(request, reply, whole);
      return cachedCatalogue(request, reply, CATALOGUE_JSON, () => jsonStreamText(whole()));
    }
    // Each item's JSON is made once per kept row (decision 065): the page is their concatenation.
    return cachedItemsJson(request, reply, async () => {
      const { rows, total } = await datasetPage(db, publicDatasets, signedIn, {
        limit: query.limit ?? LEGACY_DEFAULT_LIMIT,
        offset: query.offset ?? 0,
        ...updatedSince,
      });
      return { envelope: { meta: { total }, data: [] }, items: await mapInTurns(rows, legacyPageItemJson) };
    });
  });

  const grouped = async (signedIn: boolean) =>
    groupByMeasurand((await listDatasetRows(db, { signedIn })).map(presentDataset));

  // Grouped by measurand: kept files for public readers (decision 039), built fresh for staff.
  const byMeasurand: Parameters<typeof route>[2] = async ({ request, reply }) => {
    if (request.user != null)
      return cachedJson(request, reply, async () => ({ datasets: await grouped(seesUnpublished(request)) }));
    return cachedCatalogue(request, reply, CATALOGUE_JSON, async function* () {
      yield serialiseFor(reply, { datasets: await grouped(false) });
    });
  };
  route(app, datasetsByMeasurand, byMeasurand);
  route(app, specsForAnalytes, byMeasurand);

  // One record: kept in the records pool, so a pass over the whole catalogue never pushes pages out.
  route(app, getDataset, async ({ params, request, reply }) => {
    const read = () => datasetByIdOr404(db, publicDatasets, seesUnpublished(request), params.id);
    if (request.user != null)
      return cachedJson(
        request,
        reply,
        async () => {
          const row = await read();
          return { dataset: presentDataset(row), bv_estimates: presentBvEstimates(row) };
        },
        { pool: 'records' },
      );
    // A public record is its kept row's fragment and its estimates (decision 104): the serialiser's
    // bytes, made ahead by the fill as a gzip copy with its ETag once it reached the row (decision 113).
    return cachedText(request, reply, async () => publicRecordAnswer(await read(), 'legacy'), {
      pool: 'records',
    });
  });

  // The existence check runs inside the cached computation: a repeated read costs no query at all,
  // and a 404 is never cached (it throws before anything is stored).
  route(app, datasetsOfAnalyte, async ({ params, request, reply }) =>
    cachedJson(request, reply, async () => {
      const analyte = await findAnalyte(db, params.analyte_id);
      if (!analyte) throw notFound(`Measurand ${params.analyte_id}`);
      const rows = await listDatasetRows(db, {
        signedIn: seesUnpublished(request),
        analyteId: params.analyte_id,
      });
      return rows.map(presentDataset);
    }),
  );

  route(app, datasetsOfReference, async ({ params, request }) => {
    const reference = await findReference(db, params.id);
    if (!reference) throw notFound(`Reference ${params.id}`);
    const rows = await listDatasetRows(db, { signedIn: seesUnpublished(request), referenceId: params.id });
    return { datasets: rows.map(presentDataset), export_url: `/export_by_reference/${params.id}.xlsx` };
  });

  route(app, manageByAnalyte, async ({ query }) => {
    const analyte = await findAnalyte(db, query.id);
    if (!analyte) throw notFound(`Measurand ${query.id}`);
    const rows = await listDatasetRows(db, { signedIn: true, analyteId: query.id });
    return { dataset: rows.map(presentDataset), export_url: `/export_by_analyte/${query.id}.xlsx` };
  });

  route(app, manageByReference, async ({ query }) => {
    const reference = await findReference(db, query.id);
    if (!reference) throw notFound(`Reference ${query.id}`);
    const rows = await listDatasetRows(db, { signedIn: true, referenceId: query.id });
    return { dataset: rows.map(presentDataset), export_url: `/export_by_reference/${query.id}.xlsx` };
  });

  registerDatasetV1Routes(app, publicDatasets);
}
