import { CHARACTER_RULE_NAMES, CHARACTER_RULES } from './character';
import { encounterSectionsMarkdown } from './encounter';

/**
 * The parts of docs/rules.md written from the registries: every character rule by name, and every
 * section the encounter cites. `scripts/gen-rules-doc.ts` writes them; a test fails when the file
 * differs from what the registries give.
 */

export function characterRulesMarkdown(): string {
  const rows = CHARACTER_RULE_NAMES.map((name) => {
    const { source, summary, when } = CHARACTER_RULES[name];
    return `| \`${name}\` | ${when} | \`${source.document}\` "${source.section}" | ${summary} |`;
  });
  return ['| rule | checked | document, section | what it requires |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

const BLOCKS: readonly { readonly name: string; readonly heading: string; readonly markdown: () => string }[] = [
  { name: 'character rules', heading: 'Character rules by name', markdown: characterRulesMarkdown },
  { name: 'encounter sections', heading: 'Sections the encounter cites', markdown: encounterSectionsMarkdown },
];

const start = (name: string) => `<!-- generated from the registry: ${name} (node --import tsx scripts/gen-rules-doc.ts) -->`;
const end = (name: string) => `<!-- end of generated ${name} -->`;

/** `doc` with each generated part as the registries give it now (a part not there yet is added at the end). */
export function rulesDoc(doc: string): string {
  let out = doc;
  for (const block of BLOCKS) {
    const text = `${start(block.name)}\n${block.markdown()}\n${end(block.name)}`;
    const at = out.indexOf(start(block.name));
    const stop = out.indexOf(end(block.name));
    out = at >= 0 && stop > at ? out.slice(0, at) + text + out.slice(stop + end(block.name).length) : `${out.trimEnd()}\n\n## ${block.heading}\n\n${text}\n`;
  }
  return out;
}
