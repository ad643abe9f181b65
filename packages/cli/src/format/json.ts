/**
 * The one JSON object a `--json` command prints: indented two spaces, with arrays of numbers and small
 * flat objects kept on one line ("dice": [7, 5, 2]; "actor": { "die": 7, "total": 10 }), so a pool
 * reads as a pool.
 */
export function toJson(value: unknown): string {
  const join = (inner: string) => inner.split(/,\n\s*/).join(', ');
  // An opening bracket or brace followed by a line break only occurs outside strings (JSON escapes line breaks).
  return (
    JSON.stringify(value, null, 2)
      .replace(/\[\n\s*([^[\]{}"]*?)\n\s*\]/g, (_, inner: string) => `[${join(inner)}]`)
      .replace(/\{\n\s*([^[\]{}]*?)\n\s*\}/g, (whole: string, inner: string) => {
        const flat = `{ ${join(inner)} }`;
        return flat.length <= 60 ? flat : whole;
      }) + '\n'
  );
}
