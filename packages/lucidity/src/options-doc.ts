import { openPointsMarkdown } from './open-points';
import { OPTION_DEFINITIONS, OPTION_NAMES, PRESETS, presetOverrides } from './options';

/** docs/lucidity/options.md, written from the option definitions so the two cannot drift apart. */
export function optionsMarkdown(): string {
  const lines = [
    '# Lucidity table options',
    '',
    'Every place where `lucidity-primary-character.txt` contradicts itself, and every point it leaves open',
    'that has more than one workable reading, is a typed option (the last section lists every open term',
    'and how it is treated). A table starts from a preset and may set any option (`--option NAME=VALUE` on the',
    'command line). `standard` takes the default of every option; `as-written` reads the contradictions',
    'word for word where the text allows it.',
    '',
    'This page is generated from `packages/lucidity/src/options.ts` (`optionsMarkdown()`); a test fails when',
    'it is out of date.',
    '',
    `| option | values | ${PRESETS.join(' | ')} | seed section |`,
    `| --- | --- | ${PRESETS.map(() => '---').join(' | ')} | --- |`,
  ];
  for (const name of OPTION_NAMES) {
    const def = OPTION_DEFINITIONS[name];
    const values = def.kind === 'enum' ? def.values.map((v) => `\`${v}\``).join(', ') : def.kind === 'integer' ? `${def.min} to ${def.max}` : '`true`, `false`';
    const perPreset = PRESETS.map((p) => `\`${String((presetOverrides(p) as Record<string, unknown>)[name] ?? def.default)}\``);
    lines.push(`| \`${name}\` | ${values} | ${perPreset.join(' | ')} | ${def.section} |`);
  }
  const topics = [...new Set(OPTION_NAMES.map((n) => OPTION_DEFINITIONS[n].topic))];
  for (const topic of topics) {
    lines.push('', `## ${topic}`);
    for (const name of OPTION_NAMES.filter((n) => OPTION_DEFINITIONS[n].topic === topic)) {
      const def = OPTION_DEFINITIONS[name];
      lines.push('', `### \`${name}\`: ${def.title}`, '', def.description, '', `Default \`${String(def.default)}\`; seed section "${def.section}".`);
    }
  }
  lines.push('', ...openPointsMarkdown());
  return lines.join('\n') + '\n';
}
