/**
 * The bytes of a create or replace body. JSON as `JSON.stringify` writes it, except where the bytes themselves
 * matter to another controller: a ControllerRevision's `data` goes out as Go's `encoding/json` writes it
 * (lib/api/goJson.ts).
 */
import { goJson } from '../api/goJson.js';
import type { JsonValue } from '../api/types.js';
import type { Resource } from './resource.js';

/**
 * The JSON text of a ControllerRevision with its `data` written as Go's `encoding/json` writes it (keys sorted, HTML
 * characters escaped): OpenKruise's CreateControllerRevision (pkg/util/history) treats a revision of the same name
 * as its own only when the stored `data` bytes equal its `json.Marshal` output, and the API server keeps those bytes
 * as sent. Without this, OpenKruise taking over from Kruiseless would count a hash collision and re-label every pod.
 */
export function revisionBodyText(body: { data?: JsonValue } & Record<string, unknown>): string {
  const { data, ...rest } = body;
  const head = JSON.stringify(rest);
  return data === undefined ? head : `${head.slice(0, -1)},"data":${goJson(data)}}`;
}

/** True for apps/v1 ControllerRevisions (any version of the `apps` group's `controllerrevisions`). */
function isControllerRevisions(resource: Resource): boolean {
  return resource.group === 'apps' && resource.plural === 'controllerrevisions';
}

/**
 * The text to send for `body`, an object of `resource` (see the module doc for which bytes are kept).
 * @param body the object with its apiVersion and kind
 */
export function bodyText(resource: Resource, body: Record<string, unknown>): string {
  return isControllerRevisions(resource) ? revisionBodyText(body) : JSON.stringify(body);
}
