const STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unprocessable: 422,
  too_many_requests: 429,
  bad_gateway: 502,
  unavailable: 503,
} as const;

export type AppErrorCode = keyof typeof STATUS;

const NAMES: Record<AppErrorCode, string> = {
  bad_request: 'Bad Request',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  not_found: 'Not Found',
  conflict: 'Conflict',
  payload_too_large: 'Payload Too Large',
  unprocessable: 'Unprocessable Entity',
  too_many_requests: 'Too Many Requests',
  bad_gateway: 'Bad Gateway',
  unavailable: 'Service Unavailable',
};

export interface FieldMessage {
  path: string;
  message: string;
}

/** The one error type of the server: a code that maps to an HTTP status, and a message for humans. */
export class AppError extends Error {
  readonly statusCode: number;
  readonly errorName: string;
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly extra: { fields?: FieldMessage[]; current?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.statusCode = STATUS[code];
    this.errorName = NAMES[code];
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`);
