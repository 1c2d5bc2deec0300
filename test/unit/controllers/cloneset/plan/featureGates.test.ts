import { describe, expect, it } from '@jest/globals';
import {
  CLONESET_GATE_NAMES,
  InvalidFeatureGatesError,
  parseFeatureGates,
} from '../../../../../lib/controllers/cloneset/plan/featureGates.js';

/** Every option of an OpenKruise CloneSet gate on (what AllAlpha=true,AllBeta=true gives). */
const ALL_ON = {
  cloneSetPartitionRollback: true,
  preparingUpdateAsUpdate: true,
  cloneSetShortHash: true,
  inPlaceUpdateEnvFromMetadata: true,
  inPlaceWorkloadVerticalScaling: true,
  recreatePodWhenChangeVCTInCloneSet: true,
  templateNoDefaults: true,
  preDownloadImageForInPlaceUpdate: true,
  kruiseDaemon: true,
  pubUpdateGate: true,
};

describe('parseFeatureGates', () => {
  it('maps every CloneSet gate to its planner option', () => {
    const all = CLONESET_GATE_NAMES.map((n) => `${n}=true`).join(',');
    expect(parseFeatureGates(all)).toEqual({
      options: { ...ALL_ON, preDownloadImageWithPods: true },
      ignored: [],
    });
  });

  it('reads Go boolean spellings and spaces, keeps other OpenKruise gates aside', () => {
    expect(
      parseFeatureGates('SidecarSetPatchPodMetadataDefaultsAllowed=true,ResourceDistributionGate=false'),
    ).toEqual({
      options: {},
      ignored: ['SidecarSetPatchPodMetadataDefaultsAllowed', 'ResourceDistributionGate'],
    });
    expect(
      parseFeatureGates(' CloneSetShortHash=T , PodWebhook=false,InPlaceUpdateEnvFromMetadata=0,'),
    ).toEqual({
      // PodWebhook off turns PodUnavailableBudgetUpdateGate off, as OpenKruise's SetDefaultFeatureGates
      options: { cloneSetShortHash: true, inPlaceUpdateEnvFromMetadata: false, pubUpdateGate: false },
      ignored: [],
    });
  });

  it('AllAlpha / AllBeta set every CloneSet gate of their stage the list does not name (OpenKruise e2e install)', () => {
    expect(parseFeatureGates('AllAlpha=true,AllBeta=true')).toEqual({
      options: ALL_ON,
      ignored: [],
    });
    // a gate named explicitly wins over the stage switch, before or after it
    expect(
      parseFeatureGates('TemplateNoDefaults=false,AllAlpha=true,AllBeta=false,CloneSetShortHash=false'),
    ).toEqual({
      options: {
        cloneSetPartitionRollback: true,
        preparingUpdateAsUpdate: true,
        cloneSetShortHash: false,
        inPlaceUpdateEnvFromMetadata: false,
        inPlaceWorkloadVerticalScaling: true,
        recreatePodWhenChangeVCTInCloneSet: true,
        templateNoDefaults: false,
        // AllBeta=false turns KruiseDaemon and PodWebhook off, and with them these two (SetDefaultFeatureGates)
        preDownloadImageForInPlaceUpdate: false,
        kruiseDaemon: false,
        pubUpdateGate: false,
      },
      ignored: [],
    });
  });

  it("OpenKruise's RecreatePodWhenChangeVCTInCloneSetGate and the earlier spelling without Gate set the same option", () => {
    expect(parseFeatureGates('RecreatePodWhenChangeVCTInCloneSetGate=true').options).toEqual({
      recreatePodWhenChangeVCTInCloneSet: true,
    });
    expect(parseFeatureGates('RecreatePodWhenChangeVCTInCloneSet=true').options).toEqual({
      recreatePodWhenChangeVCTInCloneSet: true,
    });
    expect(() =>
      parseFeatureGates(
        'RecreatePodWhenChangeVCTInCloneSet=true,RecreatePodWhenChangeVCTInCloneSetGate=false',
      ),
    ).toThrow('RecreatePodWhenChangeVCTInCloneSetGate is set twice');
  });

  it('KruiseDaemon off turns off what needs the node agent, even named true (OpenKruise SetDefaultFeatureGates)', () => {
    expect(parseFeatureGates('AllAlpha=true,AllBeta=true,KruiseDaemon=false').options).toEqual({
      ...ALL_ON,
      kruiseDaemon: false,
      inPlaceUpdateEnvFromMetadata: false,
      preDownloadImageForInPlaceUpdate: false,
    });
    expect(parseFeatureGates('InPlaceUpdateEnvFromMetadata=true,KruiseDaemon=false').options).toEqual({
      kruiseDaemon: false,
      inPlaceUpdateEnvFromMetadata: false,
      preDownloadImageForInPlaceUpdate: false,
    });
    expect(parseFeatureGates('AllBeta=false').options).toMatchObject({
      kruiseDaemon: false,
      inPlaceUpdateEnvFromMetadata: false,
      preDownloadImageForInPlaceUpdate: false,
    });
  });

  it('KruiseDaemon and PodWebhook on (named, by AllBeta, or by default) leave their dependents as the list set them', () => {
    expect(parseFeatureGates('InPlaceUpdateEnvFromMetadata=true').options).toEqual({
      inPlaceUpdateEnvFromMetadata: true,
    });
    expect(parseFeatureGates('PodWebhook=true,PodUnavailableBudgetUpdateGate=true').options).toEqual({
      pubUpdateGate: true,
    });
    expect(parseFeatureGates('AllBeta=false,KruiseDaemon=true,PodWebhook=true').options).toEqual({
      kruiseDaemon: true,
      inPlaceUpdateEnvFromMetadata: false,
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
