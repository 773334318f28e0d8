import type { FastifyInstance } from 'fastify';

/** The id of a seeded measurand, found by its display name through the public list. */
export async function analyteIdByName(app: FastifyInstance, displayName: string): Promise<number> {
  const list = (await app.inject({ url: '/api/analytes_with_bv_specifications' })).json<{
    analytes: { id: number; display_name: string }[];
  }>().analytes;
  return list.find((a) => a.display_name === displayName)!.id;
}
