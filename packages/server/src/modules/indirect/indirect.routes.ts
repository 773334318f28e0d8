import multipart from '@fastify/multipart';
import {
  createIndirectEstimate,
  createLocalEstimate,
  deleteLocalEstimate,
  INDIRECT_MAX_FILE_BYTES,
  listLocalEstimates,
  updateLocalEstimate,
  type IndirectResponse,
} from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../lib/actor.js';
import { readUploadForThread } from '../../lib/read-upload.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route, unauthenticated } from '../../plugins/contract-routes.js';
import * as service from './indirect.service.js';

/** The pool's limit on one run: 100,000 results answer in a few seconds (docs/bench.md). */
const INDIRECT_TIMEOUT_MS = 120_000;

/**
 * The indirect estimate from a laboratory's routine results (issue 46, decision 095): public,
 * nothing of the file stored, the work on a thread. A plugin of its own: multipart only here.
 * A curator may keep a run's summary as a local estimate of the measurand.
 */
export async function registerIndirectRoutes(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: INDIRECT_MAX_FILE_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024 },
  });
  const deps = serviceDeps(app);
  const pool = service.createIndirectPool(INDIRECT_TIMEOUT_MS);
  app.addHook('onClose', () => pool.close());

  route(app, createIndirectEstimate, async ({ request, query }): Promise<IndirectResponse> => {
    const options = service.optionsFromQuery(query);
    const mapping = service.mappingFromQuery(query);
    const measurand = query.measurand ? await service.resolveMeasurand(deps.db, query.measurand) : null;
    const upload = await readUploadForThread(request, {
      maxBytes: INDIRECT_MAX_FILE_BYTES,
      choose: 'Choose a CSV, TSV or .xlsx extract of patient, date-time, value and unit',
      hint: 'send a shorter period',
    });
    // The file's bytes move to the thread (never copied on the event loop); not read here afterwards.
    const run = await pool.run({ ...upload, mapping, options }, [upload.bytes.buffer as ArrayBuffer]);
    const published = measurand
      ? await service.publishedCvi(deps, measurand.id, {
          asked: query.matrix ?? null,
          ofCode: measurand.matrixId,
        })
      : null;
    return {
      kept: false,
      measurand: measurand ? { id: measurand.id, name: measurand.name } : null,
      input: run.input,
      options: service.optionsAnswer(options),
      all: run.all,
      strata: run.strata,
      published,
      comparison: service.compareWithPublished(run, published, options),
    };
  });

  route(app, listLocalEstimates, async ({ params }) => service.listLocalEstimates(deps.db, params.id));
  route(app, createLocalEstimate, async ({ params, body, request, reply }) => {
    if (!request.user) throw unauthenticated();
    const saved = await service.createLocalEstimate(deps, params.id, body, request.user.id);
    return reply.status(201).send(saved);
  });
  route(app, updateLocalEstimate, async ({ params, body, request }) =>
    service.updateLocalEstimate(deps, params.id, body, actorOf(request).id),
  );
  route(app, deleteLocalEstimate, async ({ params, query, request }) => {
    await service.deleteLocalEstimate(deps, params.id, query.version, actorOf(request).id);
    return { code: 'success' as const };
  });
}
