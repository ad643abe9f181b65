import { allowedValues, OPTION_DEFINITIONS, PRESETS } from './options';

/** docs/options.md, written from the option definitions so the two cannot drift apart. */
export function optionsMarkdown(): string {
  const lines: string[] = [
    '# Table options',
    '',
    'Every point the Personae documents leave to the group, and every point where they disagree, is a',
    'typed table option. A table starts from a preset and may set any option differently',
    '(`--rules srd-v4 --option fullTie=reactor` on the command line). Presets: `core-2011` follows',
    'personae-core-2011.txt; `srd-v4` follows personae-v4-srd-playing.txt where it speaks and the 2011',
    'rules elsewhere. Values named `web` come from personae-playing-web.txt.',
    '',
    'This page is generated from `packages/rules/src/options/options.ts` by',
    '`node --import tsx scripts/gen-options-doc.ts`; a test fails when it is out of date.',
    '',
    '| option | values | core-2011 | srd-v4 |',
    '| --- | --- | --- | --- |',
  ];
  const entries = Object.entries(OPTION_DEFINITIONS);
  for (const [name, def] of entries) {
    const allowed = allowedValues(def.schema);
    const values = allowed ? allowed.map((v) => `\`${String(v)}\``).join(', ') : typeOf(def.defaults['core-2011']);
    lines.push(`| [\`${name}\`](#${name.toLowerCase()}) | ${values} | ${PRESETS.map((p) => `\`${JSON.stringify(def.defaults[p])}\``).join(' | ')} |`);
  }
  for (const [name, def] of entries) {
    lines.push('', `## ${name}`, '', def.summary, '');
    if (def.values) {
      for (const [value, meaning] of Object.entries(def.values)) lines.push(`- \`${value}\`: ${meaning}`);
      lines.push('');
    }
    lines.push(`Defaults: ${PRESETS.map((p) => `${p} \`${JSON.stringify(def.defaults[p])}\``).join(', ')}.`, '');
    lines.push(`Sources: ${def.sources.join('; ')}.`);
  }
  return lines.join('\n') + '\n';
}

function typeOf(value: unknown): string {
  if (typeof value === 'boolean') return '`true`, `false`';
  if (value === null) return 'whole number or `null`';
  if (typeof value === 'number') return 'whole number';
  return 'text';
}
