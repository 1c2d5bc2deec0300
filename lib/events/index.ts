/**
 * lib/events: the reconcile-request event (DESIGN §1), its coalescing, publishing, local routing and requeue.
 */
export * from './errors.js';
export * from './schema.js';
export * from './coalesce.js';
export * from './publisher.js';
export * from './pattern.js';
export * from './bus.js';
export * from './serverlessRules.js';
export * from './requeue.js';
