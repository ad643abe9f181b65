import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { parse as parseYaml } from 'yaml';
import { cryptoDice, seededDice, type DiceSource } from '@personae/dice';
import { formatCitation, poolDice } from '@personae/core';
import {
  combatantFromSheet,
  decide,
  describeEvent,
  describeSnapshot,
  RuleError,
  EMPTY_STATE,
  EncounterCommandSchema,
  recordedPools,
  evolve,
  parseScenario,
  runScenario,
  scenarioCombatants,
  unmetExpectations,
  type Combatant,
  type EncounterEvent,
  type EncounterState,
  type ScenarioRun,
  type Snapshot,
} from '@personae/rules';
import { addTableFlags, readTable, seedNumber, collect, type TableFlags } from '../args.js';
import { CliError, EXIT_USAGE, type CliIo } from '../io.js';
import { replayOtherRuleset } from './replay-rulesets.js';
import { readReplayRules, replayRulesReport } from './replay-rules.js';
// The character module is imported directly, as the sheet commands do.
import { loadSheet, type CharacterSheet } from '@personae/rules';

/**
 * `personae replay FILE`: play a scenario file turn by turn with every roll explained.
 * `personae encounter`: run an encounter at the terminal, one command a line.
 */
export function registerEncounterCommands(program: Command, io: CliIo): void {
  program
    .command('replay')
    .description('play a scenario file (docs/scenario-format.md) turn by turn, explaining every roll')
    .argument('<file>', 'scenario file, YAML or JSON')
    .option('--json', 'print { events, state } (and error, when an action is refused) as JSON')
    .option('--seed <n>', 'seed for dice the file does not give (overrides the file)', seedNumber)
    .option('--rules <preset>', 'judge every recorded roll again with the same dice under this rules preset, and play the scenario again under it')
    .option('--option <name=value>', 'with or without --rules: a table option for the new rules (repeatable; see docs/options.md)', collect, [])
    .addHelpText('after', '\nExit codes: 0 played through, 2 an action was refused, the file is wrong, or an expectation in it was not met.')
    .action(async (file: string, flags: { json?: boolean; seed?: number; rules?: string; option: string[] }) => {
      if (await replayOtherRuleset(file, flags, io)) return;
      const { scenario, characters } = await readScenario(file);
      if (flags.rules !== undefined || flags.option.length > 0) {
        const report = replayRulesReport(scenario, characters, flags.seed ?? scenario.seed, readReplayRules(scenario, flags.rules, flags.option));
        if (flags.json) io.stdout(`${JSON.stringify(report.json, null, 2)}\n`);
        else io.stdout(`${report.lines.join('\n')}\n`);
        return;
      }
      const run = runScenario(scenario, characters, seededDice(flags.seed ?? scenario.seed));
      const unmet = unmetExpectations(scenario, run);
      if (flags.json) {
        io.stdout(`${JSON.stringify({ events: run.events, state: run.state.now, ...(run.error ? { error: run.error } : {}) }, null, 2)}\n`);
      } else {
        io.stdout(replayText(scenario.title, file, run, flags.seed ?? scenario.seed, scenario.options.preset, unmet, scenario.expect !== undefined));
      }
      if (run.error) {
        io.stderr(`personae: action ${run.error.action} refused (${run.error.code}): ${run.error.message}${run.error.rule ? ` [${run.error.rule}]` : ''}\n`);
        io.setExitCode(EXIT_USAGE);
      } else if (unmet.length) {
        io.stderr(`personae: ${basename(file)}: ${unmet.join('; ')}\n`);
        io.setExitCode(EXIT_USAGE);
      }
    });

  const enc = program
    .command('encounter')
    .description('run an encounter at the terminal: take turns, see the order, statuses and penalties, undo')
    .option('--sheet <file>', 'a character sheet to bring in (repeatable)', collect, [])
    .option('--scenario <file>', 'start from a scenario file: its characters and options, and its actions played first')
    .option('--seed <n>', 'roll with a seeded generator (default: cryptographic dice)', seedNumber)
    .option('--save <file>', 'write the event log as JSON when the session ends');
  addTableFlags(enc);
  enc.action(async (flags: TableFlags & { sheet: string[]; scenario?: string; seed?: number; save?: string }) => {
    await interactive(io, flags);
  });
}

// ---------------------------------------------------------------------------------------------
// Files.

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (e as Error).message}`);
  }
}

async function readSheet(file: string): Promise<CharacterSheet> {
  const r = loadSheet(await readText(file), basename(file));
  if (!r.ok) throw new CliError(`${file}: ${r.error.line !== undefined ? `line ${r.error.line}: ` : ''}${r.error.message}`);
  return r.sheet;
}

async function readScenario(file: string) {
  const scenario = parseScenario(await readText(file), basename(file));
  const sheets = new Map<string, CharacterSheet>();
  for (const entry of scenario.characters) {
    if ('sheet' in entry) sheets.set(entry.sheet, await readSheet(resolve(dirname(file), entry.sheet)));
  }
  const characters = scenarioCombatants(scenario, (path) => sheets.get(path)!);
  return { scenario, characters };
}

// ---------------------------------------------------------------------------------------------
// replay

function replayText(title: string, file: string, run: ScenarioRun, seed: number, preset: string, unmet: readonly string[], hasExpect: boolean): string {
  const lines: string[] = [`${title} (${basename(file)}; rules ${preset}; seed ${seed})`];
  for (const step of run.steps) {
    if (step.index > 0) {
      const actor = step.command.actor === 'gm' ? 'GM' : step.command.actor;
      lines.push('', `[${step.index}] ${step.command.type} (${actor})${step.note ? `: ${step.note}` : ''}`);
    }
    let before: Snapshot | null = step.before.now;
    let state = step.before;
    for (const e of step.events) {
      lines.push(...describeEvent(e, before));
      state = evolve(state, e);
      before = state.now;
    }
    if (step.index === 0 && state.now) lines.push(...describeSnapshot(state.now));
  }
  if (run.error) {
    lines.push('', `[${run.error.action}] REFUSED (${run.error.code}): ${run.error.message}.`);
    if (run.error.rule) lines.push(`  Rule: ${run.error.rule}.`);
    lines.push('  The state is unchanged.');
  }
  if (run.state.now) lines.push('', 'State:', ...describeSnapshot(run.state.now).map((l) => `  ${l}`));
  if (hasExpect) lines.push('', unmet.length ? `Expectations not met: ${unmet.join('; ')}.` : 'Expectations: all met.');
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// encounter: the interactive table.

const HELP = `Commands (who = a character id; the GM is "gm"):
  status | order | log [n]             the table, the action order, the last n events
  escalate WHO STAGE                   non-violent, hostile (srd-v4) or violent
  attack WHO TARGET [key=value...]     weapon= skill= defense=dodge|block|parry|shield|power ability= spend-hits=N dice=7,5,2/6,3
  power WHO POWER [TARGET...] [key=value...]
  say WHO TARGET SKILL [key=value...]  an Interaction Challenge (reactor-skill=, attribute=)
  ask WHO TARGET [hidden] QUESTION...  what a character knows
  move WHO | defend WHO parry|block|power [skill] | assist WHO PRIMARY | stabilize WHO TARGET
  maintain WHO EFFECT | recover WHO [dice=9/4] | end | end-encounter
  scene [TITLE] | day | session | set-order A,B,C | undo [SEQ] | redo
  do {type: ..., actor: ..., ...}      any command as YAML (docs/scenario-format.md)
  help | quit`;

interface Session {
  state: EncounterState;
  events: EncounterEvent[];
  dice: DiceSource;
}

async function interactive(io: CliIo, flags: TableFlags & { sheet: string[]; scenario?: string; seed?: number; save?: string }): Promise<void> {
  if (!io.stdin) throw new CliError('personae encounter reads commands from standard input, and there is none');
  if (flags.sheet.length === 0 && !flags.scenario) throw new CliError('bring characters: --sheet FILE (repeatable) or --scenario FILE');
  const dice = flags.seed !== undefined ? seededDice(flags.seed) : cryptoDice();
  const session: Session = { state: EMPTY_STATE, events: [], dice };
  const say = (lines: readonly string[]) => lines.length && io.stdout(`${lines.join('\n')}\n`);

  if (flags.scenario) {
    const { scenario, characters } = await readScenario(flags.scenario);
    const extra = await sheetsToCombatants(flags.sheet, scenario.options.preset === 'srd-v4' ? 'srd-v4' : 'core-2011');
    const run = runScenario({ ...scenario }, [...characters, ...extra], dice);
    session.state = run.state;
    session.events = [...run.events];
    say([`${scenario.title}: ${run.steps.length - 1} action(s) from ${basename(flags.scenario)} played.`]);
    if (run.error) say([`Action ${run.error.action} of the scenario was refused: ${run.error.message}.`]);
  } else {
    const table = readTable(flags);
    const characters = await sheetsToCombatants(flags.sheet, table.preset, table.options);
    apply(session, { type: 'set-up', actor: 'gm', title: 'Encounter', options: { preset: table.preset, options: table.overrides }, characters });
  }
  const cast = session.state.now!.roster.map((id) => `${id} (${session.state.now!.characters[id]!.def.name})`);
  say([...describeSnapshot(session.state.now!), `Characters by id: ${cast.join(', ')}.`, 'Type "help" for the commands.']);

  const rl = createInterface({ input: io.stdin, terminal: false, crlfDelay: Infinity });
  io.stdout(prompt(session));
  for await (const raw of rl) {
    const line = raw.trim();
    if (line === 'quit' || line === 'exit') break;
    if (line !== '') {
      try {
        say(handle(session, line));
      } catch (e) {
        if (e instanceof RuleError) say([`Refused (${e.code}): ${e.message}.${e.rule ? ` Rule: ${formatCitation(e.rule)}.` : ''}`]);
        else if (e instanceof CliError) say([`? ${e.message}`]);
        else if (e instanceof Error && e.name === 'ZodError') say([`? ${describeZod(e)}`]);
        else throw e;
      }
    }
    io.stdout(prompt(session));
  }
  io.stdout('\n');
  say(['Final state:', ...describeSnapshot(session.state.now!)]);
  if (flags.save) {
    await writeFile(flags.save, `${JSON.stringify({ events: session.events }, null, 2)}\n`);
    say([`${session.events.length} events written to ${flags.save}.`]);
  }
}

async function sheetsToCombatants(files: readonly string[], preset: 'core-2011' | 'srd-v4', options = readTable({ rules: preset, option: [] }).options): Promise<Combatant[]> {
  const out: Combatant[] = [];
  for (const file of files) {
    const c = combatantFromSheet(await readSheet(file), options);
    let id = c.id;
    for (let n = 2; out.some((o) => o.id === id); n++) id = `${c.id}-${n}`;
    out.push({ ...c, id });
  }
  return out;
}

function describeZod(e: Error): string {
  const issues = (e as unknown as { issues: { path: PropertyKey[]; message: string }[] }).issues;
  return issues.map((i) => `${i.path.map(String).join('.') || 'command'}: ${i.message}`).join('; ');
}

function prompt(s: Session): string {
  const now = s.state.now;
  if (!now?.combat) return `[scene ${now?.clock.scene ?? 1}, ${now?.clock.stage ?? 'scene'}] > `;
  const who = now.characters[now.combat.turn.actor]?.def.name ?? now.combat.turn.actor;
  return `[round ${now.combat.round}, ${who}'s turn] > `;
}

/** Runs a command typed at the prompt; dice typed with it (dice=ACTOR/REACTOR) fill its named pools. */
function apply(s: Session, input: Record<string, unknown>): string[] {
  const { command: rest, pools } = recordedPools(input);
  const command = EncounterCommandSchema.parse(rest);
  const events = decide(s.state, command, poolDice(pools, s.dice));
  const lines: string[] = [];
  for (const e of events) {
    lines.push(...describeEvent(e, s.state.now));
    s.state = evolve(s.state, e);
    s.events.push(e);
  }
  return lines;
}

/** Split a line into words; "double quotes" keep spaces. */
function words(line: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) out.push(m[1] ?? m[2]!);
  return out;
}

function numbers(text: string, what: string): number[] {
  const list = text.split(',').filter(Boolean).map(Number);
  if (list.some((n) => !Number.isInteger(n) || n < 1 || n > 10)) throw new CliError(`${what}: dice are whole numbers from 1 to 10, separated by commas`);
  return list;
}

/** key=value words, and the rest in order. */
function split(args: readonly string[]): { rest: string[]; keys: Record<string, string> } {
  const rest: string[] = [];
  const keys: Record<string, string> = {};
  for (const a of args) {
    const eq = a.indexOf('=');
    if (eq > 0) keys[a.slice(0, eq)] = a.slice(eq + 1);
    else rest.push(a);
  }
  return { rest, keys };
}

/** Common challenge keys: dice=ACTOR/REACTOR, ability=, reactor-ability=, expertise=, spend-hits=, auto=yes. */
function challengeKeys(keys: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (keys.dice) {
    const [a, r] = keys.dice.split('/');
    out.dice = { ...(a ? { actor: numbers(a, 'dice') } : {}), ...(r ? { reactor: numbers(r, 'dice') } : {}) };
  }
  if (keys.ability) out.abilities = keys.ability.split(',');
  if (keys['reactor-ability']) out.reactorAbilities = keys['reactor-ability'].split(',');
  if (keys.expertise) out.expertise = keys.expertise;
  if (keys.assist) out.assistants = keys.assist.split(',');
  const spend: Record<string, unknown> = {};
  if (keys['spend-hits']) spend.extraHits = Number(keys['spend-hits']);
  if (keys.auto) spend.automaticSuccess = true;
  if (keys['spend-ability']) spend.ability = keys['spend-ability'];
  if (Object.keys(spend).length) out.spend = spend;
  return out;
}

function need(args: readonly string[], n: number, usage: string): void {
  if (args.length < n) throw new CliError(`usage: ${usage}`);
}

function handle(s: Session, line: string): string[] {
  const [verb = '', ...args] = words(line);
  const now = s.state.now!;
  const current = () => {
    if (!now.combat) throw new CliError('there is no turn: this is not a violent encounter');
    return now.combat.turn.actor;
  };
  const { rest, keys } = split(args);
  switch (verb) {
    case 'help':
    case '?':
      return [HELP];
    case 'status':
    case 's':
      return describeSnapshot(now);
    case 'order':
      return now.combat
        ? [`Round ${now.combat.round}: ${now.combat.order.map((id, i) => `${i === now.combat!.index ? '>' : ' '}${now.characters[id]?.def.name ?? id}`).join('  ')}`]
        : ['No action order: this is not a violent encounter.'];
    case 'log': {
      const n = Number(rest[0] ?? 10);
      const shown = s.events.slice(-n);
      return shown.map((e) => `#${e.seq} ${e.type}${'actor' in e ? ` ${String(e.actor)}` : ''}`);
    }
    case 'escalate':
      need(rest, 2, 'escalate WHO non-violent|hostile|violent');
      return apply(s, { type: 'escalate', actor: rest[0], to: rest[1] });
    case 'attack':
      need(rest, 2, 'attack WHO TARGET [weapon=] [defense=] [dice=A/R]');
      return apply(s, {
        type: 'attack',
        actor: rest[0],
        ...(rest.length > 2 ? { targets: rest.slice(1) } : { target: rest[1] }),
        ...(keys.weapon ? { weapon: keys.weapon } : {}),
        ...(keys.skill ? { skill: keys.skill } : {}),
        ...(keys.defense ? { defense: keys.defense } : {}),
        ...(keys['defense-skill'] ? { defenseSkill: keys['defense-skill'] } : {}),
        ...challengeKeys(keys),
      });
    case 'power':
      need(rest, 2, 'power WHO POWER [TARGET...]');
      return apply(s, {
        type: 'power',
        actor: rest[0],
        power: rest[1],
        ...(rest.length > 3 ? { targets: rest.slice(2) } : rest[2] ? { target: rest[2] } : {}),
        ...(keys.defense ? { defense: keys.defense } : {}),
        ...challengeKeys(keys),
      });
    case 'say':
      need(rest, 3, 'say WHO TARGET SKILL');
      return apply(s, {
        type: 'interact',
        actor: rest[0],
        target: rest[1],
        skill: rest.slice(2).join(' '),
        ...(keys['reactor-skill'] ? { reactorSkill: keys['reactor-skill'] } : {}),
        ...(keys.attribute ? { attribute: keys.attribute } : {}),
        ...challengeKeys(keys),
      });
    case 'ask': {
      need(rest, 3, 'ask WHO TARGET [hidden] QUESTION');
      const hidden = rest[2] === 'hidden';
      return apply(s, { type: 'inquire', actor: rest[0], target: rest[1], hidden, question: rest.slice(hidden ? 3 : 2).join(' ') || '?', ...(keys.skill ? { skill: keys.skill } : {}), ...challengeKeys(keys) });
    }
    case 'move':
      return apply(s, { type: 'move', actor: rest[0] ?? current() });
    case 'defend':
      need(rest, 2, 'defend WHO parry|block|power [SKILL or POWER]');
      return apply(s, { type: 'defend', actor: rest[0], kind: rest[1], ...(rest[2] ? (rest[1] === 'power' ? { power: rest.slice(2).join(' ') } : { skill: rest.slice(2).join(' ') }) : {}) });
    case 'assist':
      need(rest, 2, 'assist WHO PRIMARY');
      return apply(s, { type: 'assist', actor: rest[0], primary: rest[1] });
    case 'stabilize':
      need(rest, 2, 'stabilize WHO TARGET');
      return apply(s, { type: 'stabilize', actor: rest[0], target: rest[1] });
    case 'maintain':
      need(rest, 2, 'maintain WHO EFFECT');
      return apply(s, { type: 'maintain', actor: rest[0], effect: Number(rest[1]) });
    case 'recover':
      need(rest, 1, 'recover WHO [dice=A/G]');
      return apply(s, { type: 'recover', actor: 'gm', target: rest[0], ...(keys.dice ? { dice: challengeKeys(keys).dice } : {}) });
    case 'end':
      return apply(s, { type: 'end-turn', actor: 'gm' });
    case 'end-encounter':
      return apply(s, { type: 'end-encounter', actor: 'gm' });
    case 'scene':
      return apply(s, { type: 'begin-scene', actor: 'gm', ...(rest.length ? { title: rest.join(' ') } : {}) });
    case 'day':
      return apply(s, { type: 'begin-day', actor: 'gm' });
    case 'session':
      return apply(s, { type: 'begin-session', actor: 'gm' });
    case 'set-order':
      need(rest, 1, 'set-order A,B,C');
      return apply(s, { type: 'set-order', actor: 'gm', order: rest.join(',').split(',').filter(Boolean) });
    case 'undo':
      return apply(s, { type: 'undo', actor: 'gm', ...(rest[0] ? { toSequence: Number(rest[0]) } : {}) });
    case 'redo':
      return apply(s, { type: 'redo', actor: 'gm' });
    case 'do': {
      let input: unknown;
      try {
        input = parseYaml(line.slice(line.indexOf('do') + 2));
      } catch (e) {
        throw new CliError(`not YAML: ${(e as Error).message.split('\n')[0]}`);
      }
      return apply(s, { actor: 'gm', ...(input as Record<string, unknown>) });
    }
    default:
      throw new CliError(`unknown command "${verb}"; type "help"`);
  }
}
