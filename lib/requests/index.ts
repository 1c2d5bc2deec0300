/**
 * lib/requests: the reconcile-request event (its schema, coalescing, publishing to EventBridge) and the requeue port
 * with its EventBridge Scheduler adapter — everything a Lambda needs. The in-process bus and local scheduler of the
 * embedded default live in lib/emulator and are not exported here, so they stay out of the Lambda bundles.
 */
export * from './errors.js';
export * from './schema.js';
export * from './coalesce.js';
export * from './publisher.js';
export * from './requeue.js';
export * from './correlation.js';
