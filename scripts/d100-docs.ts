// Writes the generated d100 docs: docs/d100/options.md and docs/d100/sheet.schema.json.
import { writeFileSync } from 'node:fs';
import { optionsMarkdown, sheetSchemaText } from '@personae/d100';

writeFileSync(new URL('../docs/d100/options.md', import.meta.url), optionsMarkdown());
writeFileSync(new URL('../docs/d100/sheet.schema.json', import.meta.url), sheetSchemaText());
