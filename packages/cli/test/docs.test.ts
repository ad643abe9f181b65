import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli } from './helpers';

const doc = readFileSync(fileURLToPath(new URL('../../../docs/cli.md', import.meta.url)), 'utf8');

/** Split a command line as a POSIX shell would for the simple quoting the docs use. */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|(\S+)/g)) out.push(m[1] ?? m[2]!);
  return out;
}

/** Every fenced example that shows one whole `personae` run: the command line, then all it printed. */
const examples = [...doc.matchAll(/```\n\$ personae ([^\n]*)\n([\s\S]*?)```/g)]
  .map((m) => ({ command: m[1]!, output: m[2]! }))
  .filter((e) => !e.output.includes('\n...\n') && !e.output.startsWith('...') && !e.output.includes('\n$ '));

describe('docs/cli.md', () => {
  it('has complete examples to check', () => {
    expect(examples.length).toBeGreaterThanOrEqual(5);
  });

  for (const { command, output } of examples) {
    it(`shows what "personae ${command}" prints`, async () => {
      const r = await cli(...words(command));
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(output);
    });
  }

  it('documents every flag of roll and odds', async () => {
    for (const command of ['roll', 'odds']) {
      const help = (await cli('help', command)).stdout;
      for (const flag of help.matchAll(/^\s+(?:-\w, )?(--[\w-]+)/gm)) {
        if (flag[1] === '--help') continue;
        expect(doc, `${command} ${flag[1]}`).toContain(`\`${flag[1]}`);
      }
    }
  });

  it('documents every key of the JSON objects', async () => {
    const objects = [
      await cli('roll', '[5]', 'vs', '[5]', '--option', 'fullTie=reroll', '--seed', '1', '--json'),
      await cli('roll', '3d10', '--unopposed', '2', '--seed', '1', '--json'),
      await cli('odds', '2d10', 'vs', '2d10', '--table', '--json'),
      await cli('odds', '2d10', '--unopposed', '2', '--json'),
      await cli('odds', '2d10', 'vs', '2d10', '--simulate', '1000', '--json'),
      await cli('roll', '--sheet', 'examples/characters/dwarf-iron-constitution.yaml', '--skill', 'Warhammer', 'vs', '2d10', '--seed', '1', '--json'),
    ].map((r) => JSON.parse(r.stdout) as Record<string, unknown>);
    for (const o of objects) for (const key of Object.keys(o)) expect(doc, key).toMatch(new RegExp(`\`${key}\``));
    const sheet = (objects.at(-1)!.actor as { sheet: Record<string, unknown> }).sheet;
    for (const key of Object.keys(sheet)) expect(doc, `sheet.${key}`).toMatch(new RegExp(`\`${key}\``));
  });
});
