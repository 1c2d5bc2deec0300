/**
 * lib/controllers/broadcastjob/settings.ts: the gates the BroadcastJob controller reads from a deployment's
 * `featureGates` (OpenKruise v1.9.0 names and stages).
 */
import { describe, expect, it } from '@jest/globals';
import { BROADCASTJOB_SETTINGS } from '../../../../lib/controllers/broadcastjob/settings.js';

describe('BroadcastJob settings', () => {
  it('reads TemplateNoDefaults (AllAlpha turns it on) and leaves every other gate to other controllers', () => {
    expect(BROADCASTJOB_SETTINGS.parse({ featureGates: '', flags: {} })).toEqual({
      settings: {},
      unknownGates: [],
    });
    expect(
      BROADCASTJOB_SETTINGS.parse({ featureGates: 'TemplateNoDefaults=true,PodIndexLabel=false', flags: {} }),
    ).toEqual({ settings: { templateNoDefaults: true }, unknownGates: ['PodIndexLabel'] });
    expect(BROADCASTJOB_SETTINGS.parse({ featureGates: 'AllAlpha=true', flags: {} }).settings).toEqual({
      templateNoDefaults: true,
    });
  });
});
