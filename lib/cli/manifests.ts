/**
 * The manifests `kruiseless install` applies, read from the package itself (infra/crds, infra/rbac,
 * infra/webhook), and the rendering of the admission webhook template (infra/webhook/README.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadAllYaml, type KubernetesObject } from '@kubernetes/client-node';
import { parseManifests } from '../kube/apply.js';
import type { Controller } from '../controllers/controller.js';
import { CONTROLLERS } from '../controllers/index.js';
import { clusterPathSecret } from '../source/admissionSecret.js';
import type { CrdConverter } from '../api/conversion/converter.js';
import { ANNOTATION_CONVERSION_WEBHOOK, conversionStanza, crdNameOf } from '../api/conversion/crd.js';
import type { ConversionWebhookTarget } from '../api/conversion/crd.js';
import { CRD_CONVERTERS } from '../controllers/conversions.js';
import { admissionMutators } from '../controllers/mutations.js';
import {
  mutatingWebhookConfiguration,
  validatingWebhookConfiguration,
} from '../api/admission/webhookConfiguration.js';
import { admissionValidators } from '../controllers/validations.js';
import type { JsonObject } from '../api/types.js';
import { CliError } from './io.js';
import { rawCrd, webhookVersionsOf } from './webhookVersions.js';

/** Absolute path of a file or folder of this package, e.g. `infra/crds`. */
export function packagePath(relative: string): string {
  return fileURLToPath(new URL(`../../${relative}`, import.meta.url));
}

/**
 * The CustomResourceDefinitions `install` applies: each registered controller's own (`crd`, lib/controllers), in
 * registration order, then the other files of infra/crds (the CRDs a controller reads beside its own, e.g.
 * ImagePullJob for CloneSet's image pre-download).
 * @throws CliError when a registration names a file infra/crds does not have
 */
export function crdManifests(
  controllers: readonly Pick<Controller, 'name' | 'crd'>[] = CONTROLLERS,
): KubernetesObject[] {
  const dir = packagePath('infra/crds');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  const own = controllers.flatMap((c) => (c.crd ? [c.crd] : []));
  const missing = controllers.filter((c) => c.crd !== undefined && !files.includes(c.crd));
  if (missing.length > 0)
    throw new CliError(
      `infra/crds has no CRD for ${missing.map((c) => `${c.name} (${c.crd ?? ''})`).join(', ')}`,
    );
  return [...own, ...files.filter((f) => !own.includes(f))].flatMap((f) =>
    parseManifests(readFileSync(`${dir}/${f}`, 'utf8'), `infra/crds/${f}`),
  );
}

/**
 * The namespaces of infra/namespaces.yaml: those an OpenKruise installation creates that Kruiseless writes into
 * (`kruise-system`, where SidecarSet ControllerRevisions live as OpenKruise keeps them).
 */
export function namespaceManifests(): KubernetesObject[] {
  const file = 'infra/namespaces.yaml';
  return parseManifests(readFileSync(packagePath(file), 'utf8'), file);
}

/** The ClusterRoles and bindings of infra/rbac/kruiseless-rbac.yaml. */
export function rbacManifests(): KubernetesObject[] {
  const file = 'infra/rbac/kruiseless-rbac.yaml';
  return parseManifests(readFileSync(packagePath(file), 'utf8'), file);
}

/**
 * The pod guard (ValidatingAdmissionPolicy and its binding) of infra/rbac/kruiseless-pod-guard.yaml, which `install`
 * applies unless `--no-pod-guard`.
 */
export function podGuardManifests(): KubernetesObject[] {
  const file = 'infra/rbac/kruiseless-pod-guard.yaml';
  return parseManifests(readFileSync(packagePath(file), 'utf8'), file);
}

/**
 * The namespace opt-in (ValidatingAdmissionPolicy and its binding) of infra/rbac/kruiseless-namespace-opt-in.yaml,
 * applied with `install --namespace-opt-in`: pods and PVCs only in namespaces labelled `kruiseless.io/managed=true`.
 */
export function namespaceOptInManifests(): KubernetesObject[] {
  const file = 'infra/rbac/kruiseless-namespace-opt-in.yaml';
  return parseManifests(readFileSync(packagePath(file), 'utf8'), file);
}

/** What the admission webhook template needs (infra/webhook/validating-webhook.yaml). */
export interface AdmissionSettings {
  /** The stack's `AdmissionUrl` output: `https://<id>.lambda-url.<region>.on.aws/` (a missing `/` is added). */
  url: string;
  /**
   * The stage's master secret: the value of the SSM parameter `/kruiseless/<stage>/admission-path-secret`. The
   * webhook carries only the cluster's own secret derived from it (lib/source/admissionSecret.ts).
   */
  pathSecret: string;
  /** This cluster's name in the Kruiseless cluster registry. */
  clusterName: string;
}

const PATH_SEGMENT = /^[A-Za-z0-9._~-]+$/;

/**
 * The checked base of the admission URL, ending with `/`.
 * @throws CliError when the URL is not https, or the secret or cluster name is empty or not one URL path segment
 */
function admissionBase(s: AdmissionSettings): string {
  let url: URL;
  try {
    url = new URL(s.url);
  } catch {
    throw new CliError(`--admission-url ${s.url} is not a URL`);
  }
  if (url.protocol !== 'https:')
    throw new CliError(`--admission-url must be https (the API server requires it)`);
  if (url.search || url.username || url.password)
    throw new CliError(
      '--admission-url may carry no query string or user info (the API server refuses them)',
    );
  if (!s.pathSecret)
    throw new CliError(
      '--admission-url needs the admission path secret: pass --admission-path-secret or set KRUISELESS_ADMISSION_PATH_SECRET (the SSM parameter /kruiseless/<stage>/admission-path-secret)',
    );
  if (!PATH_SEGMENT.test(s.pathSecret))
    throw new CliError(
      'the admission path secret must be a non-empty URL path segment (letters, digits, ._~-)',
    );
  if (!PATH_SEGMENT.test(s.clusterName))
    throw new CliError(
      `--cluster-name ${s.clusterName} must be one URL path segment (letters, digits, ._~-)`,
    );
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

/**
 * The admission webhook configuration with its placeholders filled in; the path secret is the cluster's own,
 * HMAC(master, cluster) (lib/source/admissionSecret.ts), never the master. The result holds that secret: never
 * print it.
 * @throws CliError when the URL is not https, or the secret or cluster name is empty or not one URL path segment
 */
export function admissionManifests(s: AdmissionSettings): KubernetesObject[] {
  const base = admissionBase(s);
  const file = 'infra/webhook/validating-webhook.yaml';
  const text = readFileSync(packagePath(file), 'utf8')
    .replaceAll('${ADMISSION_URL}', base)
    .replaceAll('${ADMISSION_PATH_SECRET}', clusterPathSecret(s.pathSecret, s.clusterName))
    .replaceAll('${CLUSTER_NAME}', s.clusterName);
  return parseManifests(text, file);
}

/**
 * The admission function's conversion webhook URL for this cluster:
 * `<admission url>/<cluster secret>/<cluster>/convert` (lib/runtime/handlers/admission.ts). Holds the cluster's
 * secret: never print it.
 * @throws CliError as {@link admissionManifests}
 */
export function admissionConvertUrl(s: AdmissionSettings): string {
  return `${admissionBase(s)}${clusterPathSecret(s.pathSecret, s.clusterName)}/${s.clusterName}/convert`;
}

/**
 * The admission function's defaulting webhook for this cluster: the MutatingWebhookConfiguration `kruiseless-defaults`
 * (lib/api/admission/webhookConfiguration.ts) at `<admission url>/<cluster secret>/<cluster>/mutate`
 * (lib/runtime/handlers/admission.ts), one webhook per mutator of lib/controllers/mutations.ts; with `pods.enabled`,
 * then the pod webhook `mpod.kb.io` (pods CREATE: WorkloadSpread, SidecarSet injection; `failurePolicy: Fail` as
 * OpenKruise's) at `…/mutate-pod`. Holds the cluster's secret: never print it.
 * @param pods whether the pod webhook is written (opt-in: the function must reach the cluster, see docs/cli.md#install)
 * @throws CliError as {@link admissionManifests}
 */
export function defaultingWebhookManifests(
  s: AdmissionSettings,
  pods: { enabled: boolean } = { enabled: false },
): KubernetesObject[] {
  const base = `${admissionBase(s)}${clusterPathSecret(s.pathSecret, s.clusterName)}/${s.clusterName}`;
  return [
    mutatingWebhookConfiguration(
      {
        name: 'kruiseless-defaults',
        url: `${base}/mutate`,
        ...(pods.enabled ? { podUrl: `${base}/mutate-pod` } : {}),
      },
      admissionMutators(),
    ),
  ];
}

/**
 * The admission function's validating webhooks for this cluster: the ValidatingWebhookConfiguration
 * `kruiseless-validation` (lib/api/admission/webhookConfiguration.ts) at `<admission url>/<cluster secret>/<cluster>/validate`
 * (lib/runtime/handlers/admission.ts), one webhook per validator of lib/controllers/validations.ts, named as
 * OpenKruise's; with `pods.enabled`, then PodUnavailableBudget's pod webhooks `vpod.kb.io` (pod DELETE; UPDATE too
 * with `pods.updates`, gate `PodUnavailableBudgetUpdateGate`) and `vpodeviction.kb.io` (pods/eviction CREATE) at
 * `…/validate-pod`, `failurePolicy: Fail` as OpenKruise's. Holds the cluster's secret: never print it.
 * @param pods whether the pod webhooks are written (opt-in: the function must reach the cluster, see docs/cli.md#install)
 * @throws CliError as {@link admissionManifests}
 */
export function validatingWebhookManifests(
  s: AdmissionSettings,
  pods: { enabled: boolean; updates?: boolean } = { enabled: false },
): KubernetesObject[] {
  const base = `${admissionBase(s)}${clusterPathSecret(s.pathSecret, s.clusterName)}/${s.clusterName}`;
  return [
    validatingWebhookConfiguration(
      {
        name: 'kruiseless-validation',
        url: `${base}/validate`,
        ...(pods.enabled ? { podUrl: `${base}/validate-pod`, podUpdates: pods.updates ?? false } : {}),
      },
      admissionValidators(),
    ),
  ];
}

/**
 * `crds` with the CRD of every converter pointed at `target`: `spec.conversion` (strategy Webhook, url, caBundle,
 * review v1), the `kruiseless.io/conversion-webhook` annotation (lib/api/conversion/crd.ts) and, for a CRD with a
 * webhook overlay (CloneSet), its webhook-time versions (./webhookVersions.ts); the others as they are. The inputs
 * are not modified.
 */
export function withConversionWebhook(
  crds: readonly KubernetesObject[],
  target: ConversionWebhookTarget,
  converters: readonly CrdConverter[] = CRD_CONVERTERS,
): KubernetesObject[] {
  const names = new Set(converters.map(crdNameOf));
  return crds.map((crd) => {
    const name = crd.metadata?.name ?? '';
    if (!names.has(name)) return crd;
    const raw = rawCrd(name);
    const versions = raw && webhookVersionsOf(raw);
    if (raw && versions) {
      // rebuilt from the raw file: the models of `crds` cannot carry the overlay's x-kubernetes-* keys
      const meta = raw.metadata as JsonObject;
      const annotations = {
        ...(meta.annotations as JsonObject | undefined),
        [ANNOTATION_CONVERSION_WEBHOOK]: target.server,
      };
      const spec = { ...(raw.spec as JsonObject), versions, conversion: conversionStanza(target) };
      const [typed] = loadAllYaml(
        JSON.stringify({ ...raw, metadata: { ...meta, annotations }, spec }),
      ) as KubernetesObject[];
      if (typed) return typed;
    }
    const c = crd as KubernetesObject & { spec?: JsonObject };
    return {
      ...c,
      metadata: {
        ...c.metadata,
        annotations: { ...c.metadata?.annotations, [ANNOTATION_CONVERSION_WEBHOOK]: target.server },
      },
      spec: { ...c.spec, conversion: conversionStanza(target) },
    } as KubernetesObject;
  });
}

/** kubectl's name of an object: `<kind lower-case>.<group>/<name>`, e.g. `clusterrole.rbac.authorization.k8s.io/x`. */
export function objectRef(o: KubernetesObject): string {
  const group = (o.apiVersion ?? '').includes('/') ? (o.apiVersion ?? '').split('/')[0] : '';
  const kind = (o.kind ?? '').toLowerCase();
  return `${group ? `${kind}.${group}` : kind}/${o.metadata?.name ?? ''}`;
}

/**
 * OpenKruise's Advanced StatefulSet volumeClaimTemplate update rule (`ValidateVolumeClaimTemplateUpdate`) as the two
 * ValidatingAdmissionPolicies and bindings of infra/rbac/kruiseless-asts-claim-templates.yaml, which `local` and
 * `install --feature-gates` apply while gate `StatefulSetAutoResizePVCGate` is on (./claimTemplatePolicies.ts).
 */
export function claimTemplatePolicyManifests(): KubernetesObject[] {
  const file = 'infra/rbac/kruiseless-asts-claim-templates.yaml';
  return parseManifests(readFileSync(packagePath(file), 'utf8'), file);
}
