import type { Role } from '@bvdb/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';

/**
 * Who makes a write: the user (for the audit trail) and their role (for the recompute's cause,
 * decision 048: public answers name a role, never a person).
 */
export interface Actor {
  id: number;
  role: Role;
}

/** The signed-in caller as an actor (401 when nobody is signed in). */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.user) throw new AppError('unauthorized', 'You need to sign in to do that');
  return { id: request.user.id, role: request.user.role as Role };
}
