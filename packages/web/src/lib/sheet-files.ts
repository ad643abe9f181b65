import type { CharacterSheet } from './rules';

/**
 * Sheet files in and out. The YAML reader and writer are loaded only when a file is opened or saved,
 * so the builder starts without them.
 */
const loader = () => import('@personae/rules/character/load');

export type SheetFileResult = { ok: true; sheet: CharacterSheet } | { ok: false; message: string; issues: readonly { message: string; line?: number; path?: string }[] };

export async function readSheetFile(text: string, filename: string): Promise<SheetFileResult> {
  const { loadSheet } = await loader();
  const loaded = loadSheet(text, filename);
  if (loaded.ok) return { ok: true, sheet: loaded.sheet };
  return { ok: false, message: loaded.error.message, issues: loaded.error.issues };
}

export async function writeSheetFile(sheet: CharacterSheet, format: 'yaml' | 'json'): Promise<string> {
  const { sheetToJson, sheetToYaml } = await loader();
  return format === 'yaml' ? sheetToYaml(sheet) : sheetToJson(sheet);
}

/** The sheet as the JSON the table's add-character command takes (fields at their defaults left out). */
export async function compactJson(sheet: CharacterSheet): Promise<Record<string, unknown>> {
  const { compactSheet } = await loader();
  return compactSheet(sheet) as unknown as Record<string, unknown>;
}

export function fileNameFor(sheet: CharacterSheet, format: 'yaml' | 'json'): string {
  const base = sheet.name.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'character';
  return `${base}.${format === 'yaml' ? 'yaml' : 'json'}`;
}

export function download(text: string, filename: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
