import { admits, ErrorSchema, STAFF, type Access, type RouteDef } from '@bvdb/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { AppError } from '../lib/app-error.js';
import { costOfRoute, isComputation } from './rate-limits.js';

type In<T> = [Exclude<T, undefined>] extends [z.ZodType] ? z.output<Exclude<T, undefined>> : undefined;
type Out<R> = R extends Record<number, z.ZodType> ? { [K in keyof R]: z.input<R[K]> }[keyof R] : never;

export interface HandlerArgs<D extends RouteDef> {
  params: In<D['params']>;
  query: In<D['query']>;
  body: In<D['body']>;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type Handler<D extends RouteDef> = (
  args: HandlerArgs<D>,
) => Promise<Out<D['responses']> | FastifyReply>;

/**
 * Registers a route from its contract definition: paths, validation, response schemas, OpenAPI and
 * access all come from the one definition, so none can drift from the others.
 */
export interface RouteExtras {
  /**
   * Runs before the body is read or validated (after the access check): returns the reply when it
   * answered at once, e.g. a cheap 503 while the password hashing queue is full.
   */
  answerEarly?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined;
  /** The route's own body limit in bytes, above the server's (a batch of 10,000 pairs). */
  bodyLimit?: number;
}

export function route<D extends RouteDef>(
  app: FastifyInstance,
  def: D,
  handler: Handler<D>,
  extras: RouteExtras = {},
): void {
  const { answerEarly, bodyLimit } = extras;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: def.method,
    url: def.path,
    ...(bodyLimit !== undefined ? { bodyLimit } : {}),
    schema: {
      summary: def.summary,
      tags: def.tags,
      ...(def.params ? { params: def.params } : {}),
      ...(def.query ? { querystring: def.query } : {}),
      ...(def.body ? { body: def.body } : {}),
      ...(def.produces ? { produces: [def.produces] } : {}),
      // A route that takes a body answers 413 past the body limit or its file limit (decision 086).
      response:
        def.method === 'GET' || def.method === 'DELETE'
          ? def.responses
          : { 413: ErrorSchema, ...def.responses },
      ...(def.access !== 'public'
        ? { security: [{ session: [] }], description: `Roles: ${def.access.join(', ')}.` }
        : {}),
    },
    config: { access: def.access, cost: costOfRoute(def), oneAtATime: isComputation(def) },
    // onRequest, before the body is parsed or validated: an anonymous caller learns nothing but 401,
    // a signed-in caller of another role nothing but 403.
    onRequest: async (request, reply) => {
      if (def.access !== 'public') {
        await request.server.requireUser(request);
        if (!admits(def.access, request.user?.role)) throw forbiddenRole(def.access);
      }
      return answerEarly?.(request, reply);
    },
    handler: async (request, reply) => {
      const run = () =>
        handler({
          params: request.params as In<D['params']>,
          query: request.query as In<D['query']>,
          body: request.body as In<D['body']>,
          request,
          reply,
        });
      // A computation holds its client's slot until its work is done (plugins/computation-gate.ts).
      return request.routeOptions.config.oneAtATime ? request.server.holdComputation(request, run) : run();
    },
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Throws 401 unless the request carries a valid session; set by the auth module. */
    requireUser(request: FastifyRequest): Promise<void>;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
}

export const unauthenticated = () => new AppError('unauthorized', 'You need to sign in to do that');

const ROLE_NAMES: Record<string, string> = {
  admin: 'administrators',
  curator: 'curators',
  assessor: 'assessors',
};

/** 403 for a signed-in user whose role the route does not admit. */
export const forbiddenRole = (access: Exclude<Access, 'public'>) =>
  new AppError('forbidden', `Only ${access.map((r) => ROLE_NAMES[r] ?? r).join(' and ')} may do that`);

/**
 * Whether the caller sees unpublished datasets in the public reads: administrators and curators
 * (what the spec gives a signed-in user); an assessor sees the public catalogue (decision 008).
 */
export const seesUnpublished = (request: FastifyRequest): boolean => admits(STAFF, request.user?.role);
