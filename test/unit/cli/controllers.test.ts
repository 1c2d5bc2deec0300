/** The CLI registers each registered controller's commands from the registry (lib/cli/controllers.ts). */
import { describe, expect, it } from '@jest/globals';
import { Command } from 'commander';
import { CONTROLLER_COMMANDS, registerControllerCommands } from '../../../lib/cli/controllers.js';
import type { CliIO } from '../../../lib/cli/io.js';
import { CONTROLLERS } from '../../../lib/controllers/index.js';

const io: CliIO = { out: () => undefined, err: () => undefined, env: {}, exit: () => undefined };

describe('controller commands', () => {
  it('has an entry for every registered controller', () => {
    expect(CONTROLLERS.map((c) => c.name).filter((name) => !CONTROLLER_COMMANDS[name])).toEqual([]);
  });

  it("registers CloneSet's rollout, plan, why and lint in that order", () => {
    const program = new Command('kruiseless');
    registerControllerCommands(program, io);
    expect(program.commands.map((c) => c.name())).toEqual(['rollout', 'plan', 'why', 'lint']);
  });

  it('refuses a registered controller without an entry', () => {
    expect(() => registerControllerCommands(new Command('k'), io, [{ name: 'widget' }])).toThrow(
      'controller widget has no entry in lib/cli/controllers.ts',
    );
  });
});
