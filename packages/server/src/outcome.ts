import { statusFor, type ErrorBody } from './protocol';

/** A refusal: the HTTP status and the error body a client gets. */
export interface Failure {
  ok: false;
  status: number;
  error: ErrorBody;
}

export type Outcome<T> = { ok: true; value: T } | Failure;

export function failure(code: string, message: string, extra: Partial<ErrorBody> = {}, status?: number): Failure {
  return { ok: false, status: status ?? statusFor(code), error: { type: 'error', code, message, ...extra } };
}
