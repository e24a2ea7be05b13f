/** A field-level problem reported in `error.details`. */
export interface FieldError {
  in?: string;
  field: string;
  code: string;
  message: string;
}

/**
 * The only error whose message reaches clients. Anything else thrown is answered as
 * `internal_error` and logged.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details?: FieldError[] | Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new AppError('not_found', 404, `${what} not found`);
export const forbidden = (code: string, message: string) => new AppError(code, 403, message);
export const conflict = (code: string, message: string) => new AppError(code, 409, message);
