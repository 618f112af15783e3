/**
 * The one error type domain code throws. The error middleware renders it as
 * `{detail, error_code, field?}` with its status and headers.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly field?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

export const notFound = (what = 'resource') => new AppError(404, 'NOT_FOUND', `${what} not found`);

export const validationError = (field: string, detail: string) =>
  new AppError(422, 'VALIDATION_ERROR', detail, field);

export const conflict = (detail: string) => new AppError(409, 'CONFLICT', detail);

export const insufficientPermission = (detail: string) =>
  new AppError(403, 'INSUFFICIENT_PERMISSION', detail);

export const planUpgradeRequired = (feature: string) =>
  new AppError(
    403,
    'PLAN_UPGRADE_REQUIRED',
    `${feature} are available on the professional and enterprise plans`,
  );

export const rateLimited = (code: string, detail: string, retryAfterSeconds: number) =>
  new AppError(429, code, detail, undefined, {
    'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
