/** A Powertools logger for tests that read log lines as CloudWatch would receive them. */
import { Logger } from '@aws-lambda-powertools/logger';
import type { LogItem } from '@aws-lambda-powertools/logger';

/**
 * A Powertools logger that prints nothing and keeps every line it would print, at every level, as the JSON
 * attributes Powertools built (persistent and per-call keys merged) — what CloudWatch would receive.
 */
export class CapturingLogger extends Logger {
  readonly lines: Record<string, unknown>[] = [];

  constructor() {
    super({ serviceName: 'kruiseless-e2e', logLevel: 'DEBUG' });
  }

  protected override printLog(_level: number, log: LogItem): void {
    this.lines.push(JSON.parse(JSON.stringify(log.getAttributes())) as Record<string, unknown>);
  }
}
