/**
 * The one error base (lib/core/errors.ts): every adapter error is a KruiselessError, and every `{path, message}`
 * list renders the same way.
 */
import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { FieldErrorsError, KruiselessError, fieldErrorsFromZod } from '../../../lib/core/errors.js';
import { InvalidPatternError, InvalidServerlessConfigError } from '../../../lib/emulator/errors.js';
import { InvalidEventError, PublishError } from '../../../lib/requests/errors.js';
import { InvalidAdmissionReviewError } from '../../../lib/source/admission.js';
import { KubeApiError } from '../../../lib/kube/errors.js';
import { ConfigError } from '../../../lib/runtime/config.js';
import { UnknownClusterError } from '../../../lib/runtime/types.js';
import { ParameterUnavailableError } from '../../../lib/runtime/cachedParameter.js';
import { PublishBudgetExceededError } from '../../../lib/runtime/handlers/admission.js';
import {
  FencedOutError,
  InvalidClusterRecordError,
  InvalidStateKeyError,
  StateStoreError,
} from '../../../lib/state/errors.js';
import { GoJsonError } from '../../../lib/api/goJson.js';
import { IntOrPercentError } from '../../../lib/api/intOrPercent.js';
import { InvalidSelectorError } from '../../../lib/api/selector.js';
import { CliError } from '../../../lib/cli/io.js';
import { InPlaceStateError } from '../../../lib/podset/inplace/state.js';
import { UnknownKindError } from '../../parity/kinds/index.js';
import { GinkgoReportError } from '../../parity/upstreamE2eReport.js';

describe('FieldErrorsError', () => {
  it('renders every field, the whole input without a path, and a fallback for none', () => {
    const e = new InvalidEventError([
      { path: 'detail.name', message: 'is required' },
      { path: '', message: 'must be an object' },
    ]);
    expect(e.message).toBe('invalid reconcile event: detail.name: is required; must be an object');
    expect(e).toBeInstanceOf(FieldErrorsError);
    expect(e.name).toBe('InvalidEventError');
    expect(new InvalidClusterRecordError([]).message).toBe('invalid cluster record: unknown error');
  });

  it('takes zod paths as dotted paths with [i] for list items, after a prefix', () => {
    const parsed = z.object({ a: z.array(z.object({ b: z.string() })) }).safeParse({ a: [{ b: 1 }] });
    expect(parsed.success).toBe(false);
    if (!parsed.success) {
      expect(fieldErrorsFromZod(parsed.error, 'functions.reconcile')).toEqual([
        { path: 'functions.reconcile.a[0].b', message: 'Invalid input: expected string, received number' },
      ]);
    }
  });
});

describe('KruiselessError', () => {
  it('is the base of every error the adapters throw on purpose, each keeping its own name', () => {
    const errors: Error[] = [
      new InvalidEventError([]),
      new PublishError([], 0, 1),
      new InvalidPatternError('a', 'b'),
      new InvalidServerlessConfigError([]),
      new KubeApiError('get pod a/b', 404, 'NotFound', 'gone'),
      new FencedOutError('lease.renew', 'k', 1),
      new StateStoreError('lease.acquire', 'k', new Error('x')),
      new InvalidStateKeyError('x', 'y'),
      new InvalidClusterRecordError([]),
      new InvalidAdmissionReviewError('bad'),
      new ConfigError('bad'),
      new UnknownClusterError('c'),
      new ParameterUnavailableError('/p', new Error('x')),
      new PublishBudgetExceededError(1000),
    ];
    expect(errors.filter((e) => !(e instanceof KruiselessError)).map((e) => e.name)).toEqual([]);
    expect(errors.map((e) => e.name)).toEqual([
      'InvalidEventError',
      'PublishError',
      'InvalidPatternError',
      'InvalidServerlessConfigError',
      'KubeApiError',
      'FencedOutError',
      'StateStoreError',
      'InvalidStateKeyError',
      'InvalidClusterRecordError',
      'InvalidAdmissionReviewError',
      'ConfigError',
      'UnknownClusterError',
      'ParameterUnavailableError',
      'PublishBudgetExceededError',
    ]);
  });

  it("is the base of the pure layers' errors, the CLI's and the test harnesses' too", () => {
    const errors: Error[] = [
      new GoJsonError('json: unsupported value: NaN'),
      new IntOrPercentError('bad'),
      new InvalidSelectorError('bad'),
      new CliError('bad', 2),
      new InPlaceStateError('bad'),
      new UnknownKindError('nope'),
      new GinkgoReportError('bad'),
    ];
    expect(errors.filter((e) => !(e instanceof KruiselessError)).map((e) => e.name)).toEqual([]);
    expect(errors.map((e) => e.name)).toEqual([
      'GoJsonError',
      'IntOrPercentError',
      'InvalidSelectorError',
      'CliError',
      'InPlaceStateError',
      'UnknownKindError',
      'GinkgoReportError',
    ]);
  });
});
