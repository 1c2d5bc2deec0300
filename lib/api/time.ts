/**
 * Timestamps as Kubernetes serialises `metav1.Time` (apimachinery's `Time.MarshalJSON`, format
 * `time.RFC3339`): RFC 3339, UTC, whole seconds. One formatter for every timestamp Kruiseless writes
 * (conditions, lifecycle and in-place annotations, status, Events); it lives in the API layer so every other
 * layer can use it.
 */

/**
 * `metav1.Time` text of `t`: RFC 3339, UTC, whole seconds (e.g. `2024-05-01T08:00:00Z`); sub-second precision
 * is dropped (floored: `toISOString` always ends in `.sssZ` and its fields are floored, negative epochs
 * included).
 * @throws RangeError for an invalid date
 */
export function metaTime(t: Date): string {
  return `${t.toISOString().slice(0, -5)}Z`;
}
