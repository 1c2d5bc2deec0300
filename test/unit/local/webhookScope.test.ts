import { mutatingWebhookConfiguration } from '../../../lib/api/admission/webhookConfiguration.js';
import { sidecarSetMutator } from '../../../lib/controllers/sidecarset/api/mutation.js';
import type { EventPattern } from '../../../lib/emulator/pattern.js';
import type { ServerlessEventBridgeRule } from '../../../lib/emulator/serverlessRules.js';
import { namespaceSelectorFor, servedNamespaces } from '../../../lib/local/webhookScope.js';

const rule = (detail?: EventPattern): ServerlessEventBridgeRule => ({
  functionName: 'reconcile',
  name: 'r',
  pattern: { source: ['kruiseless'], ...(detail ? { detail } : {}) },
  functionRetryAttempts: 2,
});

describe('the namespaces the embedded webhooks see', () => {
  test('every rule naming its namespaces: their union, sorted', () => {
    expect(servedNamespaces([rule({ namespace: ['b', 'a'] }), rule({ namespace: ['c', 'a'] })])).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  test('one rule not narrowed, no rule, an empty list or a content filter: every namespace', () => {
    expect(servedNamespaces([rule({ namespace: ['a'] }), rule()])).toBeUndefined();
    expect(servedNamespaces([rule({ namespace: ['a'] }), rule({ kind: ['CloneSet'] })])).toBeUndefined();
    expect(servedNamespaces([])).toBeUndefined();
    expect(servedNamespaces([rule({ namespace: [] })])).toBeUndefined();
    expect(servedNamespaces([rule({ namespace: [{ prefix: 'team-' }] })])).toBeUndefined();
  });

  test('the selector, and a configuration that carries it on every webhook, the pod webhook included', () => {
    const selector = namespaceSelectorFor(['a', 'b']);
    expect(selector).toEqual({
      matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['a', 'b'] }],
    });
    expect(namespaceSelectorFor(undefined)).toBeUndefined();
    const config = mutatingWebhookConfiguration(
      { name: 'x', url: 'https://h/mutate', podUrl: 'https://h/mutate-pod', namespaceSelector: selector },
      [sidecarSetMutator],
    ) as { webhooks: { name: string; namespaceSelector?: unknown }[] };
    expect(config.webhooks.map((w) => [w.name, w.namespaceSelector])).toEqual([
      ['sidecarsets.apps.kruise.io.kruiseless.io', selector],
      ['mpod.kb.io', selector],
    ]);
    const unscoped = mutatingWebhookConfiguration({ name: 'x', url: 'https://h/mutate' }, [
      sidecarSetMutator,
    ]) as { webhooks: { namespaceSelector?: unknown }[] };
    expect(unscoped.webhooks[0].namespaceSelector).toBeUndefined();
  });
});
