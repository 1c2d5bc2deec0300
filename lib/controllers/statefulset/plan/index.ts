/**
 * The Advanced StatefulSet planner's public surface: {@link planStatefulSet} and its types. Pure: no I/O anywhere
 * under plan/ (test/unit/architecture).
 */
export { planStatefulSet } from './plan.js';
export {
  DEFAULT_PLANNER_OPTIONS,
  type StatefulSetPlan,
  type StatefulSetPlanInput,
  type StatefulSetPlannerOptions,
  type StatefulSetRevisionPlan,
} from './types.js';
