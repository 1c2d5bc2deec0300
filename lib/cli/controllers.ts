/**
 * Each controller's operator commands, by controller name (lib/controllers `name`): `kruiseless` registers those of
 * every registered controller ({@link registerControllerCommands}). The commands live in the CLI layer, above the
 * registrations, because they use its connection and terminal helpers (./connect.ts, ./io.ts); a unit test checks
 * that every registered controller has an entry here (an empty one when it has no commands).
 */
import type { Command } from 'commander';
import { CONTROLLERS } from '../controllers/index.js';
import type { Controller } from '../controllers/controller.js';
import type { CliIO } from './io.js';
import { registerLint } from './lint.js';
import { registerPlan } from './plan.js';
import { registerRollout } from './rollout.js';
import { registerWhy } from './why.js';

/** Registers one controller's commands on a program. */
export type RegisterCommands = (program: Command, io: CliIO) => void;

/** Controller name → its commands (docs/cli.md). */
export const CONTROLLER_COMMANDS: Readonly<Record<string, readonly RegisterCommands[]>> = {
  cloneset: [registerRollout, registerPlan, registerWhy, registerLint],
  // `kruiseless rollout` and `lint` (CloneSet's entries) take Advanced StatefulSets too, and so do plan and why
  statefulset: [],
  // no BroadcastJob commands yet
  broadcastjob: [],
  // no SidecarSet commands yet
  sidecarset: [],
  // no AdvancedCronJob commands yet
  advancedcronjob: [],
  // `kruiseless rollout` (CloneSet's entry) takes Advanced DaemonSets too (`ds/<name>`); no other command yet
  daemonset: [],
  // no PodUnavailableBudget commands yet
  podunavailablebudget: [],
  workloadspread: [],
  // the pod registration (container launch priority, pod readiness) has no commands: its pods are read with kubectl
  pod: [],
};

/**
 * Registers the commands of every controller of `controllers`, in registration order.
 * @throws Error when a registered controller has no entry in {@link CONTROLLER_COMMANDS}
 */
export function registerControllerCommands(
  program: Command,
  io: CliIO,
  controllers: readonly Pick<Controller, 'name'>[] = CONTROLLERS,
): void {
  for (const c of controllers) {
    const commands = CONTROLLER_COMMANDS[c.name];
    if (!commands) throw new Error(`controller ${c.name} has no entry in lib/cli/controllers.ts`);
    for (const register of commands) register(program, io);
  }
}
