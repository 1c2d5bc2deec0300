/**
 * The extra kube-controller-manager of an upstream e2e run (test/parity/extraControllers.ts): its command line.
 */
import { describe, expect, it } from '@jest/globals';
import { extraControllerArgs } from '../../parity/extraControllers.js';

describe('extra kube-controller-manager', () => {
  it('runs only the named controllers against the side, without serving or leader election', () => {
    expect(extraControllerArgs('/s/kubeconfig', ['deployment-controller', 'replicaset-controller'])).toEqual([
      '--kubeconfig=/s/kubeconfig',
      '--authentication-kubeconfig=/s/kubeconfig',
      '--authorization-kubeconfig=/s/kubeconfig',
      '--secure-port=0',
      '--leader-elect=false',
      '--controllers=deployment-controller,replicaset-controller',
    ]);
  });

  it('refuses an empty list, which kube-controller-manager would read as its default set', () => {
    expect(() => extraControllerArgs('/s/kubeconfig', [])).toThrow(
      'extra kube-controller-manager: no controller named',
    );
  });
});
