/**
 * ControllerRevision bodies carry `data` as Go's `encoding/json` bytes (lib/kube/body.ts revisionBodyText), since
 * OpenKruise compares a revision of the same name with its own by those bytes.
 */
import { describe, expect, it } from '@jest/globals';
import { bodyText, revisionBodyText } from '../../../lib/kube/body.js';
import { RESOURCES } from '../../../lib/kube/resources.js';

describe('revisionBodyText', () => {
  const body = {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: { name: 'cs-1', namespace: 'ns' },
    data: {
      spec: {
        template: {
          spec: { containers: [{ name: 'c', command: ['sh', '-c', 'a && b > /dev/null'], image: 'x' }] },
          metadata: { labels: { app: 'cs' } },
          $patch: 'replace',
        },
      },
    },
    revision: 2,
  };

  it('writes data with sorted keys and HTML escapes, the rest as JSON.stringify does, and parses back equal', () => {
    const text = revisionBodyText(body);
    expect(text).toBe(
      '{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"cs-1","namespace":"ns"},"revision":2,' +
        '"data":{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"cs"}},"spec":{"containers":' +
        '[{"command":["sh","-c","a \\u0026\\u0026 b \\u003e /dev/null"],"image":"x","name":"c"}]}}}}}',
    );
    expect(JSON.parse(text)).toEqual(body);
  });

  it('leaves a body without data as JSON.stringify writes it', () => {
    const { data: _data, ...rest } = body;
    expect(revisionBodyText(rest)).toBe(JSON.stringify(rest));
  });
});

describe('bodyText', () => {
  const data = { spec: { template: { metadata: { labels: { b: '1', a: '2' } } } } };

  it('writes a ControllerRevision with Go bytes, any other object as JSON.stringify does', () => {
    const revision = { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'r' }, data };
    expect(bodyText(RESOURCES.controllerrevisions, revision)).toBe(revisionBodyText(revision));
    expect(bodyText(RESOURCES.controllerrevisions, revision)).toContain('"labels":{"a":"2","b":"1"}');
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, data };
    expect(bodyText(RESOURCES.pods, pod)).toBe(JSON.stringify(pod));
  });
});
