/**
 * Bounded concurrency for a list of writes (lib/controllers/cloneset/execute.ts): at most `limit` in flight, started in list
 * order, optionally starting nothing more once one has failed — the shape of OpenKruise's `slowStartBatch`, whose
 * batches run their calls in parallel and stop at the first batch with an error.
 */

/** What became of one task. */
export type TaskOutcome<T> =
  | { status: 'fulfilled'; value: T }
  | { status: 'rejected'; reason: unknown }
  /** Not started: an earlier task failed and `stopOnFailure` was set. */
  | { status: 'skipped' };

/** The default number of writes one pass keeps in flight (runtime setting KRUISELESS_WRITE_CONCURRENCY). */
export const DEFAULT_WRITE_CONCURRENCY = 16;

/**
 * Runs `task` for every item, at most `limit` at a time, starting them in item order. With `limit` 1 the tasks run
 * one after the other in item order.
 * @param limit at least 1 (smaller values count as 1)
 * @param stopOnFailure when a task rejects, start no further task (tasks already running finish)
 * @returns one outcome per item, in item order; never rejects
 */
export async function runBounded<I, T>(
  items: readonly I[],
  limit: number,
  task: (item: I, index: number) => Promise<T>,
  stopOnFailure: boolean,
): Promise<TaskOutcome<T>[]> {
  const outcomes: TaskOutcome<T>[] = items.map(() => ({ status: 'skipped' }));
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (next < items.length && !(stopOnFailure && failed)) {
      const i = next++;
      try {
        outcomes[i] = { status: 'fulfilled', value: await task(items[i], i) };
      } catch (reason) {
        outcomes[i] = { status: 'rejected', reason };
        failed = true;
      }
    }
  };
  const workers = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return outcomes;
}
