import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { findRuleset, formatCitation, registeredRulesets } from '@personae/core';
import { parse as parseYaml } from 'yaml';
import { CliError, type CliIo } from '../io.js';

/**
 * `personae sheet check` for a sheet of another registered ruleset: a sheet file naming its ruleset
 * (`ruleset: d100`) is checked by that ruleset's own sheet check, with its default options. Returns
 * false for a Personae sheet (no ruleset key, or `personae`), which the Personae path checks.
 */
export async function checkOtherRulesetSheet(file: string, json: boolean, io: CliIo, codes: { legal: number; illegal: number }): Promise<boolean> {
  let raw: unknown;
  try {
    raw = parseYaml(await readFile(file, 'utf8')) as unknown;
  } catch {
    return false; // the Personae path reports an unreadable file with its line
  }
  const id = raw !== null && typeof raw === 'object' ? (raw as { ruleset?: unknown }).ruleset : undefined;
  if (id === undefined || id === 'personae') return false;
  // The rulesets register themselves when loaded; they load only for a sheet that needs them.
  await Promise.all([import('@personae/d100'), import('@personae/lucidity')]);
  const ruleset = typeof id === 'string' ? findRuleset(id) : undefined;
  if (!ruleset) {
    const known = registeredRulesets().map((r) => r.id).join(', ');
    throw new CliError(`${basename(file)}: ruleset ${JSON.stringify(id)} is not one this program knows; known rulesets: ${known}`);
  }
  const result = ruleset.sheet.check(raw, ruleset.resolveOptions());
  if (json) {
    const problems = result.ok ? [] : result.problems;
    const shown = problems.map((p) => ({ field: p.field, message: p.message, ...(p.value !== undefined ? { value: p.value } : {}), ...(p.rule ? { rule: formatCitation(p.rule) } : {}) }));
    io.stdout(`${JSON.stringify({ ruleset: ruleset.id, valid: result.ok, errors: shown, derived: result.ok ? result.derived : null }, null, 2)}\n`);
  } else if (result.ok) {
    io.stdout(`${basename(file)}: a legal ${ruleset.title} sheet\n`);
    for (const w of result.warnings) io.stdout(`  note: ${w.field}: ${w.message}\n`);
  } else {
    for (const p of result.problems) {
      // Some rulesets' messages already start with the field or name the value: neither is said twice.
      const where = p.message.startsWith(`${p.field}:`) ? '' : `${p.field}: `;
      const value = p.value === undefined ? '' : JSON.stringify(p.value);
      const found = value && !p.message.includes(value) ? ` (found ${value})` : '';
      io.stdout(`${basename(file)}: ${where}${p.message}${found}${p.rule ? ` [${formatCitation(p.rule)}]` : ''}\n`);
    }
  }
  io.setExitCode(result.ok ? codes.legal : codes.illegal);
  return true;
}
