/**
 * A preload that samples what a process allocates, collected objects included, and prints at exit
 * the total and the functions that allocated most (builtins under the function that called them).
 *
 *   COMMANDS=24000 node --import tsx --import ./bench/heap-sample.mjs bench/hub-command.ts 12000 --rounds 1
 *
 * COMMANDS divides the totals (KB per command); HEAP_PROFILE=FILE also writes the profile (open it in
 * Chrome's DevTools, Memory tab); INCLUSIVE=resolveChallenge,evolveTable also prints what those functions
 * allocated with their callees (outermost call counted once). Sampling interval 4096 bytes, as in
 * docs/benchmarks.md.
 */
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';

const session = new Session();
session.connect();
session.post('HeapProfiler.enable');
session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });

process.on('exit', () => {
  session.post('HeapProfiler.stopSampling', (error, answer) => {
    if (error) return void console.error(error);
    const per = Number(process.env.COMMANDS || 1);
    const self = new Map();
    let total = 0;
    const name = (f) => `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}`;
    const walk = (node, caller) => {
      const f = node.callFrame;
      const owner = f.url ? name(f) : `${caller} <${f.functionName || '(anonymous)'}>`;
      total += node.selfSize;
      self.set(owner, (self.get(owner) ?? 0) + node.selfSize);
      for (const child of node.children) walk(child, f.url ? name(f) : caller);
    };
    walk(answer.profile.head, '(root)');
    const inclusive = new Map((process.env.INCLUSIVE ?? '').split(',').filter(Boolean).map((f) => [f, 0]));
    const sum = (node) => node.children.reduce((t, c) => t + sum(c), node.selfSize);
    const under = (node) => {
      const f = node.callFrame.functionName;
      if (inclusive.has(f)) inclusive.set(f, inclusive.get(f) + sum(node));
      else for (const child of node.children) under(child);
    };
    if (inclusive.size > 0) under(answer.profile.head);
    const kb = (bytes) => (bytes / per / 1024).toFixed(2);
    console.error(`allocated ${(total / 1e6).toFixed(1)} MB: ${kb(total)} KB per command over ${per}`);
    for (const [f, bytes] of inclusive) console.error(`${kb(bytes).padStart(8)} KB ${((100 * bytes) / total).toFixed(1).padStart(5)} %  ${f} and its callees`);
    for (const [where, bytes] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.error(`${kb(bytes).padStart(8)} KB ${((100 * bytes) / total).toFixed(1).padStart(5)} %  ${where}`);
    if (process.env.HEAP_PROFILE) writeFileSync(process.env.HEAP_PROFILE, JSON.stringify(answer.profile));
  });
});
