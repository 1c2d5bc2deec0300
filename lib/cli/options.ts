/** The flags shared by the cluster commands (docs/cli.md#connection), spelled as kubectl spells them. */
import type { Command } from 'commander';

/** Adds `--kubeconfig <file>` and `-n, --namespace <ns>` to `cmd`. */
export function addConnectionOptions(cmd: Command): Command {
  return cmd
    .option('--kubeconfig <file>', 'kubeconfig file (default: $KUBECONFIG, then ~/.kube/config)')
    .option('-n, --namespace <ns>', "namespace (default: the current context's, then default)");
}

/** Adds the state-table flags of `plan` and `why` to `cmd`. */
export function addStateOptions(cmd: Command): Command {
  return cmd
    .option(
      '--table <table>',
      'DynamoDB state table of the deployment (env KRUISELESS_TABLE); omitted: state not read',
    )
    .option(
      '--dynamodb-endpoint <url>',
      'DynamoDB endpoint, e.g. a local dynalite (env KRUISELESS_DYNAMODB_ENDPOINT)',
    )
    .option('--region <region>', 'AWS region of the table')
    .option(
      '--cluster-name <name>',
      'cluster name in the state keys (env KRUISELESS_CLUSTER, default local)',
    );
}
