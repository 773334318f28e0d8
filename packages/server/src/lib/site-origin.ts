import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

/** The request's own origin: its protocol and host (forwarded ones only when TRUST_PROXY trusts the proxy). */
export const requestOrigin = (request: FastifyRequest): string => `${request.protocol}://${request.host}`;

/** The site's address for absolute links: PUBLIC_URL, else the request's origin; no trailing slash. */
export const siteBase = (config: Pick<Config, 'PUBLIC_URL'>, origin: string): string =>
  (config.PUBLIC_URL ?? origin).replace(/\/+$/, '');
