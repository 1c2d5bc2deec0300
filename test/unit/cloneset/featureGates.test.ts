import { describe, expect, it } from '@jest/globals';
import {
  CLONESET_GATE_NAMES,
  InvalidFeatureGatesError,
  parseFeatureGates,
} from '../../../lib/cloneset/featureGates.js';

describe('parseFeatureGates', () => {
  it('maps every CloneSet gate to its planner option', () => {
    const all = CLONESET_GATE_NAMES.map((n) => `${n}=true`).join(',');
    expect(parseFeatureGates(all)).toEqual({
      options: {
        cloneSetPartitionRollback: true,
        preparingUpdateAsUpdate: true,
        cloneSetShortHash: true,
        inPlaceUpdateEnvFromMetadata: true,
        inPlaceWorkloadVerticalScaling: true,
        recreatePodWhenChangeVCTInCloneSet: true,
        templateNoDefaults: true,
        preDownloadImageForInPlaceUpdate: true,
        kruiseDaemon: true,
        preDownloadImageWithPods: true,
      },
      ignored: [],
    });
  });

  it('reads Go boolean spellings and spaces, keeps other OpenKruise gates aside', () => {
    expect(
      parseFeatureGates(' CloneSetShortHash=T , PodWebhook=false,InPlaceUpdateEnvFromMetadata=0,'),
    ).toEqual({
      options: { cloneSetShortHash: true, inPlaceUpdateEnvFromMetadata: false },
      ignored: ['PodWebhook'],
    });
  });

  it('an empty value sets nothing', () => {
    expect(parseFeatureGates('')).toEqual({ options: {}, ignored: [] });
  });

  it.each([
    ['CloneSetShortHash', 'invalid feature gates: "CloneSetShortHash" is not Name=true|false'],
    ['=true', 'invalid feature gates: "=true" is not Name=true|false'],
    ['CloneSetShortHash=yes', 'invalid feature gates: CloneSetShortHash: "yes" is not a boolean'],
    [
      'TemplateNoDefaults=true,TemplateNoDefaults=false',
      'invalid feature gates: TemplateNoDefaults is set twice',
    ],
  ])('%s is refused', (value, message) => {
    expect(() => parseFeatureGates(value)).toThrow(new InvalidFeatureGatesError(message.slice(23)));
    expect(() => parseFeatureGates(value)).toThrow(message);
  });
});
