/**
 * A recording in-memory API server for the reconciler's unit tests, in the manner of client-go's
 * `k8s.io/client-go/testing` fake (`Fake.Actions()`): it implements the generic {@link KubeClient} port over one
 * map of objects per resource, keeps resourceVersions, UID and resourceVersion preconditions (409 Conflict; a PATCH
 * naming another UID or a failed JSON-patch `test`: 422 Invalid), AlreadyExists and NotFound as the real API
 * server does, applies merge, strategic-merge and JSON patches (a pod's container resources changed only through
 * `pods/resize`, as Kubernetes >= 1.32: a pod patch changing them is 422), and appends every write to a shared
 * {@link Journal} — which the recording state stores write to as well, so a test reads the one ordered list of
 * writes of an invocation.
 * Faults that a real API server cannot be made to produce on cue (a 500 on the n-th create) are injected with
 * {@link RecordingKube.failOn}.
 *
 * Journal lines: `<verb> <kind>[ <subresource>] <name>` (kind in lower case: `create pod web-a`, `replace cloneset
 * status web`), a merge patch followed by its body without preconditions (`patch cloneset web {"spec":…}`: the
 * field it sets is the point), an Event as `event <reason>: <message>`. Reads (`get cloneset web`, `list pods`)
 * are not journaled, but faults see them. Objects are stored by name: one namespace per test.
 */
import jsonpatch from 'fast-json-patch';
import type { JsonObject, PersistentVolumeClaim } from '../../../../../../lib/api/types.js';
import type { CloneSet, ControllerRevision, Pod } from '../../../../../../lib/api/types.js';
import { KubeApiError } from '../../../../../../lib/kube/errors.js';
import type { CoreEvent } from '../../../../../../lib/kube/event.js';
import { recordFolded, type EventApi } from '../../../../../../lib/kube/eventFolding.js';
import { RESOURCES } from '../../../../../../lib/kube/resources.js';
import type {
  DeleteOptions,
  KubeClient,
  KubeEvent,
  KubeObject,
  Listed,
  ListOptions,
  ObjectRef,
  Patch,
  PatchOptions,
  Preconditions,
  RecordEventOptions,
  ReplaceOptions,
  Resource,
} from '../../../../../../lib/kube/types.js';
import type { ExpectationStore, LeaseStore, ScaleDownLedger } from '../../../../../../lib/state/index.js';
import {
  parseServerVersion,
  POD_RESIZE_SINCE,
  versionAtLeast,
  type ServerVersionInfo,
} from '../../../../../../lib/kube/version.js';
import { imageIdOf, strategicMerge } from '../../../../support/world.js';
import { CLONESET_RESOURCE } from '../../../../../../lib/controllers/cloneset/api/resource.js';

/** The ordered list of calls, as short lines: `<verb> <what>`. */
export type Journal = string[];

/** Decides whether a call fails: return an error to throw, or undefined to let it through. */
export type Fault = (call: string) => KubeApiError | undefined;

function apiError(op: string, code: number, reason: string, message = reason): KubeApiError {
  return new KubeApiError(op, code, reason, message);
}

/** 409 Conflict, as the API server answers a failed resourceVersion or UID precondition. */
export function conflict(op = 'write'): KubeApiError {
  return apiError(
    op,
    409,
    'Conflict',
    'the object has been modified; please apply your changes to the latest version',
  );
}

/** 500, an API server failure. */
export function internalError(op = 'write'): KubeApiError {
  return apiError(op, 500, 'InternalError', 'etcd is unavailable');
}

function hasLabel(o: KubeObject, selector?: string): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const [k, v] = term.split('=');
    const labels = o.metadata.labels ?? {};
    return v === undefined ? k in labels : labels[k] === v;
  });
}

/** `field.path=value,…` equality terms, as the API server's field selectors (the fields the tests use). */
function hasFields(o: KubeObject, selector?: string): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const [path, want] = term.split('=');
    let value: unknown = o;
    for (const part of path.split('.')) value = (value as Record<string, unknown> | undefined)?.[part];
    const text =
      typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : value === undefined || value === null
          ? ''
          : JSON.stringify(value);
    return text === want;
  });
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An RFC 7386 JSON merge patch: objects merged, `null` removes, anything else replaces. */
function mergePatch(target: JsonObject, patch: JsonObject): JsonObject {
  const out: JsonObject = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else if (isObject(value)) out[key] = mergePatch(isObject(out[key]) ? out[key] : {}, value);
    else out[key] = structuredClone(value);
  }
  return out;
}

/** `body` without the preconditions in its metadata (uid, resourceVersion), and the preconditions. */
function splitPreconditions(body: JsonObject): { body: JsonObject; preconditions: Preconditions } {
  if (!isObject(body.metadata)) return { body, preconditions: {} };
  const { uid, resourceVersion, ...metadata } = body.metadata;
  const preconditions: Preconditions = {
    ...(typeof uid === 'string' ? { uid } : {}),
    ...(typeof resourceVersion === 'string' ? { resourceVersion } : {}),
  };
  const { metadata: _all, ...rest } = body;
  return { body: Object.keys(metadata).length > 0 ? { ...rest, metadata } : rest, preconditions };
}

/** The store key of a resource. */
const keyOf = (r: Resource): string => `${r.group}/${r.plural}`;

/**
 * What the API server does to an object on create beyond uid and resourceVersion (its registry strategy's
 * `PrepareForCreate`): a pod gets its creation time and starts Pending.
 */
const ON_CREATE: Record<string, (o: KubeObject, now: Date) => void> = {
  [keyOf(RESOURCES.pods)]: (o, now) => {
    const pod = o as Pod;
    pod.metadata.creationTimestamp = now.toISOString().slice(0, 19) + 'Z';
    pod.status = { phase: 'Pending' };
  },
};

/** The in-memory API server. */
export class RecordingKube implements KubeClient {
  /** Stored objects by resource, then by name. */
  private readonly stores = new Map<string, Map<string, KubeObject>>();
  /** Resources not served (no CRD): every call answers 404. By default ImagePullJobs (see {@link serve}). */
  private readonly unserved = new Set<string>([keyOf(RESOURCES.imagepulljobs)]);
  /** Every Event the reconciler asked to record, in order (before folding). */
  events: KubeEvent[] = [];
  /** The stored core/v1 Event objects by name, as the real recorder leaves them (lib/kube/eventFolding.ts). */
  eventObjects = new Map<string, JsonObject>();
  /**
   * The Event API calls of the folding recorder, as `<verb> event <name>` (patches also show what they set): kept
   * apart from {@link journal} so the order of the other writes reads as before. Faults apply to them too.
   */
  eventCalls: string[] = [];
  private rv = 100;
  private faults: Fault[] = [];
  /** What `GET /version` answers (undefined: the read fails); the local control plane's release by default. */
  version: ServerVersionInfo | undefined = { major: '1', minor: '34', gitVersion: 'v1.34.4' };
  /** Whether `pods/resize` is served (Kubernetes >= 1.32); where not, a pod patch may change container resources. */
  servesPodResize = true;
  /** How often {@link serverVersion} was called. */
  versionReads = 0;

  /**
   * @param uidOf the UID a created object gets; default `uid-<name>` (short, readable in journals; the capacity
   *   model gives real 36-character UIDs, since item sizes depend on them)
   */
  constructor(
    readonly journal: Journal,
    private readonly clock: () => Date,
    private readonly uidOf: (name: string) => string = (name) => `uid-${name}`,
  ) {}

  /** The stored objects of `resource` by name (live: tests may add, change or remove objects behind the client). */
  objects<T extends KubeObject>(resource: Resource<T>): Map<string, T> {
    let store = this.stores.get(keyOf(resource));
    if (!store) this.stores.set(keyOf(resource), (store = new Map<string, KubeObject>()));
    return store as Map<string, T>;
  }
  get cloneSets(): Map<string, CloneSet> {
    return this.objects(CLONESET_RESOURCE);
  }
  get pods(): Map<string, Pod> {
    return this.objects(RESOURCES.pods);
  }
  get pvcs(): Map<string, PersistentVolumeClaim> {
    return this.objects(RESOURCES.persistentvolumeclaims);
  }
  get revisions(): Map<string, ControllerRevision> {
    return this.objects(RESOURCES.controllerrevisions);
  }

  /** Serve `resource` (install its CRD). */
  serve(resource: Resource): this {
    this.unserved.delete(keyOf(resource));
    return this;
  }

  /**
   * Behave as the release `gitVersion` names: `pods/resize` served from 1.32 on. `readable: false`: the server
   * behaves so, but its `GET /version` fails.
   */
  asRelease(gitVersion: string, readable = true): this {
    const v = parseServerVersion({ gitVersion });
    this.servesPodResize = !!v && versionAtLeast(v, POD_RESIZE_SINCE);
    this.version = readable ? { gitVersion } : undefined;
    return this;
  }

  async serverVersion(): Promise<ServerVersionInfo | undefined> {
    this.versionReads++;
    return structuredClone(this.version);
  }

  /** Fail calls chosen by `fault` (once each it returns an error). */
  failOn(fault: Fault): this {
    this.faults.push(fault);
    return this;
  }

  private nextRv(): string {
    return String(++this.rv);
  }

  /** The resourceVersion of the latest write (a LIST's resourceVersion). */
  currentResourceVersion(): string {
    return String(this.rv);
  }

  /**
   * A new resourceVersion, as etcd's revision moves on a write the client does not make: a test that removes an
   * object behind the client (a force delete, the garbage collector) gives its DELETED watch event this one.
   */
  advanceResourceVersion(): string {
    return this.nextRv();
  }

  private record(call: string, write = true): void {
    if (write) this.journal.push(call);
    for (const f of this.faults) {
      const e = f(call);
      if (e) throw e;
    }
  }

  /** Store a CloneSet as a user's `kubectl apply` would (uid, generation, resourceVersion). */
  apply(cs: CloneSet): CloneSet {
    const name = cs.metadata.name ?? '';
    const old = this.cloneSets.get(name);
    const stored: CloneSet = structuredClone(cs);
    stored.metadata.uid = old?.metadata.uid ?? 'cs-uid';
    stored.metadata.generation = (old?.metadata.generation ?? 0) + 1;
    stored.metadata.resourceVersion = this.nextRv();
    if (old?.status) stored.status = old.status;
    this.cloneSets.set(name, stored);
    return stored;
  }

  /** The fake kubelet: every pod runs its images and is Ready. */
  kubelet(): void {
    for (const pod of this.pods.values()) {
      pod.spec.nodeName ||= 'node-1';
      pod.status = {
        ...pod.status,
        phase: 'Running',
        // the conditions controllers own (readiness-gate conditions) stay, as a kubelet leaves them
        conditions: [
          ...(pod.status?.conditions ?? []).filter((c) => c.type !== 'ContainersReady' && c.type !== 'Ready'),
          { type: 'ContainersReady', status: 'True', lastTransitionTime: '2024-05-01T08:00:00Z' },
          { type: 'Ready', status: 'True', lastTransitionTime: '2024-05-01T08:00:00Z' },
        ],
        containerStatuses: pod.spec.containers.map((c) => {
          const prev = pod.status?.containerStatuses?.find((s) => s.name === c.name);
          const same = prev?.image === c.image;
          return {
            name: c.name,
            image: c.image ?? '',
            imageID: imageIdOf(c.image ?? ''),
            containerID: `containerd://${pod.metadata.name}-${c.name}-${same ? 0 : (prev?.restartCount ?? -1) + 1}`,
            ready: true,
            restartCount: same ? (prev?.restartCount ?? 0) : prev ? prev.restartCount + 1 : 0,
            // the resources the container runs with (a resize applied at once, as kubelet >= 1.33 reports it)
            ...(c.resources ? { resources: structuredClone(c.resources) } : {}),
          };
        }),
      };
      pod.metadata.resourceVersion = this.nextRv();
    }
  }

  /** `<verb> <kind>[ <subresource>] <name>`. */
  private line(verb: string, resource: Resource, name: string, subresource?: string): string {
    return `${verb} ${resource.kind.toLowerCase()}${subresource ? ` ${subresource}` : ''} ${name}`;
  }

  /** The stored object `ref` names (its namespace must match), or a 404 (also when the resource is not served). */
  private stored<T extends KubeObject>(resource: Resource<T>, ref: ObjectRef, op: string): T {
    const found = this.unserved.has(keyOf(resource)) ? undefined : this.objects(resource).get(ref.name);
    if (!found || (resource.namespaced && found.metadata.namespace !== ref.namespace))
      throw apiError(op, 404, 'NotFound', `${resource.plural} "${ref.name}" not found`);
    return found;
  }

  /** 409 Conflict when `stored` fails `preconditions`. */
  private check(stored: KubeObject, preconditions: Preconditions, op: string): void {
    const { uid, resourceVersion } = preconditions;
    if (uid !== undefined && stored.metadata.uid !== uid) throw conflict(op);
    if (resourceVersion !== undefined && stored.metadata.resourceVersion !== resourceVersion)
      throw conflict(op);
  }

  async get<T extends KubeObject>(resource: Resource<T>, ref: ObjectRef): Promise<T | undefined> {
    const op = this.line('get', resource, ref.name);
    this.record(op, false);
    try {
      return structuredClone(this.stored(resource, ref, op));
    } catch {
      return undefined;
    }
  }

  async list<T extends KubeObject>(resource: Resource<T>, options: ListOptions = {}): Promise<Listed<T>> {
    const op = `list ${resource.plural}`;
    this.record(op, false);
    if (this.unserved.has(keyOf(resource)))
      throw apiError(op, 404, 'NotFound', 'the server could not find the requested resource');
    const { namespace, labelSelector, fieldSelector, limit } = options;
    const all = [...this.objects(resource).values()].filter(
      (o) =>
        (!resource.namespaced || namespace === undefined || o.metadata.namespace === namespace) &&
        hasLabel(o, labelSelector) &&
        hasFields(o, fieldSelector),
    );
    const from = Number(options.continue ?? 0);
    const to = limit === undefined ? all.length : from + limit;
    const listed: Listed<T> = {
      items: structuredClone(all.slice(from, to)),
      resourceVersion: String(this.rv),
    };
    if (to < all.length) listed.continue = String(to);
    return listed;
  }

  async create<T extends KubeObject>(resource: Resource<T>, object: T): Promise<T> {
    const name = object.metadata.name ?? '';
    const op = this.line('create', resource, name);
    this.record(op);
    if (this.unserved.has(keyOf(resource)))
      throw apiError(op, 404, 'NotFound', 'the server could not find the requested resource');
    const store = this.objects(resource);
    if (store.has(name))
      throw apiError(op, 409, 'AlreadyExists', `${resource.plural} "${name}" already exists`);
    const stored = structuredClone(object);
    stored.metadata.uid = this.uidOf(name);
    stored.metadata.resourceVersion = this.nextRv();
    ON_CREATE[keyOf(resource)]?.(stored, this.clock());
    store.set(name, stored);
    return structuredClone(stored);
  }

  async replace<T extends KubeObject>(
    resource: Resource<T>,
    object: T,
    options: ReplaceOptions = {},
  ): Promise<T> {
    const { namespace, name = '', resourceVersion } = object.metadata;
    const op = this.line('replace', resource, name, options.subresource);
    this.record(op);
    const stored = this.stored(resource, { ...(namespace !== undefined ? { namespace } : {}), name }, op);
    this.check(stored, resourceVersion === undefined ? {} : { resourceVersion }, op);
    const next: T =
      options.subresource === 'status'
        ? { ...stored, status: structuredClone((object as { status?: unknown }).status) }
        : {
            ...structuredClone(object),
            metadata: { ...structuredClone(object.metadata), uid: stored.metadata.uid },
          };
    next.metadata = { ...next.metadata, resourceVersion: this.nextRv() };
    this.objects(resource).set(name, next);
    return structuredClone(next);
  }

  async patch<T extends KubeObject>(
    resource: Resource<T>,
    ref: ObjectRef,
    patch: Patch,
    options: PatchOptions = {},
  ): Promise<T> {
    const base = this.line('patch', resource, ref.name, options.subresource);
    const given =
      patch.type === 'json' ? { body: patch.body, preconditions: {} } : splitPreconditions(patch.body);
    const op = patch.type === 'merge' ? `${base} ${JSON.stringify(given.body)}` : base;
    this.record(op);
    if (
      resource.plural === RESOURCES.pods.plural &&
      options.subresource === 'resize' &&
      !this.servesPodResize
    )
      throw apiError(base, 404, 'NotFound', 'the server could not find the requested resource');
    const stored = this.stored(resource, ref, base);
    const preconditions = { ...given.preconditions, ...options.preconditions };
    if (preconditions.uid !== undefined && preconditions.uid !== stored.metadata.uid)
      throw apiError(
        base,
        422,
        'Invalid',
        `${resource.kind} "${ref.name}" is invalid: metadata.uid: field is immutable`,
      );
    this.check(stored, preconditions, base);
    const doc = structuredClone(stored) as unknown as JsonObject;
    let next: JsonObject;
    if (patch.type === 'json') {
      try {
        next = jsonpatch.applyPatch(doc, patch.body as jsonpatch.Operation[], true, false).newDocument;
      } catch {
        // a failed `test` operation: the API server rejects the patch document
        throw apiError(
          base,
          422,
          'Invalid',
          'the server rejected our request due to an error in our request',
        );
      }
    } else if (patch.type === 'merge') next = mergePatch(doc, given.body as JsonObject);
    else next = strategicMerge(doc, given.body as JsonObject);
    if (
      resource.plural === RESOURCES.pods.plural &&
      options.subresource === undefined &&
      this.servesPodResize
    ) {
      // as Kubernetes >= 1.32: a pod's container resources change only through pods/resize
      const resources = (o: JsonObject) =>
        JSON.stringify(((o.spec as Pod['spec'] | undefined)?.containers ?? []).map((c) => c.resources ?? {}));
      if (resources(doc) !== resources(next))
        throw apiError(
          base,
          422,
          'Invalid',
          `Pod "${ref.name}" is invalid: spec: Forbidden: pod updates may not change fields other than \`spec.containers[*].image\`,…`,
        );
    }
    const merged = next as unknown as T;
    merged.metadata = { ...merged.metadata, resourceVersion: this.nextRv() };
    this.objects(resource).set(ref.name, merged);
    return structuredClone(merged);
  }

  async delete(
    resource: Resource,
    ref: ObjectRef,
    preconditions: Preconditions = {},
    options: DeleteOptions = {},
  ): Promise<void> {
    const op = this.line('delete', resource, ref.name);
    this.record(options.propagationPolicy ? `${op} (${options.propagationPolicy})` : op);
    const stored = this.stored(resource, ref, op);
    this.check(stored, preconditions, op);
    this.objects(resource).delete(ref.name);
  }

  /** Every Event PATCH body, in order. */
  eventPatches: JsonObject[] = [];

  /** The in-memory Event API the real folding recorder runs on (exposed for the folding tests). */
  readonly eventApiForTests: EventApi = {
    createEvent: async (_namespace, body) => {
      const name = String((body.metadata as { name?: string }).name);
      this.eventCall(`create event ${name}`);
      if (this.eventObjects.has(name))
        throw apiError(`create event ${name}`, 409, 'AlreadyExists', `events "${name}" already exists`);
      const stored = structuredClone(body);
      stored.metadata = { ...(body.metadata as JsonObject), resourceVersion: this.nextRv() };
      this.eventObjects.set(name, stored);
      return structuredClone(stored) as unknown as CoreEvent;
    },
    getEvent: async (_namespace, name) => {
      this.eventCall(`get event ${name}`);
      const stored = this.eventObjects.get(name);
      return stored && (structuredClone(stored) as unknown as CoreEvent);
    },
    patchEvent: async (_namespace, name, patch) => {
      const { metadata, ...fields } = patch;
      const sets = Object.entries(fields)
        // Events' patched fields are strings and numbers
        .map(([k, v]) => `${k}=${String(v as string | number)}`)
        .join(' ');
      this.eventCall(`patch event ${name} ${sets}`);
      this.eventPatches.push(structuredClone(patch));
      const stored = this.eventObjects.get(name);
      if (!stored) throw apiError(`patch event ${name}`, 404, 'NotFound');
      const meta = stored.metadata as JsonObject;
      if ((metadata as JsonObject).resourceVersion !== meta.resourceVersion)
        throw conflict(`patch event ${name}`);
      const next = { ...stored, ...fields, metadata: { ...meta, resourceVersion: this.nextRv() } };
      this.eventObjects.set(name, next);
      return structuredClone(next) as unknown as CoreEvent;
    },
  };

  private eventCall(call: string): void {
    this.eventCalls.push(call);
    for (const f of this.faults) {
      const e = f(call);
      if (e) throw e;
    }
  }

  /** Journals the request, then records it through the real folding recorder (best effort, as the real client). */
  async recordEvent<T extends KubeObject>(
    resource: Resource<T>,
    object: T,
    event: KubeEvent,
    options: RecordEventOptions = {},
  ): Promise<void> {
    this.journal.push(`event ${event.reason}: ${event.message}`);
    this.events.push(event);
    await recordFolded(
      this.eventApiForTests,
      { resource, object },
      event,
      this.clock(),
      options.aggregate ?? false,
      options.memory,
    ).catch(() => undefined);
  }
}

/**
 * The three state stores, each call appended to `journal` (`<store>.<method>`) before it runs. Reads are recorded
 * too (as `… get`), so a test sees where in the order the reconciler looked at its state.
 */
export function recordingStores<
  S extends { leases: LeaseStore; expectations: ExpectationStore; ledger: ScaleDownLedger },
>(
  stores: S,
  journal: Journal,
  describe: { expectations?: boolean } = {},
): Pick<S, 'leases' | 'expectations' | 'ledger'> {
  const wrap = <T extends object>(name: string, target: T): T =>
    new Proxy(target, {
      get(t, prop, receiver) {
        const value = Reflect.get(t, prop, receiver) as unknown;
        if (typeof value !== 'function' || typeof prop !== 'string') return value;
        return (...args: unknown[]) => {
          let line = `${name}.${prop}`;
          if (describe.expectations && name === 'expectations' && prop === 'put') {
            const e = args[1] as {
              creates: { name: string }[];
              deletes: { name: string }[];
              updates: { name: string }[];
            };
            const part = (label: string, ops: { name: string }[]) =>
              ops.length ? ` ${label}[${ops.map((o) => o.name).join(',')}]` : '';
            line +=
              part('creates', e.creates) + part('deletes', e.deletes) + part('updates', e.updates) ||
              ' (none)';
          }
          if (name === 'lease' && prop === 'release' && typeof args[1] === 'number' && args[1] > 0) {
            line += ` (failures ${args[1]})`;
          }
          if (name === 'ledger' && prop === 'record') {
            const i = args[1] as { pods: { name: string }[] };
            line += ` [${i.pods.map((p) => p.name).join(',')}]`;
          }
          journal.push(line);
          return (value as (...a: unknown[]) => unknown).apply(t, args);
        };
      },
    });
  return {
    leases: wrap('lease', stores.leases),
    expectations: wrap('expectations', stores.expectations),
    ledger: wrap('ledger', stores.ledger),
  };
}
