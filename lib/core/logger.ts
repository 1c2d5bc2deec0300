/**
 * The logging port of the reconciler: the subset of Powertools' `Logger` it uses, so Lambda handlers pass a
 * Powertools logger (structured JSON in CloudWatch) and tests or the embedded default may pass their own.
 */
export interface Logger {
  debug(message: string, ...extra: Record<string, unknown>[]): void;
  info(message: string, ...extra: Record<string, unknown>[]): void;
  warn(message: string, ...extra: Record<string, unknown>[]): void;
  error(message: string, ...extra: Record<string, unknown>[]): void;
}

/** A logger that drops everything (tests that assert on objects, not on logs). */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/**
 * A logger that adds `keys` to every line it writes through `base`, leaving `base` unchanged: one per reconcile
 * invocation, so concurrent invocations sharing `base` never see each other's keys (appended keys on a shared
 * Powertools logger would). Keys given on a call win over `keys`.
 */
export function withKeys(base: Logger, keys: Record<string, unknown>): Logger {
  return {
    debug: (message, ...extra) => base.debug(message, keys, ...extra),
    info: (message, ...extra) => base.info(message, keys, ...extra),
    warn: (message, ...extra) => base.warn(message, keys, ...extra),
    error: (message, ...extra) => base.error(message, keys, ...extra),
  };
}
