/**
 * lib/emulator: the AWS services of the embedded default, in process — the EventBridge bus routing by the rules of
 * serverless.yml, the requeue scheduler on timers, and dynalite for DynamoDB. Never imported by functions/ or the
 * AWS runtime (tested in test/unit/architecture/imports.test.ts).
 */
export * from './errors.js';
export * from './pattern.js';
export * from './bus.js';
export * from './serverlessRules.js';
export * from './localRequeue.js';
export * from './dynalite.js';
