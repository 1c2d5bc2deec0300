/**
 * Lambda `admission`: the optional Function URL receiving AdmissionReview calls and forwarding CloneSet keys. The handler is {@link admissionHandler} (lib/runtime/handlers/admission.ts) on the AWS
 * runtime, so the embedded default runs the same code.
 */
import { awsRuntimeWith } from '../lib/runtime/aws.js';
import { admissionHandler } from '../lib/runtime/handlers/admission.js';
import { readSsmParameter } from '../lib/runtime/ssm.js';

/** The Lambda entry point. */
export const handler = admissionHandler(awsRuntimeWith({ readParameter: readSsmParameter }));
