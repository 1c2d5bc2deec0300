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
