import { Document, LineCounter, isMap, isNode, isPair, isScalar, parseDocument, stringify, type Node, type YAMLError } from 'yaml';
import type { z } from 'zod';
import { migrateSheet } from './migrate';
import { CharacterSheetSchema, type CharacterSheet, type CharacterSheetInput } from './schema';

/**
 * Reading and writing sheet files (YAML or JSON; JSON is read by the same YAML parser, so both get
 * line numbers). Bad input never throws: it comes back as a message with a line and a field path.
 */

export interface SheetLoadIssue {
  readonly message: string;
  /** 1-based line in the file, when known. */
  readonly line?: number;
  /** Field path such as `attributes.stature` or `skills[2].dice`. */
  readonly path?: string;
}

export interface SheetLoadError extends SheetLoadIssue {
  /** Every problem found (the first is repeated in message, line and path). */
  readonly issues: readonly SheetLoadIssue[];
}

export type SheetLoadResult =
  | { ok: true; sheet: CharacterSheet; migratedFrom?: number }
  | { ok: false; error: SheetLoadError };

/** `skills[2].dice` */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

function lineOf(doc: Document, counter: LineCounter, path: readonly PropertyKey[], key?: string): number | undefined {
  // Walk down as far as the path exists: a missing field is reported at its parent.
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth) as unknown[], true);
    if (!isNode(node)) continue;
    if (key !== undefined && depth === path.length && isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === key);
      const keyNode = pair?.key as Node | undefined;
      if (keyNode?.range) return counter.linePos(keyNode.range[0]).line;
    }
    if (node.range) return counter.linePos(node.range[0]).line;
  }
  return undefined;
}

/** Whether the raw data has a value at the path, and what it is. */
function valueAt(raw: unknown, path: readonly PropertyKey[]): { found: boolean; value?: unknown } {
  let here: unknown = raw;
  for (const key of path) {
    if (here === null || typeof here !== 'object' || !(key in (here as object))) return { found: false };
    here = (here as Record<PropertyKey, unknown>)[key];
  }
  return { found: true, value: here };
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `the text ${JSON.stringify(value)}`;
  return `${typeof value} ${String(value)}`;
}

function describeIssue(issue: z.core.$ZodIssue, raw: unknown): { message: string; key?: string } {
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `"${k}"`).join(', ');
    return { message: `unknown key${issue.keys.length > 1 ? 's' : ''} ${keys}`, key: issue.keys[0]! };
  }
  if (issue.code === 'invalid_type') {
    const at = valueAt(raw, issue.path);
    if (!at.found || at.value === undefined) return { message: `missing required field (expected ${issue.expected})` };
    return { message: `expected ${issue.expected}, found ${typeName(at.value)}` };
  }
  return { message: issue.message.replace(/^Invalid input: /, '') };
}

function fail(issues: SheetLoadIssue[], filename: string): { ok: false; error: SheetLoadError } {
  const first = issues[0]!;
  const where = (i: SheetLoadIssue) => [i.line !== undefined ? `line ${i.line}` : '', i.path ? i.path : ''].filter(Boolean).join(', ');
  const lines = issues.slice(0, 12).map((i) => (where(i) ? `${filename} (${where(i)}): ${i.message}` : `${filename}: ${i.message}`));
  if (issues.length > 12) lines.push(`... and ${issues.length - 12} more`);
  return {
    ok: false,
    error: {
      message: lines.join('\n'),
      ...(first.line !== undefined ? { line: first.line } : {}),
      ...(first.path !== undefined ? { path: first.path } : {}),
      issues,
    },
  };
}

/**
 * The syntax errors of a YAML or JSON file as one-line issues. Tabs used for indentation are named as
 * one issue listing their lines, without the errors that follow from them: YAML indents with spaces only.
 */
export function syntaxIssues(errors: readonly YAMLError[], filename: string): { message: string; line?: number }[] {
  const tabLines = errors.filter((e) => e.code === 'TAB_AS_INDENT').map((e) => e.linePos?.[0].line);
  if (tabLines.length > 0) {
    const lines = [...new Set(tabLines.filter((l): l is number => l !== undefined))];
    const where = lines.length === 0 ? 'a line' : lines.length === 1 ? `line ${lines[0]}` : `lines ${lines.slice(0, 8).join(', ')}${lines.length > 8 ? ', ...' : ''}`;
    return [
      {
        message: `${where} ${lines.length > 1 ? 'are' : 'is'} indented with a tab character, but YAML indents with spaces only: replace each tab at the start of a line with spaces`,
        ...(lines[0] !== undefined ? { line: lines[0] } : {}),
      },
    ];
  }
  return errors.map((e) => ({
    message: `${filename.endsWith('.json') ? 'JSON' : 'YAML'} syntax error: ${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
    ...(e.linePos ? { line: e.linePos[0].line } : {}),
  }));
}

/** Read a sheet from YAML or JSON text: parse, migrate to the current version, validate. */
export function loadSheet(text: string, filename = 'sheet'): SheetLoadResult {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length > 0) return fail(syntaxIssues(doc.errors, filename), filename);
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    return fail([{ message: `the file cannot be read: ${(e as Error).message}` }], filename);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return fail([{ message: 'the file does not hold a character sheet: expected keys such as name, concept, attributes and priorities', line: 1 }], filename);
  }
  if ('characters' in raw && !('attributes' in raw)) {
    return fail([{ message: 'this is a scenario, not a character sheet: a sheet has keys such as name, concept, attributes and priorities (docs/characters.md); replay a scenario with "personae replay"', line: 1 }], filename);
  }
  const migrated = migrateSheet(raw as Record<string, unknown>);
  if (!migrated.ok) {
    const line = lineOf(doc, counter, ['version']);
    return fail([{ message: migrated.message, path: 'version', ...(line !== undefined ? { line } : {}) }], filename);
  }
  const parsed = CharacterSheetSchema.safeParse(migrated.value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => {
      const { message, key } = describeIssue(issue, migrated.value);
      const line = lineOf(doc, counter, issue.path, key);
      return { message, path: formatPath(issue.path) || '(top level)', ...(line !== undefined ? { line } : {}) };
    });
    return fail(issues, filename);
  }
  return { ok: true, sheet: parsed.data, ...(migrated.from !== parsed.data.version ? { migratedFrom: migrated.from } : {}) };
}

// ---------------------------------------------------------------------------------------------
// Writing. Fields left at their defaults are left out, so that written sheets stay short.

function isEmpty(v: unknown): boolean {
  return Array.isArray(v) && v.length === 0;
}

function dropDefaults(obj: Record<string, unknown>, defaults: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined || isEmpty(v)) continue;
    if (k in defaults && JSON.stringify(defaults[k]) === JSON.stringify(v)) continue;
    out[k] = v;
  }
  return out;
}

const ABILITY_DEFAULTS = { culture: false, quality: false, upgrades: 0, effect: { type: 'described' } };
const TALENT_DEFAULTS = { native: false, uses: 1, dice: 1, resourceCap: 1 };
const POWER_DEFAULTS = { targets: 1, hits: 0, upgrades: 0 };
const SHEET_DEFAULTS = { role: 'main', criticals: 0, health: { hits: 0, status: 'unharmed' } };

function compactBase(sheet: Record<string, unknown>): Record<string, unknown> {
  const s = sheet as unknown as CharacterSheet;
  const out = dropDefaults(sheet, SHEET_DEFAULTS);
  if (s.talents?.length) out.talents = s.talents.map((t) => dropDefaults(t, TALENT_DEFAULTS));
  if (s.specialAbilities?.length) out.specialAbilities = s.specialAbilities.map((a) => dropDefaults(a, ABILITY_DEFAULTS));
  if (s.powers?.length) out.powers = s.powers.map((p) => dropDefaults(p, POWER_DEFAULTS));
  return out;
}

/** The sheet as it would be written: the same data, fields at their defaults left out. */
export function compactSheet(sheet: CharacterSheet): CharacterSheetInput {
  const out = compactBase(sheet as unknown as Record<string, unknown>);
  if (sheet.companions.length) out.companions = sheet.companions.map((c) => compactBase(c as unknown as Record<string, unknown>));
  return out as unknown as CharacterSheetInput;
}

export function sheetToYaml(sheet: CharacterSheet): string {
  return stringify(compactSheet(sheet), { lineWidth: 100 });
}

export function sheetToJson(sheet: CharacterSheet): string {
  return `${JSON.stringify(compactSheet(sheet), null, 2)}\n`;
}
