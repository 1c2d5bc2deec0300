/**
 * The operator commands of `kruiseless` (docs/cli.md): `rollout`, `plan`, `why`, `lint`, `install`, registered on a
 * commander program; {@link runCli} runs them against a given terminal (the integration tests use it in
 * process; `lib/local/cli.ts` registers them on the real program).
 */
import { Command, CommanderError } from 'commander';
import type { CliIO } from './io.js';
import { registerControllerCommands } from './controllers.js';
import { registerInstall } from './install.js';

/**
 * Registers every operator command on `program`, writing through `io`: each registered controller's commands
 * (./controllers.ts; CloneSet's `rollout`, `plan`, `why`, `lint`), then `install`.
 */
export function registerCliCommands(program: Command, io: CliIO): void {
  registerControllerCommands(program, io);
  registerInstall(program, io);
}

/** What one {@link runCli} call printed and its exit code. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `kruiseless <argv…>` (operator commands only) in process with `env` as the environment.
 * @returns exit code and output; usage errors (unknown option, missing argument) exit like commander's (1)
 */
export async function runCli(argv: readonly string[], env: CliIO['env']): Promise<CliRun> {
  const run: CliRun = { code: 0, stdout: '', stderr: '' };
  const io: CliIO = {
    out: (t) => (run.stdout += t),
    err: (t) => (run.stderr += t),
    env,
    exit: (c) => (run.code = c),
  };
  const program = new Command('kruiseless')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });
  registerCliCommands(program, io);
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    run.code = e.exitCode;
  }
  return run;
}
