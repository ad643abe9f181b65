import { openPointsMarkdown } from './open-points';
import { OPTION_NAMES, OPTION_SPECS } from './options';
import { sheetJsonSchema } from './sheet';

/** docs/d100/options.md, generated from the option table so the two cannot drift apart. */
export function optionsMarkdown(): string {
  const lines = [
    '# d100 table options',
    '',
    'Generated from `packages/d100/src/options.ts` (`npx tsx scripts/d100-docs.ts`). Every point the seed',
    '(`d100-combat-rules.txt`) leaves undefined or says two ways is a table option. Set them with',
    '`--option NAME=VALUE` on the CLI, `options:` in a scenario file, or the `set-options` command at a',
    'table. "settles" names the point of the rule inventory (`shared/notes/rulesets/d100-combat.md`):',
    'U for an undefined term, C for a contradiction, D for a rule whose number a group may change.',
    '',
    'Presets: `seed` (the defaults below), `ffg-margin` (`degrees=margin`, `hitLocation=reversed-attack-roll`),',
    '`ffg-tens-plus-one` (`degrees=tens-digit-plus-one`, `hitLocation=reversed-attack-roll`).',
    '',
  ];
  for (const name of OPTION_NAMES) {
    const s = OPTION_SPECS[name] as { title: string; description: string; settles: string; default: unknown; source: { section: string }; values?: Record<string, string>; kind: string; min?: number; max?: number };
    lines.push(`## \`${name}\` (settles ${s.settles})`, '', `${s.title}. ${s.description} Seed section: "${s.source.section}". Default: \`${String(s.default)}\`.`, '');
    if (s.values) for (const [v, d] of Object.entries(s.values)) lines.push(`- \`${v}\`: ${d}`);
    else if (s.kind === 'integer') lines.push(`A whole number from ${s.min} to ${s.max}.`);
    else lines.push('`true` or `false`.');
    lines.push('');
  }
  lines.push(...openPointsMarkdown(), '');
  return lines.join('\n');
}

/** docs/d100/sheet.schema.json. */
export function sheetSchemaText(): string {
  return `${JSON.stringify(sheetJsonSchema(), null, 2)}\n`;
}
