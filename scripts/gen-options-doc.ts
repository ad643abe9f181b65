import { writeFileSync } from 'node:fs';
import { optionsMarkdown } from '../packages/rules/src/options/doc';

writeFileSync(new URL('../docs/options.md', import.meta.url), optionsMarkdown());
console.log('wrote docs/options.md');
