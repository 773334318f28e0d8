import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, type FieldMessage } from '../lib/app-error.js';
import { isDatabaseUnavailable } from '../db/connection-errors.js';

interface ErrorBody {
  error: string;
  message: string;
  statusCode: number;
  fields?: FieldMessage[];
  current?: unknown;
}

function body(statusCode: number, error: string, message: string, extra: Partial<ErrorBody> = {}): ErrorBody {
  return { error, message, statusCode, ...extra };
}

/**
 * The multipart parser (busboy) reports a body it cannot read with a plain error and no status
 * (`Multipart: Boundary not found`, `Unexpected end of form`, `Premature close`…): the
 * client's fault, so 400 rather than 500.
 */
function isMalformedMultipart(err: FastifyError, contentType: string | undefined): boolean {
  if (!contentType?.toLowerCase().startsWith('multipart/')) return false;
  if (err.statusCode !== undefined && err.statusCode < 500) return false;
  // A part that ends before its boundary surfaces as the file stream's premature close.
  if (err.code === 'ERR_STREAM_PREMATURE_CLOSE') return true;
  return /multipart|boundary|end of form|part header|malformed/i.test(err.message);
}

/** busboy's own words for a boundary past 252 characters (lib/read-upload.ts refuses it earlier). */
const isLongBoundary = (err: FastifyError) => /needle cannot have a length bigger than/i.test(err.message);

const MB = 1024 * 1024;

/** Maps every failure to the contract's error shape; 5xx never carry internals. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      if (err.extra.headers) void reply.headers(err.extra.headers);
      return reply.status(err.statusCode).send(
        body(err.statusCode, err.errorName, err.message, {
          ...(err.extra.fields ? { fields: err.extra.fields } : {}),
          ...(err.extra.current !== undefined ? { current: err.extra.current } : {}),
        }),
      );
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields = err.validation.map((v) => ({
        path: [err.validationContext, ...v.instancePath.split('/').filter(Boolean)].join('.'),
        message: v.message ?? 'is invalid',
      }));
      const first = fields[0];
      return reply
        .status(400)
        .send(
          body(400, 'Bad Request', first ? `${first.path}: ${first.message}` : 'Invalid request', { fields }),
        );
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err, issues: err.cause }, 'response does not match the contract');
      return reply.status(500).send(body(500, 'Internal Server Error', 'Internal Server Error'));
    }
    if (isLongBoundary(err) && request.headers['content-type']?.toLowerCase().startsWith('multipart/')) {
      return reply
        .status(400)
        .send(
          body(400, 'Bad Request', 'The multipart boundary is too long: at most 70 characters (RFC 2046)'),
        );
    }
    if (isMalformedMultipart(err, request.headers['content-type'])) {
      return reply
        .status(400)
        .send(
          body(400, 'Bad Request', `The upload could not be read (malformed multipart body): ${err.message}`),
        );
    }
    const status = err.statusCode ?? 500;
    if (status === 413) {
      // The server-wide body limit, checked before the body is parsed (decision 086): every body
      // past it answers 413, whatever it holds, as every file past its own limit does.
      const limit = request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 0;
      return reply
        .status(413)
        .send(
          body(
            413,
            'Payload Too Large',
            `The request body is too large (${limit % MB === 0 ? `${limit / MB} MB` : `${Math.round(limit / 1024)} KB`} at most)`,
          ),
        );
    }
    if (status === 415) {
      return reply
        .status(400)
        .send(
          body(400, 'Bad Request', `Unsupported content type: ${request.headers['content-type'] ?? 'none'}`),
        );
    }
    if (status >= 400 && status < 500) {
      const name = status === 429 ? 'Too Many Requests' : status === 404 ? 'Not Found' : 'Bad Request';
      return reply.status(status).send(body(status, name, err.message));
    }
    if (isDatabaseUnavailable(err)) {
      request.log.warn({ err }, 'database unavailable');
      return reply
        .status(503)
        .header('Retry-After', '5')
        .send(body(503, 'Service Unavailable', 'The database is unavailable; try again in a few seconds'));
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send(body(500, 'Internal Server Error', 'Internal Server Error'));
  });
}
