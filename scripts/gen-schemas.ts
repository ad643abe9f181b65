// Writes the published JSON Schemas under docs/ from the zod schemas that validate the files.
// Run: node --import tsx scripts/gen-schemas.ts   (a test fails when a committed file is stale)
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { characterSheetJsonSchema } from '../packages/rules/src/character/schema';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Each published schema: the file under docs/ and the function that generates its content. */
export const SCHEMAS: readonly { file: string; generate: () => unknown }[] = [
  { file: 'docs/character-sheet.schema.json', generate: characterSheetJsonSchema },
];

export function render(schema: unknown): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const { file, generate } of SCHEMAS) {
    writeFileSync(join(root, file), render(generate()));
    console.log(`wrote ${file}`);
  }
}
