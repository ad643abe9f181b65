import { readFile, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { addTableFlags, collect, readTable, type TableFlags } from '../args.js';
import { CliError, type CliIo } from '../io.js';
// The character module is imported directly so that the CLI does not depend on what the rules
// package index re-exports.
import {
  ATTRIBUTES,
  ATTRIBUTE_LABELS,
  PRIORITY_LABELS,
  allocateAttributes,
  attributeCaps,
  buildCharacter,
  checkCreation,
  deriveCharacter,
  describePurchase,
  loadSheet,
  potentialFromSum,
  rarityOf,
  sheetToJson,
  sheetToYaml,
  type AnySheet,
  type AttributeName,
  type BuilderAbility,
  type BuilderInput,
  type BuilderPower,
  type BuilderSkill,
  type BuilderTalent,
  type CharacterOptions,
  type CharacterSheet,
  type CheckReport,
  type Gear,
  type Priorities,
  type Priority,
} from '@personae/rules/character';
import { describeEffectWithScope } from '@personae/rules/effects';

/** Exit codes of `personae sheet check`: legal, not legal, unreadable. */
export const SHEET_LEGAL = 0;
export const SHEET_ILLEGAL = 1;
export const SHEET_UNREADABLE = 2;

type Load = { ok: true; sheet: CharacterSheet; file: string } | { ok: false; message: string; line?: number; path?: string };

async function readSheetFile(file: string): Promise<Load> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (e as Error).message;
    return { ok: false, message: `cannot read ${file}: ${why}` };
  }
  const r = loadSheet(text, basename(file));
  if (!r.ok) {
    return { ok: false, message: r.error.message, ...(r.error.line !== undefined ? { line: r.error.line } : {}), ...(r.error.path !== undefined ? { path: r.error.path } : {}) };
  }
  return { ok: true, sheet: r.sheet, file };
}

/** A message of one or more lines, each starting "personae: " as every error the command prints. */
function prefixed(message: string): string {
  return message
    .split('\n')
    .map((line) => `personae: ${line}\n`)
    .join('');
}

// ---------------------------------------------------------------------------------------------
// check

function checkJson(report: CheckReport): string {
  const d = report.derived;
  return `${JSON.stringify(
    {
      valid: report.valid,
      errors: report.errors.map((e) => ({ path: e.path, rule: e.rule, message: e.message, source: e.source })),
      notes: report.notes,
      derived: {
        potential: d.potential,
        potentialThreshold: d.potentialThreshold,
        startingPotential: d.startingPotential,
        attributeSum: d.attributeSum,
        maxSkillDice: d.maxSkillDice,
        prowessPool: d.prowessPool,
        prowessDice: d.prowessDice,
        hitsBeforeInjured: d.hitsBeforeInjured,
        attributeCaps: d.attributeCaps,
        limits: d.limits,
        resourceCap: d.resourceCap.total,
        developmentPoints: d.developmentPoints,
        criticals: d.criticals,
        tier: d.tier,
      },
    },
    null,
    2,
  )}\n`;
}

function checkText(sheet: CharacterSheet, file: string, report: CheckReport, preset: string): string {
  const lines: string[] = [];
  const n = report.errors.length;
  lines.push(
    report.valid
      ? `${file}: ${sheet.name} is a legal character (rules ${preset}).`
      : `${file}: ${sheet.name} breaks ${n === 1 ? 'one rule' : `${n} rules`} (rules ${preset}).`,
  );
  for (const e of report.errors) {
    lines.push(`  error  ${e.path}: ${e.message}`);
    lines.push(`         rule ${e.rule}; ${e.source}`);
  }
  for (const note of report.notes) lines.push(`  note   ${note.path ? `${note.path}: ` : ''}${note.message}`);
  const d = report.derived;
  lines.push(
    `  Potential ${d.potential} (threshold ${d.potentialThreshold}), skills up to ${d.maxSkillDice} dice, Prowess Pool ${d.prowessPool}, ${d.hitsBeforeInjured} hits before Injured.`,
  );
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// show: the character laid out like a paper sheet.

const WIDTH = 78;
const rule = (title: string) => `-- ${title} ${'-'.repeat(Math.max(0, WIDTH - title.length - 4))}`;
const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const lpad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);

function identifiers(a: CharacterSheet['specialAbilities'][number]): string {
  const ids = [a.conditional.length ? 'C' : '', a.culture ? 'R' : '', a.quality ? 'Q' : '', a.exceptionalGear !== undefined ? 'X' : ''].filter(Boolean);
  return ids.length ? ` (${ids.join(')(')})` : '';
}

/** The effect in the registry's words with its scope; nothing for a described benefit, whose description follows. */
function describeEffect(effect: CharacterSheet['specialAbilities'][number]['effect']): string {
  return effect.type === 'described' ? '' : describeEffectWithScope(effect);
}

function gearLine(g: Gear): string {
  const kind =
    g.type === 'weapon' ? `${g.size} ${g.range} weapon (${g.group})` : g.type === 'shield' ? `${g.weight} shield` : g.type === 'armor' ? 'armor' : 'item';
  const cost = g.cost !== undefined ? `, cost ${g.cost} (${rarityOf(g.cost)})` : '';
  const ex = g.exceptional ? `, exceptional by ${g.exceptional === 'both' ? 'craft and supernatural quality' : g.exceptional === 'craft' ? 'craft' : 'supernatural quality'}` : '';
  return `  ${g.name}: ${kind}${cost}${ex}`;
}

export function formatSheet(sheet: AnySheet, report: CheckReport, options: CharacterOptions, indent = ''): string {
  const d = report.derived;
  const out: string[] = [];
  const title = `${sheet.name}`.toUpperCase();
  out.push('='.repeat(WIDTH));
  out.push(`${title}${lpad(`Personae character sheet v${sheet.version}`, WIDTH - title.length)}`);
  out.push('='.repeat(WIDTH));
  out.push(`Concept: ${sheet.concept}`);
  const role = sheet.role === 'main' ? 'main character' : `${d.tier} ${sheet.role}`;
  out.push(`Role: ${role}${sheet.player ? `   Player: ${sheet.player}` : ''}`);
  out.push(
    `Creation points: ${sheet.creationPoints} (starting Potential ${d.startingPotential})   Potential: ${d.potential}   Potential Threshold: ${d.potentialThreshold}`,
  );
  out.push('');
  out.push(rule('ATTRIBUTES'));
  out.push(`  ${pad('Attribute', 14)}${pad('Priority', 10)}${lpad('Value', 6)}${lpad('Start cap', 11)}   Trait maximum at creation`);
  const maxima: Record<AttributeName, string> = {
    competence: `${d.limits.skills} unlocked skills`,
    prowess: `${d.prowessPool} Prowess Pool dice`,
    cunning: `${d.limits.specialAbilities} special abilities`,
    power: `${d.limits.powers} powers`,
    knowledge: `${d.limits.talents} talents`,
    stature: `${d.hitsBeforeInjured} hits before Injured`,
  };
  for (const a of ATTRIBUTES) {
    const p = d.priorityOf[a] as Priority | undefined;
    out.push(
      `  ${pad(ATTRIBUTE_LABELS[a], 14)}${pad(p ? PRIORITY_LABELS[p] : '?', 10)}${lpad(String(sheet.attributes[a]), 6)}${lpad(p ? String(d.attributeCaps[p]) : '-', 11)}   ${maxima[a]}`,
    );
  }
  out.push(`  ${pad('Sum', 24)}${lpad(String(d.attributeSum), 6)}`);
  out.push('');
  out.push(rule(`SKILLS (up to ${d.maxSkillDice} dice)`));
  for (const s of d.skills) {
    const link = s.weapon ? `  weapon: ${s.weapon}` : s.shield ? `  shield: ${s.shield}` : '';
    out.push(`  ${pad(s.name, 26)}${lpad(`${s.dice}d10`, 5)} + ${pad(`${ATTRIBUTE_LABELS[s.attribute]} ${s.attributeValue}`, 14)}${s.defense ? ' (defence)' : ''}${link}`);
  }
  out.push(`  Prowess Pool: ${d.prowessPool} dice, ${d.prowessDice.assigned} assigned, ${d.prowessDice.unassigned} unassigned`);
  out.push('');
  out.push(rule('TALENTS'));
  if (sheet.talents.length === 0) out.push('  (none)');
  for (const t of sheet.talents) {
    const extra =
      t.kind === 'expertise' ? `, ${t.uses}/session, +${t.dice} ${t.dice === 1 ? 'die' : 'dice'}` : t.kind === 'resource' ? `, Resource Cap +${t.resourceCap}` : t.native ? ', native' : '';
    out.push(`  ${t.name} (${t.kind}${extra})`);
  }
  out.push(`  Resource Cap: ${d.resourceCap.total}${d.resourceCap.temporary ? ` (${d.resourceCap.permanent} + ${d.resourceCap.temporary} temporary)` : ''}`);
  out.push('');
  out.push(rule('SPECIAL ABILITIES'));
  if (sheet.specialAbilities.length === 0) out.push('  (none)');
  for (const a of sheet.specialAbilities) {
    const effect = describeEffect(a.effect);
    out.push(`  ${a.name}${identifiers(a)}${a.upgrades ? `  [${a.upgrades} upgrade${a.upgrades === 1 ? '' : 's'}]` : ''}${effect ? `: ${effect}` : ''}`);
    if (a.conditional.length) out.push(`      only: ${a.conditional.join('; ')}`);
    if (a.description) out.push(`      ${a.description}`);
  }
  out.push('');
  out.push(rule('POWERS'));
  if (sheet.powers.length === 0) out.push('  (none)');
  for (const p of sheet.powers) {
    out.push(
      `  ${p.name} (${p.duration[0]!.toUpperCase()}): ${p.targets} target${p.targets === 1 ? '' : 's'}${p.hits ? `, ${p.hits} hit${p.hits === 1 ? '' : 's'}` : ''}${p.upgrades ? `, ${p.upgrades} upgrade${p.upgrades === 1 ? '' : 's'}` : ''}${p.skill ? `, rolled with ${p.skill}` : ''}`,
    );
    if (p.description) out.push(`      ${p.description}`);
  }
  out.push('');
  out.push(rule('HEALTH'));
  out.push(`  Hits before ${d.healthStatuses[0] === 'injured' ? 'Injured' : 'Incapacitated'}: ${d.hitsBeforeInjured} (${d.hitsBeforeInjuredParts.map((p) => `${p.value} ${p.source}`).join(' + ')})`);
  out.push(`  Status levels: ${d.healthStatuses.map((s) => s[0]!.toUpperCase() + s.slice(1)).join(' > ')}`);
  out.push(`  Current: ${sheet.health.hits} hit${sheet.health.hits === 1 ? '' : 's'}, ${sheet.health.status}`);
  out.push('');
  out.push(rule('GEAR'));
  if (sheet.gear.length === 0) out.push('  (none)');
  for (const g of sheet.gear) out.push(gearLine(g));
  out.push('');
  out.push(rule('ADVANCEMENT'));
  out.push(`  Criticals banked: ${d.criticals}`);
  out.push(`  Development points: ${d.developmentPoints.awarded} awarded, ${d.developmentPoints.spent} spent, ${d.developmentPoints.unspent} unspent`);
  if ('history' in sheet) {
    const undone = new Set(sheet.history.filter((e) => e.type === 'undo').map((e) => (e as { entry: number }).entry));
    for (const e of sheet.history) {
      const mark = undone.has(e.id) ? ' (undone)' : '';
      if (e.type === 'award') out.push(`  #${e.id} award ${e.points}${e.note ? `: ${e.note}` : ''}${mark}`);
      else if (e.type === 'spend') out.push(`  #${e.id} ${describePurchase(e.purchase)}, ${e.cost} from ${e.award === null ? 'no award' : `#${e.award}`}${mark}`);
      else out.push(`  #${e.id} undo #${e.entry}`);
    }
  }
  const lines = out.map((l) => indent + l);
  if ('companions' in sheet && sheet.companions.length) {
    lines.push('', indent + rule('COMPANIONS'));
    for (const c of sheet.companions) {
      lines.push(formatSheet(c, { ...report, derived: deriveCharacter(c, options) }, options, `${indent}    `).trimEnd());
    }
  }
  if (!indent) {
    lines.push('');
    lines.push(
      report.valid ? 'Legal character.' : `Not legal: ${report.errors.length} rule${report.errors.length === 1 ? '' : 's'} broken (see "personae sheet check").`,
    );
  }
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// new: the builder, interactive or from flags.

interface NewFlags extends TableFlags {
  name?: string;
  concept?: string;
  player?: string;
  role?: string;
  tier?: string;
  creationPoints?: string;
  first?: string;
  second?: string;
  third?: string;
  handicap?: string;
  attribute: string[];
  skill: string[];
  talent: string[];
  ability: string[];
  power: string[];
  gear: string[];
  out?: string;
  format?: string;
  yes?: boolean;
}

/** Pulls one answer at a time from the input stream; an empty answer at the end of input. */
export class Prompter {
  private readonly lines: AsyncIterator<string>;
  private ended = false;
  constructor(
    input: NodeJS.ReadableStream,
    private readonly write: (s: string) => void,
  ) {
    this.lines = createInterface({ input, terminal: false, crlfDelay: Infinity })[Symbol.asyncIterator]();
  }
  async ask(question: string, fallback = ''): Promise<string> {
    this.write(`${question}${fallback ? ` [${fallback}]` : ''}: `);
    if (this.ended) {
      this.write('\n');
      return fallback;
    }
    const next = await this.lines.next();
    if (next.done) {
      this.ended = true;
      this.write('\n');
      return fallback;
    }
    const answer = next.value.trim();
    return answer === '' ? fallback : answer;
  }
  get atEnd(): boolean {
    return this.ended;
  }
}

const attributeOf = (text: string): AttributeName | null => {
  const t = text.trim().toLowerCase();
  return (ATTRIBUTES.find((a) => a === t || a.slice(0, 3) === t) as AttributeName | undefined) ?? null;
};

function readPriorities(first?: string, second?: string, third?: string, handicap?: string): Priorities | string {
  const list = (s: string | undefined, n: number, what: string): AttributeName[] | string => {
    const parts = (s ?? '').split(',').map((x) => x.trim()).filter(Boolean);
    const attrs = parts.map(attributeOf);
    if (attrs.length !== n || attrs.some((a) => a === null)) return `${what} takes ${n === 1 ? 'one attribute' : `${n} attributes, separated by a comma`} (${ATTRIBUTES.join(', ')})`;
    return attrs as AttributeName[];
  };
  const f = list(first, 2, 'First priority');
  const s = list(second, 2, 'Second priority');
  const t = list(third, 1, 'Third priority');
  const h = list(handicap, 1, 'Handicap');
  for (const x of [f, s, t, h]) if (typeof x === 'string') return x;
  const p: Priorities = { first: [(f as AttributeName[])[0]!, (f as AttributeName[])[1]!], second: [(s as AttributeName[])[0]!, (s as AttributeName[])[1]!], third: (t as AttributeName[])[0]!, handicap: (h as AttributeName[])[0]! };
  const named = [...p.first, ...p.second, p.third, p.handicap];
  const dup = ATTRIBUTES.find((a) => named.filter((n) => n === a).length !== 1);
  return dup ? `each attribute has exactly one priority (${ATTRIBUTE_LABELS[dup]} does not)` : p;
}

/** "Longsword:stature:4:weapon=Longsword" */
function readSkill(text: string): BuilderSkill {
  const [name, attribute, dice, ...rest] = text.split(':').map((x) => x.trim());
  if (!name) throw new CliError(`--skill "${text}": give at least a name (name:attribute:dice[:weapon=NAME|shield=NAME])`);
  const attr = attribute ? attributeOf(attribute) : undefined;
  if (attribute && !attr) throw new CliError(`--skill "${text}": "${attribute}" is not an attribute (${ATTRIBUTES.join(', ')})`);
  const skill: BuilderSkill = { name };
  if (attr) skill.attribute = attr;
  if (dice) {
    if (!/^\d+$/.test(dice)) throw new CliError(`--skill "${text}": dice must be a whole number`);
    skill.dice = Number(dice);
  }
  for (const r of rest) {
    const [k, v] = r.split('=').map((x) => x.trim());
    if ((k === 'weapon' || k === 'shield') && v) skill[k] = v;
    else throw new CliError(`--skill "${text}": expected weapon=NAME or shield=NAME, not "${r}"`);
  }
  return skill;
}

function readTalent(text: string): BuilderTalent {
  const [name, kind, native] = text.split(':').map((x) => x.trim());
  if (!name || !kind || !['language', 'expertise', 'resource'].includes(kind)) {
    throw new CliError(`--talent "${text}": expected name:language|expertise|resource[:native]`);
  }
  return { name, kind: kind as 'language' | 'expertise' | 'resource', native: native === 'native' };
}

function readAbility(text: string): BuilderAbility {
  const [name, ...flags] = text.split(':').map((x) => x.trim());
  if (!name) throw new CliError(`--ability "${text}": give a name`);
  const a: BuilderAbility = { name };
  for (const f of flags) {
    if (f === 'culture') a.culture = true;
    else if (f === 'quality') a.quality = true;
    else if (f.startsWith('gear=')) a.exceptionalGear = f.slice(5);
    else if (f.startsWith('if=')) a.conditional = [...(a.conditional ?? []), f.slice(3)];
    else throw new CliError(`--ability "${text}": unknown marker "${f}" (culture, quality, gear=ITEM, if=CONDITION)`);
  }
  return a;
}

function readPower(text: string): BuilderPower {
  const [name, duration] = text.split(':').map((x) => x.trim());
  if (!name) throw new CliError(`--power "${text}": give a name`);
  if (duration && !['instant', 'maintain', 'independent', 'special'].includes(duration)) {
    throw new CliError(`--power "${text}": duration is instant, maintain, independent or special`);
  }
  return { name, ...(duration ? { duration: duration as 'instant' } : {}) };
}

function readGear(text: string): Gear {
  const [name, type, a, b, c] = text.split(':').map((x) => x.trim());
  if (!name) throw new CliError(`--gear "${text}": give a name`);
  switch (type ?? 'item') {
    case 'weapon': {
      const size = (a ?? 'one-handed') as 'small' | 'one-handed' | 'two-handed';
      const range = (b ?? 'melee') as 'melee' | 'ranged';
      if (!['small', 'one-handed', 'two-handed'].includes(size) || !['melee', 'ranged'].includes(range)) {
        throw new CliError(`--gear "${text}": a weapon is name:weapon:small|one-handed|two-handed:melee|ranged:group`);
      }
      return { type: 'weapon', name, size, range, group: c || 'unspecified' };
    }
    case 'shield':
      if (a && a !== 'light' && a !== 'heavy') throw new CliError(`--gear "${text}": a shield is light or heavy`);
      return { type: 'shield', name, weight: (a as 'light' | 'heavy') ?? 'light' };
    case 'armor':
      return { type: 'armor', name };
    case 'item':
      return { type: 'item', name };
    default:
      throw new CliError(`--gear "${text}": type is weapon, shield, armor or item`);
  }
}

async function builderInput(flags: NewFlags, io: CliIo, table: ReturnType<typeof readTable>): Promise<BuilderInput> {
  const interactive = !flags.yes && io.stdin !== undefined;
  const p = interactive ? new Prompter(io.stdin!, io.stdout) : null;
  const say = (s: string) => io.stdout(`${s}\n`);
  const ask = async (q: string, given: string | undefined, fallback = ''): Promise<string> => (given !== undefined ? given : p ? p.ask(q, fallback) : fallback);

  const role = (await ask('Role (main, companion, ally, adversary)', flags.role, 'main')) as BuilderInput['role'];
  if (!['main', 'companion', 'ally', 'adversary'].includes(role!)) throw new CliError(`role "${role}" is not main, companion, ally or adversary`);
  if (p) say('\nStep 1 - Concept and starting Potential');
  const name = await ask('Name', flags.name);
  const concept = await ask('Concept (a few words)', flags.concept);
  if (!name) throw new CliError('the character needs a name (--name)');
  if (!concept) throw new CliError('the character needs a concept (--concept)');
  const defaultPoints = role === 'companion' ? 10 : table.options.creationPoints;
  let creationPoints = defaultPoints;
  for (;;) {
    const text = await ask('Creation points', flags.creationPoints, String(defaultPoints));
    if (/^\d+$/.test(text) && Number(text) >= 5) {
      creationPoints = Number(text);
      break;
    }
    if (!p || p.atEnd || flags.creationPoints !== undefined) throw new CliError(`creation points must be a whole number of at least 5, not "${text}"`);
    say('  A whole number of at least 5, please.');
  }
  const caps = attributeCaps(creationPoints);
  if (p) say(`  Starting Potential ${potentialFromSum(creationPoints, table.options)}; caps: First ${caps.first}, Second ${caps.second}, Third ${caps.third}, Handicap ${caps.handicap}.`);

  if (p) say('\nStep 2 - Order of importance (competence, prowess, cunning, power, knowledge, stature)');
  let priorities: Priorities;
  for (;;) {
    const got = readPriorities(
      await ask('First priority (two)', flags.first),
      await ask('Second priority (two)', flags.second),
      await ask('Third priority (one)', flags.third),
      await ask('Handicap (one)', flags.handicap),
    );
    if (typeof got !== 'string') {
      priorities = got;
      break;
    }
    if (!p || p.atEnd) throw new CliError(`priorities: ${got} (--first, --second, --third, --handicap)`);
    say(`  ${got[0]!.toUpperCase()}${got.slice(1)}; again please.`);
  }

  if (p) say('\nStep 3 - Allocate creation points');
  const requested: Partial<Record<AttributeName, number>> = {};
  for (const a of flags.attribute) {
    const [k, v] = a.split('=').map((x) => x.trim());
    const attr = k ? attributeOf(k) : null;
    if (!attr || !v || !/^\d+$/.test(v)) throw new CliError(`--attribute "${a}": expected name=value, e.g. stature=4`);
    requested[attr] = Number(v);
  }
  if (p) {
    const suggestion = allocateAttributes(creationPoints, priorities, requested);
    let left = creationPoints;
    for (const pr of ['first', 'second', 'third', 'handicap'] as const) {
      const attrs = pr === 'first' ? priorities.first : pr === 'second' ? priorities.second : [pr === 'third' ? priorities.third : priorities.handicap];
      for (const a of attrs) {
        if (requested[a] !== undefined) {
          left -= requested[a]!;
          continue;
        }
        const text = await p.ask(`${ATTRIBUTE_LABELS[a]} (${PRIORITY_LABELS[pr]}, at most ${caps[pr]}; ${left} points left)`, String(Math.min(suggestion[a], Math.max(0, left))));
        const v = /^\d+$/.test(text) ? Number(text) : suggestion[a];
        requested[a] = v;
        left -= v;
      }
    }
  }
  const attributes = allocateAttributes(creationPoints, priorities, requested);
  if (p) {
    say('\nStep 4 - Maximum number of traits');
    say(`  Skills ${attributes.competence}, Prowess Pool ${3 * attributes.prowess} dice, special abilities ${attributes.cunning}, powers ${attributes.power}, talents ${attributes.knowledge}, ${1 + attributes.stature} hits before Injured.`);
    say('  Block, Dodge and Resist are unlocked for free at 2 dice; the native language is free.');
  }

  const skills = flags.skill.map(readSkill);
  const talents = flags.talent.map(readTalent);
  const abilities = flags.ability.map(readAbility);
  const powers = flags.power.map(readPower);
  const gear = flags.gear.map(readGear);
  if (p) {
    say('\nStep 5 - Define traits (leave blank to move on)');
    const loop = async (q: string, parse: (s: string) => void) => {
      for (;;) {
        const text = await p.ask(q);
        if (!text) return;
        try {
          parse(text);
        } catch (e) {
          say(`  ${(e as Error).message.replace(/^--\w+ /, '')}`);
        }
      }
    };
    await loop('Skill (name:attribute:dice[:weapon=NAME|shield=NAME])', (s) => void skills.push(readSkill(s)));
    await loop('Talent (name:language|expertise|resource[:native])', (s) => void talents.push(readTalent(s)));
    await loop('Special ability (name[:culture][:quality][:if=CONDITION])', (s) => void abilities.push(readAbility(s)));
    await loop('Power (name:instant|maintain|independent|special)', (s) => void powers.push(readPower(s)));
    say('\nStep 6 - Starting gear (a weapon for each weapon skill and a shield for a shield skill are added for you)');
    await loop('Gear (name:weapon|shield|armor|item[:...])', (s) => void gear.push(readGear(s)));
  }
  return {
    name,
    concept,
    ...(flags.player ? { player: flags.player } : {}),
    role: role!,
    ...(flags.tier ? { tier: flags.tier as 'minion' } : {}),
    creationPoints,
    priorities,
    attributes,
    skills,
    talents,
    specialAbilities: abilities,
    powers,
    gear,
  };
}

// ---------------------------------------------------------------------------------------------

export function registerSheetCommands(program: Command, io: CliIo): void {
  const sheet = program.command('sheet').description('Personae character sheets: check them against the creation rules, show them, build new ones');

  addTableFlags(
    sheet
      .command('check')
      .description('check a sheet (YAML or JSON) against every creation rule; exit 0 legal, 1 not legal, 2 unreadable')
      .argument('<file>', 'the sheet file')
      .option('--json', 'print { valid, errors, notes, derived } as JSON'),
  ).action(async (file: string, flags: TableFlags & { json?: boolean }) => {
    const table = readTable(flags);
    const loaded = await readSheetFile(file);
    if (!loaded.ok) {
      if (flags.json) {
        io.stdout(`${JSON.stringify({ valid: false, readable: false, errors: [{ path: loaded.path ?? '', rule: 'sheet-format', message: loaded.message, ...(loaded.line !== undefined ? { line: loaded.line } : {}) }], notes: [], derived: null }, null, 2)}\n`);
      } else {
        io.stderr(prefixed(loaded.message));
      }
      io.setExitCode(SHEET_UNREADABLE);
      return;
    }
    const report = checkCreation(loaded.sheet, table.options);
    io.stdout(flags.json ? checkJson(report) : checkText(loaded.sheet, basename(file), report, table.preset));
    io.setExitCode(report.valid ? SHEET_LEGAL : SHEET_ILLEGAL);
  });

  addTableFlags(
    sheet
      .command('show')
      .description('show a character with its derived values, laid out like a paper sheet')
      .argument('<file>', 'the sheet file'),
  ).action(async (file: string, flags: TableFlags) => {
    const table = readTable(flags);
    const loaded = await readSheetFile(file);
    if (!loaded.ok) {
      io.stderr(prefixed(loaded.message));
      io.setExitCode(SHEET_UNREADABLE);
      return;
    }
    io.stdout(formatSheet(loaded.sheet, checkCreation(loaded.sheet, table.options), table.options));
  });

  addTableFlags(
    sheet
      .command('new')
      .description('build a new character step by step (interactive), or from flags with --yes')
      .option('--name <name>', 'character name')
      .option('--concept <words>', 'the concept in a few words')
      .option('--player <name>', 'player name')
      .option('--role <role>', 'main, companion, ally or adversary')
      .option('--tier <tier>', 'minion, minor or major (supporting characters)')
      .option('--creation-points <n>', 'creation points (default: the table option creationPoints)')
      .option('--first <a,b>', 'the two First-priority attributes')
      .option('--second <c,d>', 'the two Second-priority attributes')
      .option('--third <e>', 'the Third-priority attribute')
      .option('--handicap <f>', 'the Handicap attribute')
      .option('--attribute <name=value>', 'an attribute value (repeatable; the rest are filled in)', collect, [])
      .option('--skill <spec>', 'name:attribute:dice[:weapon=NAME|shield=NAME] (repeatable)', collect, [])
      .option('--talent <spec>', 'name:language|expertise|resource[:native] (repeatable)', collect, [])
      .option('--ability <spec>', 'special ability name[:culture][:quality][:gear=ITEM][:if=CONDITION] (repeatable)', collect, [])
      .option('--power <spec>', 'name:instant|maintain|independent|special (repeatable)', collect, [])
      .option('--gear <spec>', 'name:weapon:size:range:group | name:shield:light|heavy | name:armor | name:item (repeatable)', collect, [])
      .option('--out <file>', 'write the sheet here (default: print it)')
      .option('--format <format>', 'yaml or json (default: from --out, else yaml)')
      .option('-y, --yes', 'do not ask anything: use the flags and fill in the rest'),
  ).action(async (flags: NewFlags) => {
    const table = readTable(flags);
    const input = await builderInput(flags, io, table);
    const built = buildCharacter(input, table.options);
    if (!built.ok) throw new CliError(built.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
    for (const a of built.adjustments) io.stderr(`adjusted: ${a}\n`);
    const format = flags.format ?? (flags.out?.endsWith('.json') ? 'json' : 'yaml');
    if (format !== 'yaml' && format !== 'json') throw new CliError(`--format is yaml or json, not "${format}"`);
    const text = format === 'json' ? sheetToJson(built.sheet) : sheetToYaml(built.sheet);
    if (flags.out) {
      await writeFile(flags.out, text);
      io.stdout(`${flags.out}: ${built.sheet.name} written; it passes every creation rule.\n`);
    } else {
      io.stdout(text);
    }
  });
}
