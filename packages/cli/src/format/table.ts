/** Plain-text tables for the terminal: every column padded to its widest cell. */
export type Align = 'left' | 'right';

export function textTable(rows: readonly (readonly string[])[], align: readonly Align[] = [], gap = 2): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) =>
    row
      .map((cell, i) => {
        const w = widths[i] ?? 0;
        return (align[i] ?? 'left') === 'right' ? cell.padStart(w) : cell.padEnd(w);
      })
      .join(' '.repeat(gap))
      .trimEnd(),
  );
}

/** Indent every line. */
export function indent(lines: readonly string[], by = '  '): string[] {
  return lines.map((l) => (l === '' ? l : by + l));
}
