/**
 * Lambda `resync`: scheduled, one reconcile request for every CloneSet of every registered cluster. The handler is {@link resyncHandler} (lib/runtime/handlers/resync.ts) on the AWS
 * runtime, so the embedded default runs the same code.
 */
import { awsRuntimeWith } from '../lib/runtime/aws.js';
import { emfSink } from '../lib/runtime/emf.js';
import { resyncHandler } from '../lib/runtime/handlers/resync.js';

/** The Lambda entry point. */
export const handler = resyncHandler(awsRuntimeWith({ metrics: emfSink() }));
