/**
 * The cost model of BENCHMARKS.md#fleet-cost: AWS list prices applied to what the fleet scenario measured
 * (bench/scenarios/fleet.ts), beside one OpenKruise controller-manager per cluster. Pure arithmetic, no I/O.
 *
 * What is priced, and what is not:
 * - per pod event: the reconcile invocations, their billed duration at the function's memory, their DynamoDB reads
 *   and writes, the watch checkpoints' during the same bursts, and the EventBridge entries;
 * - per idle month: the watch function, invoked every minute and running until its deadline (it holds the watches),
 *   its checkpoint reads and writes, and the resync every 5 minutes (its own run, and one no-op reconcile with its
 *   EventBridge entry per workload object);
 * - not priced: CloudWatch Logs and metrics (volume depends on the log level), data transfer to the API servers,
 *   DynamoDB storage (a few KB per object), the free tiers, the admission function (optional);
 * - OpenKruise: only the controller-manager's requested CPU and memory (2 replicas), at Fargate's per-vCPU and
 *   per-GB hourly prices as a neutral price of a reserved share of a node; kruise-daemon (requests 0 in
 *   OpenKruise's manifest) is left out, as it is when compared with `KruiseDaemon=false`.
 */

/**
 * AWS list prices, USD, us-east-1, on-demand, without free tiers (Lambda: arm64 first tier; DynamoDB on-demand since
 * the November 2024 price change; EventBridge custom events; Fargate Linux/ARM).
 */
export const AWS_PRICES = {
  lambdaPerGbSecond: 0.0000133334,
  lambdaPerRequest: 0.2 / 1e6,
  dynamoPerWriteUnit: 0.625 / 1e6,
  dynamoPerReadUnit: 0.125 / 1e6,
  eventBridgePerEvent: 1.0 / 1e6,
  fargatePerVcpuHour: 0.03238,
  fargatePerGbHour: 0.00356,
} as const;

/** Hours in the month the model prices (AWS bills 730 a month). */
export const HOURS_PER_MONTH = 730;

/**
 * Resources of one OpenKruise v1.9.0 install per cluster: its config/manager/manager.yaml's requests, the chart's 2
 * replicas.
 */
export const OPENKRUISE_MANAGER = { replicas: 2, vcpu: 0.1, memoryGb: 200 / 1024 } as const;

/** The deployment's function sizes (serverless.yml: 512 MB, a watch run every minute, a resync every 5). */
export const DEPLOYMENT = {
  memoryGb: 0.5,
  /** Seconds a watch invocation runs: until its 70 s timeout less the 8 s margin. */
  watchSecondsPerRun: 62,
  watchRunsPerMonth: HOURS_PER_MONTH * 60,
  resyncRunsPerMonth: HOURS_PER_MONTH * 12,
} as const;

/** DynamoDB operations split into the units they are billed in (small items: one unit per operation). */
export interface DynamoOps {
  reads: number;
  writes: number;
}

/** Measured per pod event (the fleet's bursts, each divided by the pod events the bench's watch saw). */
export interface PerPodEvent {
  invocations: number;
  reconcileSeconds: number;
  dynamo: DynamoOps;
  busEntries: number;
}

/** Measured standing cost of the whole fleet with nothing changing, per minute. */
export interface IdlePerMinute {
  watchDynamo: DynamoOps;
}

/** Measured cost of one resync run: its own duration, and per object the no-op reconcile it causes. */
export interface ResyncCost {
  /** Wall time of one resync invocation over the fleet, seconds. */
  runSeconds: number;
  /** Per object: reconcile seconds and DynamoDB operations. */
  perObject: { seconds: number; dynamo: DynamoOps };
}

/** The model's answer, USD. */
export interface CostEstimate {
  /** Per 1M pod events, with its parts. */
  perMillionPodEvents: { total: number; lambda: number; dynamo: number; eventBridge: number };
  /** Per month with nothing changing, for the whole fleet, with its parts. */
  idleMonth: { total: number; watch: number; resync: number; perCluster: number };
  /** One OpenKruise controller-manager per cluster, per month (all clusters, and one). */
  openKruiseMonth: { total: number; perCluster: number };
}

const dynamoCost = (ops: DynamoOps): number =>
  ops.reads * AWS_PRICES.dynamoPerReadUnit + ops.writes * AWS_PRICES.dynamoPerWriteUnit;

const cents = (x: number): number => Math.round(x * 100) / 100;

/**
 * The cost of a fleet.
 * @param clusters cluster registrations; workloadsPerCluster objects the resync reconciles in each, every 5 minutes
 * @throws Error when a count is negative or not finite
 */
export function estimateCost(input: {
  clusters: number;
  workloadsPerCluster: number;
  perPodEvent: PerPodEvent;
  idle: IdlePerMinute;
  resync: ResyncCost;
}): CostEstimate {
  const { clusters, workloadsPerCluster, perPodEvent: e, idle, resync: r } = input;
  for (const [name, v] of Object.entries({ clusters, workloadsPerCluster }))
    if (!Number.isFinite(v) || v < 0) throw new Error(`cost model: ${name} must be a count, got ${v}`);
  const million = 1e6;
  const lambda =
    million *
    (e.invocations * AWS_PRICES.lambdaPerRequest +
      e.reconcileSeconds * DEPLOYMENT.memoryGb * AWS_PRICES.lambdaPerGbSecond);
  const dynamo = million * dynamoCost(e.dynamo);
  const eventBridge = million * e.busEntries * AWS_PRICES.eventBridgePerEvent;

  const minutes = HOURS_PER_MONTH * 60;
  const watch =
    DEPLOYMENT.watchRunsPerMonth *
      (AWS_PRICES.lambdaPerRequest +
        DEPLOYMENT.watchSecondsPerRun * DEPLOYMENT.memoryGb * AWS_PRICES.lambdaPerGbSecond) +
    minutes * dynamoCost(idle.watchDynamo);
  const resyncReconciles = DEPLOYMENT.resyncRunsPerMonth * clusters * workloadsPerCluster;
  const resync =
    DEPLOYMENT.resyncRunsPerMonth *
      (AWS_PRICES.lambdaPerRequest + r.runSeconds * DEPLOYMENT.memoryGb * AWS_PRICES.lambdaPerGbSecond) +
    resyncReconciles *
      (AWS_PRICES.lambdaPerRequest +
        r.perObject.seconds * DEPLOYMENT.memoryGb * AWS_PRICES.lambdaPerGbSecond +
        dynamoCost(r.perObject.dynamo) +
        AWS_PRICES.eventBridgePerEvent);
  const idleTotal = watch + resync;

  const managerPerCluster =
    OPENKRUISE_MANAGER.replicas *
    HOURS_PER_MONTH *
    (OPENKRUISE_MANAGER.vcpu * AWS_PRICES.fargatePerVcpuHour +
      OPENKRUISE_MANAGER.memoryGb * AWS_PRICES.fargatePerGbHour);
  return {
    perMillionPodEvents: {
      total: cents(lambda + dynamo + eventBridge),
      lambda: cents(lambda),
      dynamo: cents(dynamo),
      eventBridge: cents(eventBridge),
    },
    idleMonth: {
      total: cents(idleTotal),
      watch: cents(watch),
      resync: cents(resync),
      perCluster: clusters > 0 ? cents(idleTotal / clusters) : 0,
    },
    openKruiseMonth: { total: cents(managerPerCluster * clusters), perCluster: cents(managerPerCluster) },
  };
}

/** DynamoDB operation names (lib/runtime/counting.ts `countDynamo`) that are billed as reads. */
const READ_OPS = new Set(['GetItem', 'Query', 'BatchGetItem', 'Scan']);

/**
 * Split counted DynamoDB operations (by command name, as lib/runtime/counting.ts counts them) into reads and writes.
 * Every name that is not a read is billed as a write (PutItem, UpdateItem, DeleteItem).
 */
export function dynamoOpsOf(byName: Readonly<Record<string, number>>): DynamoOps {
  let reads = 0;
  let writes = 0;
  for (const [name, n] of Object.entries(byName)) {
    if (READ_OPS.has(name)) reads += n;
    else writes += n;
  }
  return { reads, writes };
}
