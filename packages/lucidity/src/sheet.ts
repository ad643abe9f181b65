import { z } from 'zod';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { Problem, SheetCheck } from '@personae/core';
import { maxLevel, levelForXp } from './advancement';
import { ATTRIBUTES, isStandardArray, MAX_MODIFIER, MAX_SCORE, MIN_MODIFIER, MIN_SCORE, scoreModifier, STANDARD_ARRAY, type Attribute, type Attributes } from './attributes';
import { seed } from './citation';
import { derive, type Derived } from './derived';
import { resolveOptions, type LucidityOptions } from './options';
import { isTraitName, TRAIT_NAMES } from './traits';

const modifierValue = z.number().int().min(MIN_MODIFIER).max(MAX_MODIFIER);
const attributeRecord = <T extends z.ZodType>(value: T) => z.object(Object.fromEntries(ATTRIBUTES.map((a) => [a, value])) as Record<Attribute, T>).strict();
const attributeName = z.enum(ATTRIBUTES);

const WeaponSchema = z
  .object({
    damage: z.string().regex(/^\s*(\d*d\d+|\d+)(\s*[+-]\s*(\d*d\d+|\d+))*\s*$/i, 'a damage expression such as 1d8+2'),
    attribute: z.enum(['STR', 'DEX']).default('STR').describe('STR for melee ("STR attacks"), DEX for ranged ("DEX attacks")'),
    skill: z.string().min(1).optional().describe('the skill whose rank the attack adds (Swords, Bows, ...)'),
    kind: z.enum(['melee', 'ranged']).default('melee'),
    penetration: z.number().int().min(0).max(20).default(0),
    protection: z.number().int().min(0).max(20).default(0).describe('Protection the weapon gives (Defender shares it)'),
    hands: z.union([z.literal(1), z.literal(2), z.literal('massive')]).default(1),
    improvised: z.boolean().default(false),
  })
  .strict();

const ItemSchema = z
  .object({
    name: z.string().min(1),
    slots: z.number().int().min(0).max(20).optional().describe('item slots it takes: 1 by default, 2 for an item that needs two hands'),
    count: z.number().int().min(1).max(10000).default(1),
    designated: z.boolean().default(false).describe('one of the items the character can freely swap between'),
    consumable: z.boolean().optional(),
    magic: z.boolean().optional(),
    weapon: WeaponSchema.optional(),
    armor: z.object({ protection: z.number().int().min(0).max(20) }).strict().optional(),
    shield: z.object({ protection: z.number().int().min(0).max(20) }).strict().optional(),
  })
  .strict();

const CustomTraitSchema = z
  .object({ name: z.string().min(1), custom: z.literal(true), effect: z.string().min(1).describe('what the trait does, as the GM approved it') })
  .strict();

const SpellSchema = z
  .object({ name: z.string().min(1), energyCost: z.number().int().min(0).max(100), castingTimeRounds: z.number().int().min(0).max(100).default(0), effect: z.string().default('') })
  .strict();

const InjurySchema = z
  .object({ kind: z.enum(['minor-wound', 'wound', 'major-wound', 'disability']), note: z.string().optional() })
  .strict();

/** The Lucidity character sheet (YAML or JSON). Attributes are the modifiers in force now (-3..+3). */
export const LuciditySheetSchema = z
  .object({
    ruleset: z.literal('lucidity').optional(),
    name: z.string().min(1).max(200),
    player: z.string().optional(),
    level: z.number().int().min(1).max(20).default(1),
    xp: z.number().int().min(0).max(1_000_000).optional(),
    attributes: attributeRecord(modifierValue),
    creation: z
      .discriminatedUnion('method', [
        z.object({ method: z.literal('standard-array') }).strict(),
        z.object({ method: z.literal('rolled'), scores: attributeRecord(z.number().int().min(MIN_SCORE).max(MAX_SCORE)) }).strict(),
      ])
      .optional()
      .describe('how the attributes were made: the standard array, or 4d6-drop-lowest scores'),
    advancement: z
      .array(z.object({ level: z.number().int().min(2).max(20), attribute: attributeName }).strict())
      .optional()
      .describe('the attribute raised at each level gained, from level 2'),
    traits: z.array(z.union([z.string().min(1), CustomTraitSchema])),
    skills: z.record(z.string().min(1), z.number().int()).default({}).describe('skill name -> rank 1..5'),
    armorSkills: z.array(z.string().min(1)).default([]).describe('Armor skills (no ranks)'),
    languages: z.array(z.string().min(1)).default([]).describe('Language skills (no ranks)'),
    items: z.array(ItemSchema).default([]),
    coins: z.number().int().min(0).default(0),
    arrows: z.number().int().min(0).default(0),
    current: z.object({ health: z.number().int().min(0), lucidity: z.number().int().min(0), energy: z.number().int().min(0) }).partial().strict().optional(),
    spells: z.array(SpellSchema).default([]),
    injuries: z.array(InjurySchema).default([]),
    notes: z.string().optional(),
  })
  .strict();

export type LuciditySheet = z.infer<typeof LuciditySheetSchema>;
export type LuciditySheetInput = z.input<typeof LuciditySheetSchema>;

export interface SheetDerived extends Derived {
  readonly level: number;
  readonly itemSlotsUsed: number;
  readonly designatedInUse: number;
  readonly protection: number;
  readonly skillPointsUsed: number;
  readonly startingAttributes: Attributes | null;
  readonly current: { readonly health: number; readonly lucidity: number; readonly energy: number };
}

/** The sheet's JSON Schema (published as docs/lucidity/sheet.schema.json). */
export function sheetJsonSchema(): object {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://personae.table/schemas/lucidity-sheet.json',
    title: 'Lucidity character sheet',
    description: 'A character of the Lucidity d20 rules (lucidity-primary-character.txt, "Creating a Primary Character").',
    ...(z.toJSONSchema(LuciditySheetSchema, { io: 'input' }) as Record<string, unknown>),
  };
}

export function traitNames(sheet: Pick<LuciditySheet, 'traits'>): string[] {
  return sheet.traits.map((t) => (typeof t === 'string' ? t : t.name));
}

/** Item slots an item takes ("Item Slots"): 1, 2 for two hands, or what the sheet says; times its count. */
export function itemSlotCost(item: LuciditySheet['items'][number]): number {
  const each = item.slots ?? (item.weapon && item.weapon.hands !== 1 ? 2 : 1);
  return each * item.count;
}

/** Attributes after the level-ups undone, oldest first: [level 1, level 2, ...]. */
function attributeHistory(sheet: LuciditySheet): Attributes[] | null {
  if (!sheet.advancement) return sheet.level === 1 ? [sheet.attributes] : null;
  const raises = [...sheet.advancement].sort((a, b) => a.level - b.level);
  const start: Record<Attribute, number> = { ...sheet.attributes };
  for (const r of raises) start[r.attribute] -= 1;
  const history: Attributes[] = [{ ...start }];
  const now = { ...start };
  for (const r of raises) {
    now[r.attribute] += 1;
    history.push({ ...now });
  }
  return history;
}

/** Problems with level, XP and the advancement list; true when the advancement list can be trusted. */
function levelProblems(sheet: LuciditySheet, opts: LucidityOptions, problems: Problem[], warnings: Problem[]): boolean {
  const adv = seed('Advancement');
  if (sheet.level > maxLevel(opts)) problems.push({ field: 'level', value: sheet.level, message: `level ${sheet.level} is above ${maxLevel(opts)}, the highest level the XP table has (option levelsAbove6=${opts.levelsAbove6})`, rule: adv });
  if (sheet.xp !== undefined) {
    const reached = levelForXp(sheet.xp, opts);
    if (sheet.level > reached) problems.push({ field: 'level', value: sheet.level, message: `level ${sheet.level} needs more XP than ${sheet.xp} (that XP reaches level ${reached})`, rule: adv });
    else if (sheet.level < reached) warnings.push({ field: 'level', value: sheet.level, message: `${sheet.xp} XP reaches level ${reached}: the character may level up`, rule: adv });
  }
  if (!sheet.advancement) {
    if (sheet.level > 1) warnings.push({ field: 'advancement', message: `a level ${sheet.level} character without its advancement list: the level-ups and the starting attributes cannot be checked`, rule: adv });
    return true;
  }
  const levels = sheet.advancement.map((a) => a.level).sort((a, b) => a - b);
  const want = Array.from({ length: sheet.level - 1 }, (_, i) => i + 2);
  if (levels.join(',') !== want.join(',')) {
    problems.push({ field: 'advancement', value: levels, message: `a level ${sheet.level} character has one raise for each level from 2 to ${sheet.level} (${want.join(', ') || 'none'}), not ${levels.join(', ') || 'none'}`, rule: adv });
    return false;
  }
  return true;
}

function creationProblems(sheet: LuciditySheet, history: Attributes[] | null, problems: Problem[], warnings: Problem[]): void {
  const gen = seed('Generating Attributes');
  if (!history) return;
  const start = history[0]!;
  for (const a of ATTRIBUTES) {
    if (start[a] < MIN_MODIFIER) problems.push({ field: `attributes.${a}`, value: sheet.attributes[a], message: `${a} ${sheet.attributes[a]} less its level-up raises is ${start[a]}, below ${MIN_MODIFIER}`, rule: gen });
  }
  // A raise cannot bring an attribute above +3 ("Advancement"): the schema already holds every attribute at +3 or less.
  if (!sheet.creation) {
    warnings.push({ field: 'creation', message: 'no creation method given: the starting attributes are not checked against the standard array or rolled scores', rule: gen });
    return;
  }
  if (sheet.creation.method === 'standard-array') {
    const mods = ATTRIBUTES.map((a) => start[a]);
    if (!isStandardArray(mods)) {
      problems.push({
        field: 'attributes',
        value: Object.fromEntries(ATTRIBUTES.map((a) => [a, start[a]])),
        message: `the starting attributes ${ATTRIBUTES.map((a) => `${a} ${start[a]}`).join(', ')} are not the standard array ${STANDARD_ARRAY.join(', ')} in some order`,
        rule: gen,
      });
    }
    return;
  }
  for (const a of ATTRIBUTES) {
    const score = sheet.creation.scores[a];
    const mod = scoreModifier(score);
    if (mod !== start[a]) problems.push({ field: `attributes.${a}`, value: start[a], message: `${a} starts at ${start[a]} but the rolled score ${score} gives ${mod >= 0 ? '+' : ''}${mod}`, rule: gen });
  }
}

function traitProblems(sheet: LuciditySheet, opts: LucidityOptions, problems: Problem[]): void {
  const rule = seed('Creating Traits');
  const names = traitNames(sheet);
  if (names.length !== opts.traitCount) problems.push({ field: 'traits', value: names.length, message: `a character has ${opts.traitCount} traits, not ${names.length}`, rule });
  const seen = new Set<string>();
  sheet.traits.forEach((t, i) => {
    const name = typeof t === 'string' ? t : t.name;
    if (seen.has(name.toLowerCase())) problems.push({ field: `traits.${i}`, value: name, message: `trait "${name}" is listed twice; traits are unique`, rule });
    seen.add(name.toLowerCase());
    if (typeof t === 'string') {
      if (!isTraitName(t)) {
        const near = TRAIT_NAMES.find((n) => n.toLowerCase() === t.toLowerCase());
        problems.push({
          field: `traits.${i}`,
          value: t,
          message: near ? `unknown trait "${t}"; did you mean "${near}"?` : `unknown trait "${t}"; the seed's traits are ${TRAIT_NAMES.join(', ')} (a custom trait is written {name, custom: true, effect})`,
          rule,
        });
      }
    } else if (!opts.customTraits) {
      problems.push({ field: `traits.${i}`, value: t.name, message: `custom trait "${t.name}" is not allowed at this table (option customTraits=false)`, rule });
    } else if (isTraitName(t.name)) {
      problems.push({ field: `traits.${i}`, value: t.name, message: `"${t.name}" is one of the seed's traits: write it by name, not as a custom trait`, rule });
    }
  });
}

function skillProblems(sheet: LuciditySheet, opts: LucidityOptions, problems: Problem[]): number {
  const rule = seed('Creating Skills');
  let used = 0;
  for (const [name, rank] of Object.entries(sheet.skills)) {
    if (rank < 1 || rank > 5) problems.push({ field: `skills.${name}`, value: rank, message: `skill ${name} has rank ${rank}; ranks run from 1 to 5`, rule });
    if (/^(armor|language)\b/i.test(name)) problems.push({ field: `skills.${name}`, value: rank, message: `${name}: Armor and Language skills have no ranks; list them under armorSkills or languages`, rule });
    used += rank;
  }
  if (used > opts.skillPoints) problems.push({ field: 'skills', value: used, message: `the skill ranks add up to ${used}, more than the ${opts.skillPoints} skill points a character has`, rule });
  return used;
}

/** Turns zod's issues into problems naming the field, the value found and the sheet rule. */
function schemaProblems(error: z.ZodError, raw: unknown): Problem[] {
  return error.issues.map((issue) => {
    const field = issue.path.map(String).join('.') || 'sheet';
    let value: unknown = raw;
    for (const key of issue.path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key as PropertyKey] : undefined;
    const message =
      issue.code === 'unrecognized_keys'
        ? `unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`
        : value === undefined && issue.code === 'invalid_type'
          ? `${field} is missing`
          : `${field}: ${issue.message}, not ${JSON.stringify(value)}`;
    const first = String(issue.path[0] ?? '');
    const section = first === 'attributes' ? 'Generating Attributes' : first === 'traits' ? 'Creating Traits' : first === 'skills' ? 'Creating Skills' : first === 'items' ? 'Item Slots' : first === 'level' || first === 'xp' ? 'Advancement' : 'Creating a Primary Character';
    return { field, message, ...(value !== undefined ? { value } : {}), rule: seed(section) };
  });
}

/**
 * Checks a parsed sheet against the rules of "Creating a Primary Character" and derives its values.
 * Every problem names the field, the value and the rule.
 */
export function checkSheet(raw: unknown, opts: LucidityOptions = resolveOptions()): SheetCheck<LuciditySheet, SheetDerived> {
  const parsed = LuciditySheetSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, problems: schemaProblems(parsed.error, raw) };
  const sheet = parsed.data;
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const advancementOk = levelProblems(sheet, opts, problems, warnings);
  const history = advancementOk ? attributeHistory(sheet) : null;
  creationProblems(sheet, history, problems, warnings);
  traitProblems(sheet, opts, problems);
  const skillPointsUsed = skillProblems(sheet, opts, problems);
  const traits = traitNames(sheet);
  const derived = derive({ level: sheet.level, attributes: sheet.attributes, traits, ...(history && history.length === sheet.level ? { history } : {}) }, opts);
  const slotsRule = seed('Item Slots');
  const itemSlotsUsed = sheet.items.reduce((s, i) => s + itemSlotCost(i), 0) + Math.ceil(sheet.coins / 500) + Math.ceil(sheet.arrows / 20);
  if (itemSlotsUsed > derived.itemSlots) problems.push({ field: 'items', value: itemSlotsUsed, message: `the items, coins and arrows take ${itemSlotsUsed} item slots; the character has ${derived.itemSlots} (18 + STR${traits.includes('Hunk') ? ' + Hunk' : ''})`, rule: slotsRule });
  const designatedInUse = sheet.items.filter((i) => i.designated).length;
  if (designatedInUse > derived.designatedItems) problems.push({ field: 'items', value: designatedInUse, message: `${designatedInUse} designated items; the character may have ${derived.designatedItems} (2 + DEX, at least 1${traits.includes('Organized') ? ', + 2 Organized' : ''})`, rule: slotsRule });
  const protection = sheet.items.reduce((s, i) => s + (i.armor?.protection ?? 0) + (i.shield?.protection ?? 0), 0);
  const current = { health: sheet.current?.health ?? derived.maxHealth, lucidity: sheet.current?.lucidity ?? derived.maxLucidity, energy: sheet.current?.energy ?? derived.maxEnergy };
  const maxes = { health: derived.maxHealth, lucidity: derived.maxLucidity, energy: derived.maxEnergy } as const;
  for (const k of ['health', 'lucidity', 'energy'] as const) {
    if (current[k] > maxes[k]) problems.push({ field: `current.${k}`, value: current[k], message: `current ${k} ${current[k]} is above its maximum ${maxes[k]}`, rule: seed(k === 'health' ? 'Maximum Health' : k === 'energy' ? 'Maximum Energy' : 'Lucidity') });
  }
  if (problems.length) return { ok: false, problems };
  return {
    ok: true,
    sheet,
    derived: { ...derived, level: sheet.level, itemSlotsUsed, designatedInUse, protection, skillPointsUsed, startingAttributes: history ? history[0]! : null, current },
    warnings,
  };
}

export type SheetText = { ok: true; raw: unknown } | { ok: false; problem: Problem };

/** Reads YAML or JSON text; a syntax error names the line. */
export function parseSheetText(text: string, name = 'sheet'): SheetText {
  try {
    return { ok: true, raw: parseYaml(text, { prettyErrors: true, uniqueKeys: true }) };
  } catch (e) {
    const line = e instanceof YAMLParseError ? e.linePos?.[0]?.line : undefined;
    return { ok: false, problem: { field: 'sheet', message: `${name}${line !== undefined ? ` line ${line}` : ''}: not YAML or JSON: ${(e as Error).message.split('\n')[0]}` } };
  }
}
