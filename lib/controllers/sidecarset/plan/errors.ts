/** The one error the pure injector throws: the pod cannot be injected as OpenKruise would, and must be refused. */
import { KruiselessError } from '../../../core/errors.js';

/**
 * A pod the SidecarSet webhook refuses (OpenKruise answers these with `admission.Errored(500, …)`): a SidecarSet with
 * an invalid selector, a pod annotation that is not the JSON OpenKruise writes, a `MergePatchJson` metadata patch that
 * does not apply. The message names the SidecarSet or annotation.
 */
export class SidecarInjectionError extends KruiselessError {
  constructor(message: string) {
    super(message);
    this.name = 'SidecarInjectionError';
  }
}
