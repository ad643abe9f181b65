import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Option } from 'commander';
import {
  ATTRIBUTE_LABEL,
  ATTRIBUTE_NAMES,
  applyEvent,
  buildSide,
  checkOneSpecialAbility,
  combatantFromSheet,
  RuleError,
  findSkill,
  inScope,
  changesRoll,
  describeEffect as effectText,
  effectScope,
  scopeText,
  same,
  skillUse,
  findWeapon,
  weaponAttribute,
  STATUS_LABEL,
  STATUS_PENALTY,
  type AttributeKey,
  type BuiltSide,
  type CharacterState,
  type Combatant,
  type CombatantAbility,
  type Labeled,
  type SideKind,
  type SkillUse,
  type Snapshot,
  type TableOptions,
} from '@personae/rules';
import { closestWord, signed } from './args.js';
import { CliError } from './io.js';
// The character module is imported directly, as the sheet commands do.
import { isDefenseSkill, loadSheet, type CharacterSheet } from '@personae/rules';
import { formatCitation } from '@personae/core';

const CORE = 'personae-core-2011.txt';

// ---------------------------------------------------------------------------------------------
// Which flags belong to which side.

/** Flags that describe one side of a challenge: written before "vs" they are the actor's, after it the reactor's. */
export const SIDE_FLAGS = ['sheet', 'skill', 'attribute', 'ability', 'expertise', 'kind', 'modifier'] as const;
export type SideFlag = (typeof SIDE_FLAGS)[number];

/** The kinds of challenge `--kind` names (effect scopes and armor depend on it). */
export const CHALLENGE_KINDS = ['attack', 'power', 'interaction', 'other'] as const;
export type CliChallengeKind = (typeof CHALLENGE_KINDS)[number];

/** The side flags given on one side of "vs". */
export interface SideArgs {
  readonly sheet?: string;
  readonly skill?: string;
  readonly attribute?: string;
  readonly abilities: readonly string[];
  readonly expertise?: string;
  readonly kind?: string;
  readonly modifiers: readonly string[];
}

export interface SideSplit {
  readonly actor: SideArgs;
  readonly reactor: SideArgs;
}

export const NO_SIDE_ARGS: SideArgs = { abilities: [], modifiers: [] };

const VERSUS = /^(vs\.?|versus)$/i;
const REPEATABLE: ReadonlySet<SideFlag> = new Set<SideFlag>(['ability', 'modifier']);

function isSideFlag(name: string): name is SideFlag {
  return (SIDE_FLAGS as readonly string[]).includes(name);
}

/** What the scan needs to know of the command's options. */
export type OptionShape = Pick<Option, 'long' | 'short' | 'required'> & { attributeName(): string };

/**
 * Assign every side flag on the command line to the side it is written on: before the word "vs" the
 * actor's, after it the reactor's. `tokens` are the command's words in the order typed; `options`
 * tell which flags take a value (so that a value is never taken for "vs").
 */
export function splitSideFlags(tokens: readonly string[], options: readonly OptionShape[]): SideSplit {
  const found = { actor: new Map<SideFlag, string[]>(), reactor: new Map<SideFlag, string[]>() };
  let side: 'actor' | 'reactor' = 'actor';
  let operandsOnly = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (!operandsOnly && token === '--') {
      operandsOnly = true;
      continue;
    }
    if (!operandsOnly && token.length > 1 && token.startsWith('-')) {
      const eq = token.startsWith('--') ? token.indexOf('=') : -1;
      const flag = eq > 0 ? token.slice(0, eq) : token;
      const option = options.find((o) => o.long === flag || o.short === flag);
      if (!option) continue;
      let value = eq > 0 ? token.slice(eq + 1) : undefined;
      if (value === undefined && option.required) value = tokens[++i];
      const name = option.attributeName();
      if (value !== undefined && isSideFlag(name)) found[side].set(name, [...(found[side].get(name) ?? []), value]);
      continue;
    }
    if (VERSUS.test(token.trim())) side = 'reactor';
  }
  return { actor: sideArgs(found.actor, 'before "vs" (the actor)'), reactor: sideArgs(found.reactor, 'after "vs" (the reactor)') };
}

function sideArgs(found: ReadonlyMap<SideFlag, string[]>, where: string): SideArgs {
  const one = (flag: SideFlag): string | undefined => {
    const values = found.get(flag) ?? [];
    if (values.length > 1 && !REPEATABLE.has(flag)) throw new CliError(`--${flag} is given ${values.length} times ${where}; each side takes one`);
    return values[0];
  };
  const sheet = one('sheet');
  const skill = one('skill');
  const attribute = one('attribute');
  const expertise = one('expertise');
  const kind = one('kind');
  return {
    ...(sheet !== undefined ? { sheet } : {}),
    ...(skill !== undefined ? { skill } : {}),
    ...(attribute !== undefined ? { attribute } : {}),
    abilities: found.get('ability') ?? [],
    ...(expertise !== undefined ? { expertise } : {}),
    ...(kind !== undefined ? { kind } : {}),
    modifiers: found.get('modifier') ?? [],
  };
}

/** Whether any side flag was given at all. */
export function hasSideArgs(split: SideSplit): boolean {
  return [split.actor, split.reactor].some(
    (s) => s.sheet !== undefined || s.skill !== undefined || s.attribute !== undefined || s.expertise !== undefined || s.kind !== undefined || s.abilities.length > 0 || s.modifiers.length > 0,
  );
}

/**
 * A labelled circumstantial addition, "+1 high ground" or "-2 darkness" (personae-core-2011.txt
 * "The Challenge" step 2: "any other circumstantial additions ... agreed upon by player-GM consensus").
 */
export function readModifier(text: string): Labeled {
  const m = /^\s*([+-]?)\s*(\d+)\s*(.*)$/s.exec(text);
  const value = m ? Number(`${m[1] ?? ''}${m[2]}`) : NaN;
  if (!m || !Number.isSafeInteger(value) || Math.abs(value) > 100) {
    throw new CliError(`--modifier "${text}": expected a whole number from -100 to +100 and what it is for, e.g. "+1 high ground" or "-2 darkness"`);
  }
  const label = m[3]!.trim();
  return { value, source: label === '' ? 'circumstantial modifier' : label };
}

// ---------------------------------------------------------------------------------------------
// Sheets.

/** Read a character sheet file; any problem is one line naming the file, the line and the field. */
export function readSheetFile(file: string): CharacterSheet {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(`--sheet ${file}: cannot read it: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (e as Error).message}`);
  }
  const r = loadSheet(text, basename(file));
  if (!r.ok) {
    const first = r.error.issues[0] ?? r.error;
    const where = [first.line !== undefined ? `line ${first.line}` : '', first.path ?? ''].filter((s) => s !== '').join(', ');
    const more = r.error.issues.length > 1 ? `; ${r.error.issues.length - 1} more problem(s): personae sheet check ${file} lists them` : '';
    throw new CliError(`${file}${where ? ` (${where})` : ''}: ${first.message} (the character sheet format, docs/characters.md)${more}`);
  }
  return r.sheet;
}

/** One side of a challenge played by a character sheet, as `--sheet` and its flags describe it. */
export interface SheetRequest {
  readonly file: string;
  readonly args: SideArgs;
}

/** A side built from a sheet: the engine's spec, and how each part of it came from the sheet or a flag. */
export interface SheetSide {
  readonly file: string;
  readonly sheet: CharacterSheet;
  readonly def: Combatant;
  readonly who: CharacterState;
  readonly skill: SkillUse;
  readonly attribute: AttributeKey;
  readonly built: BuiltSide;
  /** Qualities in effect on this roll. */
  readonly qualities: readonly string[];
  readonly expertise?: { readonly name: string; readonly dice: number };
  readonly modifiers: readonly Labeled[];
  /** Every contribution in words, with the rule it comes from. */
  readonly explanation: readonly string[];
}

export interface SheetSides {
  readonly kind: SideKind;
  /** Why the challenge is of that kind: named with --kind, or read from the skills. */
  readonly kindReason: string;
  readonly actor?: SheetSide;
  readonly reactor?: SheetSide;
}

interface Loaded {
  readonly request: SheetRequest;
  readonly sheet: CharacterSheet;
  readonly def: Combatant;
  readonly role: 'issue' | 'answer';
}

function loadSide(request: SheetRequest, id: 'actor' | 'reactor', options: TableOptions): Loaded {
  const sheet = readSheetFile(request.file);
  let def: Combatant;
  try {
    def = combatantFromSheet(sheet, options, { id });
  } catch (e) {
    const issues = (e as { issues?: { path: PropertyKey[]; message: string }[] }).issues;
    const first = issues?.[0];
    if (!first) throw e;
    throw new CliError(`${request.file} (${first.path.map(String).join('.') || 'sheet'}): ${first.message}: the encounter rules cannot play this sheet`);
  }
  return { request, sheet, def, role: id === 'actor' ? 'issue' : 'answer' };
}

function lookUpSkill(side: Loaded): { found: boolean; name: string } {
  const name = side.request.args.skill;
  if (name === undefined || name.trim() === '') {
    throw new CliError(`${side.request.file}: name the skill ${side.def.name} rolls, e.g. --skill ${side.def.skills[0]?.name ?? 'Dodge'} (written on the same side of "vs" as --sheet)`);
  }
  const found = findSkill(side.def, name);
  return { found: found !== undefined, name: found?.name ?? name.trim() };
}

/**
 * The challenge's kind: as named with --kind (on either side, the same), or else an attack when the
 * actor rolls a weapon skill or the reactor answers with Dodge or Block (personae-core-2011.txt
 * "Defense": these answer Attack Challenges), and "other" for anything else.
 */
function challengeKind(actor: Loaded | undefined, reactor: Loaded | undefined, named: readonly (string | undefined)[]): { kind: SideKind; reason: string } {
  const kinds = [...new Set(named.filter((k): k is string => k !== undefined).map((k) => k.trim().toLowerCase()))];
  if (kinds.length > 1) throw new CliError(`--kind is ${kinds.join(' on one side and ')} on the other: a challenge has one kind`);
  if (kinds.length === 1) {
    const kind = kinds[0]!;
    if (!(CHALLENGE_KINDS as readonly string[]).includes(kind)) throw new CliError(`--kind "${kind}": expected one of ${CHALLENGE_KINDS.join(', ')}`);
    return { kind: kind as CliChallengeKind, reason: 'named with --kind' };
  }
  const weapon = actor ? findSkill(actor.def, actor.request.args.skill ?? '')?.weapon : undefined;
  if (weapon !== undefined) return { kind: 'attack', reason: `${actor!.request.args.skill!.trim()} is a weapon skill; --kind to change` };
  const defense = reactor?.request.args.skill?.trim();
  if (defense !== undefined && (same(defense, 'Dodge') || same(defense, 'Block'))) {
    return { kind: 'attack', reason: `${defense} answers Attack Challenges (${CORE} "Defense"); --kind to change` };
  }
  return { kind: 'other', reason: 'neither a weapon skill nor Dodge or Block; --kind attack, power or interaction to change' };
}

/** Build the sides played by sheets, as an encounter builds them, and say where every part comes from. */
export function buildSheetSides(
  requests: { readonly actor?: SheetRequest; readonly reactor?: SheetRequest },
  options: TableOptions,
  context: { readonly unopposed: boolean; /** --kind as given on each side, sheet or dice. */ readonly kinds: readonly (string | undefined)[] },
): SheetSides {
  const unopposed = context.unopposed;
  const actor = requests.actor ? loadSide(requests.actor, 'actor', options) : undefined;
  let reactor = requests.reactor ? loadSide(requests.reactor, 'reactor', options) : undefined;
  if (actor && reactor && same(actor.def.name, reactor.def.name)) reactor = { ...reactor, def: { ...reactor.def, name: `${reactor.def.name} (2)` } };
  const skills = { actor: actor ? lookUpSkill(actor) : undefined, reactor: reactor ? lookUpSkill(reactor) : undefined };
  const { kind, reason } = challengeKind(actor, reactor, context.kinds);

  // The table as an encounter sets it up; attacks and harmful powers are made in a violent encounter
  // (personae-core-2011.txt "Violent Encounters (a.k.a. Combat)"), which some injury options depend on.
  const defs = [actor?.def, reactor?.def].filter((d): d is Combatant => d !== undefined);
  let now: Snapshot = applyEvent(null, { type: 'set-up', title: 'personae roll', options, characters: defs });
  if (kind === 'attack' || kind === 'power') now = applyEvent(now, { type: 'escalated', by: 'gm', from: 'scene', to: 'violent', encounter: 1 });

  const build = (side: Loaded | undefined, skill: { found: boolean; name: string } | undefined): SheetSide | undefined =>
    side && skill ? buildOne(now, side, skill, kind, unopposed) : undefined;
  return { kind, kindReason: reason, ...optional('actor', build(actor, skills.actor)), ...optional('reactor', build(reactor, skills.reactor)) };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function readAttribute(file: string, text: string): AttributeKey {
  const key = ATTRIBUTE_NAMES.find((a) => same(a, text));
  if (!key) throw new CliError(`${file}: --attribute "${text}": expected one of ${ATTRIBUTE_NAMES.join(', ')} (${CORE} "Attributes")`);
  return key;
}

function buildOne(now: Snapshot, side: Loaded, lookedUp: { found: boolean; name: string }, kind: SideKind, unopposed: boolean): SheetSide {
  const { request, sheet, role } = side;
  const file = request.file;
  const def = side.def;
  // The sheet's own health status sets the injury penalty (personae-core-2011.txt "Injury and Death").
  const status = sheet.health.status;
  if (status === 'dead') throw new CliError(`${file} (health.status): ${def.name} is dead and issues or answers no challenge (${CORE} "Injury and Death")`);
  const who: CharacterState = { ...now.characters[def.id]!, status };

  const named = request.args.attribute !== undefined ? readAttribute(file, request.args.attribute) : undefined;
  if (!lookedUp.found && named === undefined) {
    const near = closestWord(lookedUp.name, def.skills.map((s) => s.name));
    if (near !== undefined) {
      throw new CliError(`${file} (skills): ${def.name} has no skill "${lookedUp.name}"; did you mean "${near}"? (skills on the sheet: ${def.skills.map((s) => s.name).join(', ')})`);
    }
    throw new CliError(
      `${file} (skills): ${def.name} has no skill "${lookedUp.name}", so it rolls unskilled: 1 die and the attribute the action calls for; name it with --attribute (${CORE} "Skills")`,
    );
  }
  // The fallback attribute serves only an unskilled roll, and one was named for it above.
  const skill = skillUse(def, lookedUp.name, named ?? 'competence');
  // An attack with a weapon skill adds the attribute the table's attackAttribute option gives that weapon, as in an encounter.
  const weapon = kind === 'attack' && role === 'issue' && skill.weapon ? findWeapon(def, skill.weapon) : undefined;
  const attribute = named ?? (weapon ? weaponAttribute(now, weapon, skill) : skill.attribute);

  let expertise: { name: string; dice: number } | undefined;
  if (request.args.expertise !== undefined) {
    const talent = def.expertise.find((e) => same(e.name, request.args.expertise!));
    if (!talent) {
      const known = def.expertise.map((e) => e.name);
      throw new CliError(`${file} (talents): ${def.name} has no Expertise talent "${request.args.expertise}"${known.length ? `; it has ${known.join(', ')}` : ''} (${CORE} "Expertise")`);
    }
    expertise = { name: talent.name, dice: talent.dice };
  }
  const modifiers = request.args.modifiers.map(readModifier);

  let built: BuiltSide;
  try {
    built = buildSide(
      now,
      {
        who,
        skill,
        attribute,
        role,
        kind,
        abilities: request.args.abilities,
        ...(expertise ? { expertise } : {}),
        modifiers: modifiers.map((m) => ({ value: m.value, source: `${m.source} (--modifier)` })),
        // personae-core-2011.txt "Armor": armor counts when answering an Attack Challenge.
        answeringAttack: role === 'answer' && kind === 'attack',
      },
      'ability',
    );
    checkOneSpecialAbility(who, built.chosen, 'ability');
  } catch (e) {
    if (e instanceof RuleError) throw abilityError(file, def, request.args.abilities, e);
    throw e;
  }
  const qualities = def.specialAbilities.filter((a) => a.quality && inScope(a.effect, skill.name, kind, role));
  const explanation = explainSide({ sheet, def, who, skill, attribute, named, built, qualities, expertise, modifiers, role, kind, now, unopposed, file });
  return { file, sheet, def, who, skill, attribute, built, qualities: qualities.map((q) => q.name), ...(expertise ? { expertise } : {}), modifiers, explanation };
}

/** A refused special ability as one line: the file, the flag and the sheet's field, the rule. */
function abilityError(file: string, def: Combatant, named: readonly string[], e: RuleError): CliError {
  const at = /\[(\d+)\]$/.exec(e.field ?? '');
  const flag = at ? `--ability "${named[Number(at[1])] ?? ''}"` : '--ability';
  if (e.code === 'unknown-ability') {
    const known = def.specialAbilities.map((a) => a.name);
    return new CliError(`${file} (specialAbilities): ${flag}: ${e.message}${known.length ? `; the sheet lists ${known.join(', ')}` : '; the sheet lists none'}`);
  }
  return new CliError(`${file} (specialAbilities): ${flag}: ${e.message}${e.rule ? ` (${formatCitation(e.rule)})` : ''}`);
}

// ---------------------------------------------------------------------------------------------
// Explanations.

function dice(n: number): string {
  return `${n} ${n === 1 ? 'die' : 'dice'}`;
}

interface ExplainInput {
  readonly sheet: CharacterSheet;
  readonly def: Combatant;
  readonly who: CharacterState;
  readonly skill: SkillUse;
  readonly attribute: AttributeKey;
  readonly named: AttributeKey | undefined;
  readonly built: BuiltSide;
  readonly qualities: readonly CombatantAbility[];
  readonly expertise: { readonly name: string; readonly dice: number } | undefined;
  readonly modifiers: readonly Labeled[];
  readonly role: 'issue' | 'answer';
  readonly kind: SideKind;
  readonly now: Snapshot;
  readonly unopposed: boolean;
  readonly file: string;
}

function explainSide(x: ExplainInput): string[] {
  const { def, skill, role, kind } = x;
  const lines: string[] = [];
  const what = x.unopposed ? 'rolls against the difficulty' : `${role === 'issue' ? 'issues' : 'answers'} the ${kind === 'other' ? '' : `${kind} `}challenge`;
  lines.push(`${def.name} (${x.file}) ${what} with ${skill.name}:`);

  // Dice from the skill.
  if (skill.unskilled) lines.push(`  ${skill.name}: not on the sheet, so unskilled: 1 die (${CORE} "Skills").`);
  else if (isDefenseSkill(skill.name) && !x.sheet.skills.some((s) => same(s.name, skill.name))) {
    lines.push(`  ${skill.name}: ${dice(skill.dice)}, the basic defense everyone has unlocked (${CORE} "Defense").`);
  } else lines.push(`  ${skill.name}: ${dice(skill.dice)}, its rating on the sheet (${CORE} "Skills").`);

  // The attribute.
  const value = def.attributes[x.attribute];
  const label = `${ATTRIBUTE_LABEL[x.attribute]} ${signed(value)}`;
  if (x.named === undefined) lines.push(`  ${label}: the attribute ${skill.name} adds by default (${CORE} "Skills").`);
  else if (skill.unskilled) lines.push(`  ${label}: the attribute named for the unskilled roll (--attribute).`);
  else if (x.named === skill.attribute) lines.push(`  ${label}: named with --attribute, ${skill.name}'s own (${CORE} "Skills").`);
  else lines.push(`  ${label}: named with --attribute instead of ${skill.name}'s ${ATTRIBUTE_LABEL[skill.attribute]}, as the GM may call for (${CORE} "Skills").`);

  // The injury penalty.
  const penalty = x.built.spec.pool.penaltyDice ?? [];
  const status = STATUS_LABEL[x.who.status];
  if (x.who.status === 'unharmed') lines.push(`  Health Unharmed (health.status): no penalty dice.`);
  else if (penalty.length > 0) lines.push(`  Health ${status} (health.status): ${dice(STATUS_PENALTY[x.who.status])} fewer (${CORE} "Injury and Death").`);
  else lines.push(`  Health ${status} (health.status): no penalty outside a violent encounter (option injuryPenaltyLasts = violent-encounters).`);
  if (x.who.status === 'incapacitated' || x.who.status === 'dying') lines.push(`  ${status}, ${def.name} would be unconscious (${CORE} "Injury and Death"); rolled as asked.`);

  // Qualities, always in effect (personae-core-2011.txt "Special Ability Identifiers").
  for (const q of x.qualities) {
    const note = changesRoll(q.effect, role, kind) ? '' : ' (no use on this roll)';
    lines.push(`  ${q.name} (Quality, always in effect): ${effectText(q.effect)}${note} (${CORE} "Special Ability Identifiers").`);
  }

  // The one special ability chosen for the turn (personae-core-2011.txt "Scope of Special Abilities").
  for (const a of x.built.chosen) {
    const note = changesRoll(a.effect, role, kind) ? '' : ' (no use on this roll)';
    lines.push(`  ${a.name} (--ability, its one special ability this turn): ${effectText(a.effect)}${note} (${CORE} "Scope of Special Abilities").`);
  }
  for (const note of x.built.notes) lines.push(`  ${note}`);

  // The rest of the sheet's special abilities: which one could be chosen, and why the others do nothing here.
  const rest = def.specialAbilities.filter((a) => !x.qualities.includes(a) && !x.built.chosen.includes(a));
  const fits = (a: CombatantAbility) => inScope(a.effect, skill.name, kind, role) && changesRoll(a.effect, role, kind);
  const could = x.built.chosen.length === 0 ? rest.filter((a) => !a.quality && fits(a)) : [];
  if (could.length) lines.push(`  Could use one special ability with --ability: ${could.map((a) => `${a.name} (${effectText(a.effect)})`).join('; ')}.`);
  const idle = rest.filter((a) => !could.includes(a));
  if (idle.length) {
    const why = (a: CombatantAbility) => (inScope(a.effect, skill.name, kind, role) ? (changesRoll(a.effect, role, kind) ? 'one special ability a turn' : effectText(a.effect)) : scopeText(effectScope(a.effect)));
    lines.push(`  Not on this roll: ${idle.map((a) => `${a.name}${a.quality ? ' (Quality)' : ''}: ${why(a)}`).join('; ')}.`);
  }

  if (x.expertise) lines.push(`  Expertise ${x.expertise.name} (--expertise): +${dice(x.expertise.dice)} (${CORE} "Expertise").`);
  for (const m of x.modifiers) lines.push(`  ${signed(m.value)} ${m.source} (--modifier): a circumstantial addition (${CORE} "The Challenge").`);
  return lines;
}

/**
 * The words typed after the command's name, in order, flags included: the program's operands and
 * unknown words as commander collected them (it keeps their order), from the command's name on.
 */
export function commandTokens(command: { name(): string; readonly parent: { readonly args: readonly string[] } | null }): string[] {
  const all = command.parent?.args ?? [];
  const at = all.indexOf(command.name());
  return at < 0 ? [] : all.slice(at + 1);
}
