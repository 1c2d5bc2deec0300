/**
 * Lambda `watch`: scheduled every minute, the watch pump of every registered cluster. The handler is {@link watchHandler} (lib/runtime/handlers/watch.ts) on the AWS
 * runtime, so the embedded default runs the same code.
 */
import { awsRuntimeWith } from '../lib/runtime/aws.js';
import { emfSink } from '../lib/runtime/emf.js';
import { WATCH_POOL_SOCKETS, watchHandler } from '../lib/runtime/handlers/watch.js';

/** The Lambda entry point: each cluster's LISTs and reads take at most `WATCH_POOL_SOCKETS` connections. */
export const handler = watchHandler(
  awsRuntimeWith({ metrics: emfSink(), poolSocketsPerCluster: WATCH_POOL_SOCKETS }),
);
