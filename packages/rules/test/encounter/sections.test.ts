import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encounterSectionsMarkdown } from '../../src/index';

const FILE = new URL('../../../../docs/rules.md', import.meta.url);
const START = '<!-- generated: encounter sections (UPDATE=1 npx vitest run packages/rules/test/encounter/sections.test.ts) -->';
const END = '<!-- end of generated encounter sections -->';

describe('the encounter\'s citations (src/encounter/sections.ts)', () => {
  it('docs/rules.md lists every section the encounter cites, generated from the registry', () => {
    const doc = readFileSync(FILE, 'utf8');
    const block = `${START}\n${encounterSectionsMarkdown()}\n${END}`;
    const at = doc.indexOf(START);
    const end = doc.indexOf(END);
    const current = at >= 0 && end > at ? doc.slice(at, end + END.length) : null;
    if (process.env.UPDATE) {
      writeFileSync(FILE, current ? doc.replace(current, block) : `${doc.trimEnd()}\n\n## Sections the encounter cites\n\n${block}\n`);
      return;
    }
    expect(current, 'run with UPDATE=1 to write the generated part of docs/rules.md').toBe(block);
  });
});
