/** The PodUnavailableBudget planners: the status (./status.ts) and the admission decision (./admission.ts). */
export * from './status.js';
export * from './desired.js';
export * from './podState.js';
export * from './admission.js';
export * from './targets.js';
export * from './update.js';
