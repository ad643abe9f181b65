import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// No module of any package may reach itself through its imports, type-only imports included: a
// circle means two modules share a concept that belongs to one of them.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const PACKAGES = join(ROOT, 'packages');
const SOURCE = /\.(ts|tsx)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `@personae/<name>` and its subpaths, from each package's `exports` map. */
function packageEntries(): Map<string, { dir: string; exports: Record<string, string> }> {
  const out = new Map<string, { dir: string; exports: Record<string, string> }>();
  for (const name of readdirSync(PACKAGES)) {
    const manifest = join(PACKAGES, name, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; exports?: Record<string, string> | string };
    const exports = typeof pkg.exports === 'string' ? { '.': pkg.exports } : (pkg.exports ?? {});
    out.set(pkg.name, { dir: join(PACKAGES, name), exports });
  }
  return out;
}

function asFile(base: string): string | null {
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile() && SOURCE.test(candidate)) return candidate;
  }
  return null;
}

function resolveImport(from: string, spec: string, packages: ReturnType<typeof packageEntries>): string | null {
  if (spec.startsWith('.')) return asFile(resolve(dirname(from), spec));
  const m = /^(@personae\/[^/]+)(\/.*)?$/.exec(spec);
  const pkg = m && packages.get(m[1]!);
  if (!pkg) return null;
  const sub = `.${m![2] ?? ''}`;
  const exact = pkg.exports[sub];
  if (exact) return asFile(join(pkg.dir, exact));
  const pattern = pkg.exports['./*'];
  return pattern && sub !== '.' ? asFile(join(pkg.dir, pattern.replace('*', sub.slice(2)))) : null;
}

export function importGraph(): Map<string, string[]> {
  const packages = packageEntries();
  const graph = new Map<string, string[]>();
  for (const pkg of packages.values()) {
    const src = join(pkg.dir, 'src');
    if (!existsSync(src)) continue;
    for (const file of sourceFiles(src)) {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = importedFiles.map((i) => resolveImport(file, i.fileName, packages)).filter((t): t is string => t !== null && t !== file);
      graph.set(file, [...new Set(targets)]);
    }
  }
  return graph;
}

/** Every strongly connected group of two or more modules (or one importing itself), by Tarjan's method. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) === order.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!order.has(v)) visit(v);
  return found;
}

describe('import graph of packages/*/src', () => {
  it('finds a circle when there is one', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(g)).toEqual([['a', 'b', 'c']]);
    expect(cycles(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });

  it('reads every kind of import, type-only ones included', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(100);
    const table = [...graph.entries()].find(([f]) => f.endsWith(join('rules', 'src', 'table', 'table.ts')));
    expect(table?.[1].some((t) => t.endsWith(join('table', 'commands.ts')))).toBe(true);
  });

  it('has no circle', () => {
    const found = cycles(importGraph()).map((group) => group.map((f) => relative(ROOT, f)).join(' <-> '));
    expect(found, `import circles:\n${found.join('\n')}`).toEqual([]);
  });
});
