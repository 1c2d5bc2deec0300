/**
 * Lambda `reconcile`: the EventBridge rule's target, one CloneSet key per invocation. The handler is {@link reconcileHandler} (lib/runtime/handlers/reconcile.ts) on the AWS
 * runtime, so the embedded default runs the same code.
 */
import { awsRuntimeWith } from '../lib/runtime/aws.js';
import { emfSink } from '../lib/runtime/emf.js';
import { reconcileHandler } from '../lib/runtime/handlers/reconcile.js';

/** The Lambda entry point. */
export const handler = reconcileHandler(awsRuntimeWith({ metrics: emfSink() }));
