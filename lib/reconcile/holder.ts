/**
 * Lease holder ids (docs/architecture.md#lease): one per execution, `<requestId>/<execution>`. Lambda may run one
 * asynchronous request twice at once (at-least-once delivery) and retries a crashed one under the same request id;
 * with the request id alone as holder both copies would hold the lease together (review finding 3). The execution
 * part tells the copies apart; the request part lets a copy that finds its own request holding the lease tell that
 * it may be the retry of a dead execution (lib/reconcile/reconcile.ts then requeues for the lease's end).
 */

/**
 * The holder id of one execution of request `requestId`.
 * @param requestId e.g. the Lambda `awsRequestId`; any non-empty string
 * @param execution unique per execution, e.g. a random UUID drawn when the handler starts; must not contain `/`
 * @throws RangeError for an empty part or an `execution` with `/`
 */
export function executionHolder(requestId: string, execution: string): string {
  if (requestId === '' || execution === '' || execution.includes('/'))
    throw new RangeError(
      `holder parts must be non-empty and the execution without '/': ${requestId}, ${execution}`,
    );
  return `${requestId}/${execution}`;
}

/** The request id of holder `holder` ({@link executionHolder}'s first part); the holder itself when it has no `/`. */
export function requestIdOfHolder(holder: string): string {
  const cut = holder.lastIndexOf('/');
  return cut < 0 ? holder : holder.slice(0, cut);
}
