import { facetSelectionOf, FHIR_JSON, fhirMetadata, fhirRcv, fhirRcvDefinition } from '@bvdb/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { requestOrigin, siteBase } from '../../lib/site-origin.js';
import { AppError } from '../../lib/app-error.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route } from '../../plugins/contract-routes.js';
import { populationOf } from '../meta-analysis/index.js';
import { addDepthCappedJsonParser } from '../../plugins/input-guards.js';
import type { TestLookup } from '../menu/index.js';
import { presentChangeVerdict } from './change-verdict.presenter.js';
import type { VerdictThreads } from './change-verdict-pool.js';
import { judgeChange, type CheckUnits, type PopulationAsked } from './change-verdict.service.js';
import { readRcvParameters } from './fhir-input.js';
import {
  presentCapabilityStatement,
  presentFhirComparison,
  presentOperationOutcome,
  presentRcvOperationDefinition,
} from './fhir.presenter.js';

const baseOf = (config: Pick<Config, 'PUBLIC_URL'>, request: FastifyRequest) =>
  siteBase(config, requestOrigin(request));

/** Each code of the first result in turn: the first one a measurand has wins. */
async function judgeByCodes(
  tests: TestLookup,
  queries: ReturnType<typeof readRcvParameters>['queries'],
  checkUnits: CheckUnits,
  population?: PopulationAsked,
) {
  let notFound: unknown;
  for (const q of queries) {
    try {
      return presentChangeVerdict(q, await judgeChange(tests, q, checkUnits, population));
    } catch (err) {
      if (!(err instanceof AppError && err.statusCode === 404)) throw err;
      notFound ??= err;
    }
  }
  throw notFound;
}

/**
 * FHIR R4 (issue 45.6): `Observation/$rcv`, its OperationDefinition and the CapabilityStatement, in
 * their own scope: `application/fhir+json` bodies, and every error answered as an OperationOutcome
 * (the server's own error mapping first, so statuses and messages are the same as the JSON API's).
 */
export async function registerFhirRoutes(
  app: FastifyInstance,
  tests: TestLookup,
  threads: VerdictThreads,
): Promise<void> {
  await app.register(async (scope) => {
    addDepthCappedJsonParser(scope, FHIR_JSON);
    scope.addHook('onSend', async (_request, reply, payload) => {
      if (reply.statusCode < 400 || typeof payload !== 'string') {
        if (reply.statusCode < 400) void reply.type(FHIR_JSON);
        return payload;
      }
      let message = 'The request failed';
      try {
        message = (JSON.parse(payload) as { message?: string }).message ?? message;
      } catch {
        // Not our JSON error body: keep the generic message.
      }
      void reply.type(FHIR_JSON);
      return JSON.stringify(presentOperationOutcome(reply.statusCode, message));
    });

    route(scope, fhirRcv, async ({ body, query, request }) => {
      // A population (issue 47.3): an unknown facet value is a 400 (an OperationOutcome) naming the allowed ones.
      const deps = serviceDeps(scope);
      const population = await populationOf(deps.db, facetSelectionOf(query));
      const ask = readRcvParameters(body);
      const verdict = await judgeByCodes(
        tests,
        ask.queries,
        threads.checkUnits,
        population ? { population, deps } : undefined,
      );
      return presentFhirComparison(verdict, ask.first, ask.second, baseOf(scope.deps.config, request));
    });
    route(scope, fhirMetadata, async ({ request }) =>
      presentCapabilityStatement(baseOf(scope.deps.config, request)),
    );
    route(scope, fhirRcvDefinition, async ({ request }) =>
      presentRcvOperationDefinition(baseOf(scope.deps.config, request)),
    );
  });
}
