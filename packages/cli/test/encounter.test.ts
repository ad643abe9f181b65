import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { replay, type EncounterEvent } from '@personae/rules';
import { run } from '../src/main';
import type { CliIo } from '../src/io';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const SCENARIOS = join(ROOT, 'examples/scenarios');
const SHEETS = join(ROOT, 'examples/characters');
const tmp = mkdtempSync(join(tmpdir(), 'personae-encounter-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function personae(argv: string[], stdin?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const input = stdin === undefined ? undefined : new PassThrough();
  const io: CliIo = { stdout: (s) => void out.push(s), stderr: (s) => void err.push(s), ...(input ? { stdin: input } : {}), setExitCode: () => {} };
  if (input) input.end(stdin);
  const code = await run(argv, io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('personae replay', () => {
  it('prints the encounter turn by turn with every roll explained', async () => {
    const r = await personae(['replay', join(SCENARIOS, 'cultist-sword-fight.yaml')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('== Round 1 ==');
    expect(r.stdout).toContain("-- Aldric's turn --");
    expect(r.stdout).toContain('Pair #1: 8+3 = 11 against 6+2 = 8: Aldric wins.');
    expect(r.stdout).toContain('1 lost (one attack never rolls over more than one status)');
    expect(r.stdout).toContain('Cultist is now Injured (was Unharmed; end of round 1): -1 die.');
    expect(r.stdout).toContain('Expectations: all met.');
  });

  it('--json prints { events, state }; the events replay to the state', async () => {
    const r = await personae(['replay', join(SCENARIOS, 'fireball.yaml'), '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { events: EncounterEvent[]; state: unknown };
    expect(out.events[0]!.type).toBe('set-up');
    expect(out.events.some((e) => e.type === 'challenge-resolved')).toBe(true);
    expect(JSON.parse(JSON.stringify(replay(out.events).now))).toEqual(out.state);
  });

  it.each(['out-of-turn', 'unconscious-acts', 'second-special-ability', 'illegal-parry', 'dodge-a-fireball'])(
    'invalid/%s.yaml fails with the rule named and the state unchanged',
    async (name) => {
      const file = join(SCENARIOS, 'invalid', `${name}.yaml`);
      const r = await personae(['replay', file]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^personae: action \d+ refused \([a-z-]+\): .* \[personae-core-2011\.txt ".+"\]\n$/);
      expect(r.stdout).toContain('The state is unchanged.');
      const j = await personae(['replay', file, '--json']);
      const out = JSON.parse(j.stdout) as { events: EncounterEvent[]; state: unknown; error: { rule: string } };
      expect(out.error.rule).toMatch(/personae-core-2011\.txt/);
      expect(JSON.parse(JSON.stringify(replay(out.events).now))).toEqual(out.state);
    },
  );

  it('a file that cannot be read or is malformed is an input error', async () => {
    const missing = await personae(['replay', join(tmp, 'nope.yaml')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read .*no such file/);
  });

  it('--seed rolls the dice the file leaves out differently, and the same seed the same way', async () => {
    const file = join(SCENARIOS, 'debate-to-violence.yaml');
    const a = await personae(['replay', file, '--json', '--seed', '9']);
    const b = await personae(['replay', file, '--json', '--seed', '9']);
    expect(a.stdout).toBe(b.stdout);
  });
});

describe('personae encounter (interactive)', () => {
  const brogan = join(SHEETS, 'dwarf-iron-constitution.yaml');
  const gull = join(SHEETS, 'merchant-privateer-scoundrel.yaml');

  it('starts from sheets, takes turns, shows order and statuses, refuses illegal actions, undoes and redoes', async () => {
    const save = join(tmp, 'log.json');
    const input = [
      'escalate brogan-ironhand non-violent',
      'escalate brogan-ironhand violent',
      'order',
      'attack marisol-gull-vance brogan-ironhand',
      'attack brogan-ironhand marisol-gull-vance defense=dodge dice=9,8,7,6,5,4/2,1,1,1',
      'status',
      'end',
      'undo',
      'redo',
      'fly away',
      'quit',
    ].join('\n');
    const r = await personae(['encounter', '--sheet', brogan, '--sheet', gull, '--seed', '4', '--save', save], input);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Characters by id: brogan-ironhand (Brogan Ironhand), marisol-gull-vance');
    expect(r.stdout).toContain('Round 1: >Brogan Ironhand');
    expect(r.stdout).toMatch(/Refused \(out-of-turn\): it is Brogan Ironhand's turn.* Rule: personae-core-2011\.txt "The Action Order, and Actions"\./);
    expect(r.stdout).toContain('Attack Challenge: Brogan Ironhand (Warhammer) against Marisol "Gull" Vance (Dodge)');
    expect(r.stdout).toMatch(/Marisol "Gull" Vance: 1\/\d+ hits before Injured/);
    expect(r.stdout).toContain('UNDO: back to the state after event');
    expect(r.stdout).toContain('REDO: forward to the state after event');
    expect(r.stdout).toContain('? unknown command "fly"');
    const log = JSON.parse(readFileSync(save, 'utf8')) as { events: EncounterEvent[] };
    expect(log.events.map((e) => e.type)).toContain('undone');
    expect(replay(log.events).now!.combat!.turn.actor).toBe('marisol-gull-vance');
  });

  it('continues a scenario file, and accepts any command as YAML', async () => {
    const r = await personae(
      ['encounter', '--scenario', join(SCENARIOS, 'cultist-sword-fight.yaml'), '--seed', '1'],
      ['do {type: begin-scene, title: The jail}', 'recover cultist dice=1/9,9', 'status'].join('\n'),
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('The cultist sword fight: 12 action(s) from cultist-sword-fight.yaml played.');
    expect(r.stdout).toContain('Scene 2 begins: The jail.');
    expect(r.stdout).toContain('Recovery Challenge: Cultist (Recovery) against the GM (2 GM dice)');
  });

  it('needs characters and a terminal to read from', async () => {
    const none = await personae(['encounter'], '');
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--sheet FILE/);
  });
});
