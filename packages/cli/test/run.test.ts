import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { CliError, type CliIo } from '../src/io';
import { run, type CommandRegistrar } from '../src/main';

function collect() {
  const out: string[] = [];
  const err: string[] = [];
  const codes: number[] = [];
  const io: CliIo = { stdout: (s) => void out.push(s), stderr: (s) => void err.push(s), setExitCode: (c) => void codes.push(c) };
  return { io, out, err, codes };
}

const throwing =
  (error: () => unknown): CommandRegistrar =>
  (program) =>
    void program.command('boom').action(() => {
      throw error();
    });

describe('run()', () => {
  it('reports a bug as an internal error: exit 1, one line, no stack trace', async () => {
    const c = collect();
    const code = await run(['boom'], c.io, [throwing(() => new TypeError('x is not a function'))]);
    expect(code).toBe(1);
    expect(c.codes).toEqual([1]);
    expect(c.err.join('')).toBe('personae: internal error: x is not a function (set PERSONAE_DEBUG=1 to see where)\n');
  });

  it('reports a CliError, or any named error class, as bad input: exit 2', async () => {
    for (const error of [new CliError('no such sheet'), Object.assign(new Error('bad sheet'), { name: 'SheetError' })]) {
      const c = collect();
      expect(await run(['boom'], c.io, [throwing(() => error)])).toBe(2);
      expect(c.err.join('')).toBe(`personae: ${error.message}\n`);
    }
  });

  it('joins a multi-line message onto one line', async () => {
    const c = collect();
    await run(['boom'], c.io, [throwing(() => new CliError('first\nsecond'))]);
    expect(c.err.join('')).toBe('personae: first second\n');
  });

  it('passes on the exit code a command sets, once', async () => {
    const c = collect();
    const sets: CommandRegistrar = (program, io) => void program.command('check').action(() => io.setExitCode(1));
    expect(await run(['check'], c.io, [sets])).toBe(1);
    expect(c.codes).toEqual([1]);
  });

  it('says in one line when a command group is run without its subcommand', async () => {
    const c = collect();
    const group: CommandRegistrar = (program) => {
      const g = program.command('sheet').description('sheets');
      g.command('check').action(() => {});
    };
    expect(await run(['sheet'], c.io, [group])).toBe(2);
    expect(c.err.join('')).toBe('personae: missing command after "personae sheet"; see "personae sheet --help"\n');
    expect(c.out.join('')).toBe('');
  });

  it('applies the same error handling to commands added with addCommand()', async () => {
    const c = collect();
    const added: CommandRegistrar = (program) => void program.addCommand(new Command('extra').argument('<file>').action(() => {}));
    expect(await run(['extra'], c.io, [added])).toBe(2);
    expect(c.err.join('')).toBe("personae: missing required argument 'file'\n");
  });

  it('awaits asynchronous commands', async () => {
    const c = collect();
    const slow: CommandRegistrar = (program, io) =>
      void program.command('slow').action(async () => {
        await new Promise((r) => setTimeout(r, 5));
        io.stdout('done\n');
      });
    expect(await run(['slow'], c.io, [slow])).toBe(0);
    expect(c.out.join('')).toBe('done\n');
  });
});
