/** The PodUnavailableBudget planners: the status (./status.ts) and the pieces it reads. */
export * from './status.js';
export * from './desired.js';
export * from './podState.js';
export * from './targets.js';
