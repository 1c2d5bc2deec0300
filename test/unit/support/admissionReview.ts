/**
 * The body of an AdmissionReview v1 request, as the API server sends one to a webhook: the envelope every webhook
 * test needs, around the `request` the test names (uid, resource, operation, object, …). The fields of `request` are
 * the test's own, sent as given, so a test of a malformed request still writes exactly what it sends.
 */

/**
 * `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":<request>}` as JSON text.
 * @param request the AdmissionRequest, as the API server would fill it (or a test's malformed one)
 */
export function reviewBody(request: Record<string, unknown>): string {
  return JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request });
}

/**
 * The body of a pod CREATE review in namespace `ns1` (uid `u1`), as the pod webhooks' tests send one; `request`
 * replaces or adds fields (an UPDATE with its `oldObject`, another namespace).
 * @param object the pod
 */
export function podCreateBody(object: unknown, request: Record<string, unknown> = {}): string {
  return reviewBody({
    uid: 'u1',
    resource: { group: '', version: 'v1', resource: 'pods' },
    operation: 'CREATE',
    namespace: 'ns1',
    object,
    ...request,
  });
}
