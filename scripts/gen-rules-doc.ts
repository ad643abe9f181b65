import { readFileSync, writeFileSync } from 'node:fs';
import { rulesDoc } from '../packages/rules/src/rules-doc';

const file = new URL('../docs/rules.md', import.meta.url);
writeFileSync(file, rulesDoc(readFileSync(file, 'utf8')));
console.log('wrote docs/rules.md');
