import { v1ChangeVerdict } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../../plugins/contract-routes.js';
import type { TestLookup } from '../menu/index.js';
import { presentChangeVerdict } from './change-verdict.presenter.js';
import { judgeChange } from './change-verdict.service.js';

/**
 * The change verdict laboratory systems call (issue 45.4): public, nothing stored, answered from
 * the menu's kept catalogue (no database read when nothing changed).
 */
export function registerChangeVerdictRoutes(app: FastifyInstance, tests: TestLookup): void {
  route(app, v1ChangeVerdict, async ({ query }) =>
    presentChangeVerdict(query, await judgeChange(tests, query)),
  );
}
