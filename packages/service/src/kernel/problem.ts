import { type ErrorCode, errorStatus, errorTitle, type Failure } from './errors.ts';

/** An RFC 9457 problem body carrying the service's stable error code. */
export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly code: ErrorCode;
  readonly detail: string;
  readonly requestId?: string;
  readonly errors?: Failure['errors'];
  readonly [extension: string]: unknown;
}

/** The problem body of a failure: the one shape every transport answers an error with. */
export function problemOf(failure: Failure, requestId?: string): Problem {
  return {
    ...failure.extensions,
    type: `https://cartwright.dev/problems/${failure.code.toLowerCase().replaceAll('_', '-')}`,
    title: errorTitle(failure.code),
    status: errorStatus[failure.code],
    code: failure.code,
    detail: failure.detail,
    ...(failure.errors ? { errors: failure.errors } : {}),
    ...(requestId ? { requestId } : {}),
  };
}

/** A `Response` with the problem body (`application/problem+json`), for fetch-style hosts. */
export function problemResponse(
  failure: Failure,
  requestId?: string,
  headers: Record<string, string> = {},
): Response {
  const body = problemOf(failure, requestId);
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: {
      'content-type': 'application/problem+json',
      ...(requestId ? { 'x-request-id': requestId } : {}),
      ...(typeof failure.extensions?.retryAfterSeconds === 'number'
        ? { 'retry-after': String(Math.ceil(failure.extensions.retryAfterSeconds)) }
        : {}),
      ...headers,
    },
  });
}
