/**
 * Go's `encoding/json` output of a v1alpha1 `SidecarContainer` (a `corev1.Container` inline, then the injection
 * fields) — the bytes OpenKruise hashes for `kruise.io/sidecarset-hash` (`encodeSidecarSet` in
 * `pkg/control/sidecarcontrol/hash.go`). Go writes struct fields in declaration order, drops `omitempty` fields
 * holding Go's zero value (a non-pointer struct is never dropped) and writes maps with sorted keys; the schemas below
 * are `k8s.io/api` v0.32's `core/v1` types as OpenKruise v1.9.0 builds against them. Fields a schema does not list
 * (unknown to Go) are dropped, as Go's typed decode drops them. Pure.
 * Resource quantities are written as Go writes a `resource.Quantity` back, after Kubernetes' milli rounding
 * (lib/api/quantity.ts: `0.5` → `500m`). Approximation: a `resourceFieldRef.divisor` finer than a milli-unit is
 * rounded too (Go rounds only `resources`).
 */
import { goJson, goJsonNumber, goJsonString } from '../../../api/goJson.js';
import { canonicalQuantity } from '../../../api/quantity.js';
import { isJsonObject, type JsonValue } from '../../../api/types.js';

/** How one field is encoded. `ptr` is a Go pointer: written whenever present, even when zero. */
type Kind =
  | 'string'
  | 'int'
  | 'bool'
  | 'ptr'
  | 'strings'
  | 'map'
  | 'intOrString'
  | 'quantity'
  | 'quantityMap'
  | { struct: Schema; ptr?: boolean; inline?: boolean }
  | { list: Schema };

/** `[json name, kind, omitempty]`; an inline struct's name is ignored. */
type Field = readonly [string, Kind, boolean];
type Schema = readonly Field[];

type Obj = { [key: string]: JsonValue };

const nameOnly: Schema = [['name', 'string', true]];
const optional: Field = ['optional', 'ptr', true];
const objectFieldSelector: Schema = [
  ['apiVersion', 'string', true],
  ['fieldPath', 'string', false],
];
const envVar: Schema = [
  ['name', 'string', false],
  ['value', 'string', true],
  [
    'valueFrom',
    {
      ptr: true,
      struct: [
        ['fieldRef', { ptr: true, struct: objectFieldSelector }, true],
        [
          'resourceFieldRef',
          {
            ptr: true,
            struct: [
              ['containerName', 'string', true],
              ['resource', 'string', false],
              ['divisor', 'quantity', true],
            ],
          },
          true,
        ],
        ['configMapKeyRef', { ptr: true, struct: [...nameOnly, ['key', 'string', false], optional] }, true],
        ['secretKeyRef', { ptr: true, struct: [...nameOnly, ['key', 'string', false], optional] }, true],
      ],
    },
    true,
  ],
];
const envFromSource: Schema = [
  ['prefix', 'string', true],
  ['configMapRef', { ptr: true, struct: [...nameOnly, optional] }, true],
  ['secretRef', { ptr: true, struct: [...nameOnly, optional] }, true],
];
const httpGet: Schema = [
  ['path', 'string', true],
  ['port', 'intOrString', false],
  ['host', 'string', true],
  ['scheme', 'string', true],
  [
    'httpHeaders',
    {
      list: [
        ['name', 'string', false],
        ['value', 'string', false],
      ],
    },
    true,
  ],
];
const exec: Kind = { ptr: true, struct: [['command', 'strings', true]] };
const tcpSocket: Kind = {
  ptr: true,
  struct: [
    ['port', 'intOrString', false],
    ['host', 'string', true],
  ],
};
const probe: Kind = {
  ptr: true,
  struct: [
    ['exec', exec, true],
    ['httpGet', { ptr: true, struct: httpGet }, true],
    ['tcpSocket', tcpSocket, true],
    [
      'grpc',
      {
        ptr: true,
        struct: [
          ['port', 'int', false],
          ['service', 'ptr', true],
        ],
      },
      true,
    ],
    ['initialDelaySeconds', 'int', true],
    ['timeoutSeconds', 'int', true],
    ['periodSeconds', 'int', true],
    ['successThreshold', 'int', true],
    ['failureThreshold', 'int', true],
    ['terminationGracePeriodSeconds', 'ptr', true],
  ],
};
const lifecycleHandler: Kind = {
  ptr: true,
  struct: [
    ['exec', exec, true],
    ['httpGet', { ptr: true, struct: httpGet }, true],
    ['tcpSocket', tcpSocket, true],
    ['sleep', { ptr: true, struct: [['seconds', 'int', false]] }, true],
  ],
};
const profile: Kind = {
  ptr: true,
  struct: [
    ['type', 'string', false],
    ['localhostProfile', 'ptr', true],
  ],
};
const securityContext: Kind = {
  ptr: true,
  struct: [
    [
      'capabilities',
      {
        ptr: true,
        struct: [
          ['add', 'strings', true],
          ['drop', 'strings', true],
        ],
      },
      true,
    ],
    ['privileged', 'ptr', true],
    [
      'seLinuxOptions',
      {
        ptr: true,
        struct: [
          ['user', 'string', true],
          ['role', 'string', true],
          ['type', 'string', true],
          ['level', 'string', true],
        ],
      },
      true,
    ],
    [
      'windowsOptions',
      {
        ptr: true,
        struct: [
          ['gmsaCredentialSpecName', 'ptr', true],
          ['gmsaCredentialSpec', 'ptr', true],
          ['runAsUserName', 'ptr', true],
          ['hostProcess', 'ptr', true],
        ],
      },
      true,
    ],
    ['runAsUser', 'ptr', true],
    ['runAsGroup', 'ptr', true],
    ['runAsNonRoot', 'ptr', true],
    ['readOnlyRootFilesystem', 'ptr', true],
    ['allowPrivilegeEscalation', 'ptr', true],
    ['procMount', 'ptr', true],
    ['seccompProfile', profile, true],
    ['appArmorProfile', profile, true],
  ],
};

/** `corev1.Container` (k8s.io/api v0.32). */
const container: Schema = [
  ['name', 'string', false],
  ['image', 'string', true],
  ['command', 'strings', true],
  ['args', 'strings', true],
  ['workingDir', 'string', true],
  [
    'ports',
    {
      list: [
        ['name', 'string', true],
        ['hostPort', 'int', true],
        ['containerPort', 'int', false],
        ['protocol', 'string', true],
        ['hostIP', 'string', true],
      ],
    },
    true,
  ],
  ['envFrom', { list: envFromSource }, true],
  ['env', { list: envVar }, true],
  [
    'resources',
    {
      struct: [
        ['limits', 'quantityMap', true],
        ['requests', 'quantityMap', true],
        [
          'claims',
          {
            list: [
              ['name', 'string', false],
              ['request', 'string', true],
            ],
          },
          true,
        ],
      ],
    },
    true,
  ],
  [
    'resizePolicy',
    {
      list: [
        ['resourceName', 'string', false],
        ['restartPolicy', 'string', false],
      ],
    },
    true,
  ],
  ['restartPolicy', 'ptr', true],
  [
    'volumeMounts',
    {
      list: [
        ['name', 'string', false],
        ['readOnly', 'bool', true],
        ['recursiveReadOnly', 'ptr', true],
        ['mountPath', 'string', false],
        ['subPath', 'string', true],
        ['mountPropagation', 'ptr', true],
        ['subPathExpr', 'string', true],
      ],
    },
    true,
  ],
  [
    'volumeDevices',
    {
      list: [
        ['name', 'string', false],
        ['devicePath', 'string', false],
      ],
    },
    true,
  ],
  ['livenessProbe', probe, true],
  ['readinessProbe', probe, true],
  ['startupProbe', probe, true],
  [
    'lifecycle',
    {
      ptr: true,
      struct: [
        ['postStart', lifecycleHandler, true],
        ['preStop', lifecycleHandler, true],
      ],
    },
    true,
  ],
  ['terminationMessagePath', 'string', true],
  ['terminationMessagePolicy', 'string', true],
  ['imagePullPolicy', 'string', true],
  ['securityContext', securityContext, true],
  ['stdin', 'bool', true],
  ['stdinOnce', 'bool', true],
  ['tty', 'bool', true],
];

const policy: Kind = { struct: [['type', 'string', true]] };

/** v1alpha1 `SidecarContainer`: the container inline, then the injection fields. */
const sidecarContainer: Schema = [
  ['', { struct: container, inline: true }, false],
  ['podInjectPolicy', 'string', true],
  [
    'upgradeStrategy',
    {
      struct: [
        ['upgradeType', 'string', true],
        ['hotUpgradeEmptyImage', 'string', true],
      ],
    },
    true,
  ],
  ['shareVolumePolicy', policy, true],
  ['shareVolumeDevicePolicy', { ptr: true, struct: [['type', 'string', true]] }, true],
  [
    'transferEnv',
    {
      list: [
        ['sourceContainerName', 'string', true],
        [
          'sourceContainerNameFrom',
          { ptr: true, struct: [['fieldRef', { ptr: true, struct: objectFieldSelector }, true]] },
          true,
        ],
        ['envName', 'string', true],
        ['envNames', 'strings', true],
      ],
    },
    true,
  ],
  [
    'resourcesPolicy',
    {
      ptr: true,
      struct: [
        ['targetContainersMode', 'string', false],
        ['targetContainersNameRegex', 'string', true],
        [
          'resourcesExpr',
          {
            struct: [
              [
                'limits',
                {
                  ptr: true,
                  struct: [
                    ['cpu', 'string', true],
                    ['memory', 'string', true],
                  ],
                },
                true,
              ],
              [
                'requests',
                {
                  ptr: true,
                  struct: [
                    ['cpu', 'string', true],
                    ['memory', 'string', true],
                  ],
                },
                true,
              ],
            ],
          },
          false,
        ],
      ],
    },
    true,
  ],
];

const isNil = (v: unknown): boolean => v === undefined || v === null;

/** A quantity as Go writes it back (lib/api/quantity.ts); a JSON number is read as its decimal text. */
const quantityText = (v: unknown): string =>
  canonicalQuantity(typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '0');

/** The encoded value of `v` as `kind`, or undefined when `omitempty` drops it. */
function encodeField(v: JsonValue | undefined, kind: Kind, omitEmpty: boolean): string | undefined {
  if (typeof kind === 'object' && 'list' in kind) {
    const items = Array.isArray(v) ? v : [];
    if (items.length === 0) return omitEmpty ? undefined : isNil(v) ? 'null' : '[]';
    return `[${items.map((i) => encodeStruct(isJsonObject(i) ? i : {}, kind.list)).join(',')}]`;
  }
  if (typeof kind === 'object') {
    if (kind.ptr && isNil(v)) return undefined;
    return encodeStruct(isJsonObject(v) ? v : {}, kind.struct);
  }
  switch (kind) {
    case 'string': {
      const s = typeof v === 'string' ? v : '';
      return omitEmpty && s === '' ? undefined : goJsonString(s);
    }
    case 'int': {
      const n = typeof v === 'number' ? v : 0;
      return omitEmpty && n === 0 ? undefined : goJsonNumber(n);
    }
    case 'bool':
      return omitEmpty && v !== true ? undefined : String(v === true);
    case 'ptr':
      return isNil(v) ? undefined : goJson(v);
    case 'strings': {
      const items = Array.isArray(v) ? v : [];
      if (items.length === 0) return omitEmpty ? undefined : isNil(v) ? 'null' : '[]';
      return goJson(items);
    }
    case 'map': {
      if (!isJsonObject(v) || Object.keys(v).length === 0)
        return omitEmpty ? undefined : isNil(v) ? 'null' : '{}';
      return goJson(v);
    }
    case 'intOrString':
      return typeof v === 'number' ? goJsonNumber(v) : goJsonString(typeof v === 'string' ? v : '');
    case 'quantity':
      return goJsonString(quantityText(v));
    case 'quantityMap': {
      if (!isJsonObject(v) || Object.keys(v).length === 0)
        return omitEmpty ? undefined : isNil(v) ? 'null' : '{}';
      return goJson(Object.fromEntries(Object.entries(v).map(([k, q]) => [k, quantityText(q)])));
    }
  }
}

/** The members of `o` under `schema`, without the braces. */
function members(o: Obj, schema: Schema): string[] {
  const out: string[] = [];
  for (const [name, kind, omitEmpty] of schema) {
    if (typeof kind === 'object' && 'struct' in kind && kind.inline) {
      out.push(...members(o, kind.struct));
      continue;
    }
    const encoded = encodeField(o[name], kind, omitEmpty);
    if (encoded !== undefined) out.push(`${goJsonString(name)}:${encoded}`);
  }
  return out;
}

function encodeStruct(o: Obj, schema: Schema): string {
  return `{${members(o, schema).join(',')}}`;
}

/**
 * Go's `json.Marshal` of a `[]SidecarContainer` (v1alpha1) decoded from `containers`, byte for byte (but see the
 * quantity note above). An absent list is `null`, as a nil Go slice.
 */
export function goSidecarContainersJson(containers: readonly JsonValue[] | undefined): string {
  if (containers === undefined) return 'null';
  return `[${containers.map((c) => encodeStruct(isJsonObject(c) ? c : {}, sidecarContainer)).join(',')}]`;
}
