import type { ShownLogEntry } from './rules';

/**
 * Which log entries an undo has taken back, each with the undo entry that did it. An undo takes back
 * the encounter's entries after the entry it returns to; a redo restores those up to the entry it
 * goes forward to. Entries outside the encounter (free rolls, talk, sheets) are never taken back.
 */
export function takenBack(log: readonly ShownLogEntry[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const u of log) {
    if (!u.undo) continue;
    if (u.undo.kind === 'undo') {
      for (const e of log) {
        if (e.seq >= u.seq) break;
        if (e.seq > u.undo.to && e.encounterSeq !== undefined && !e.undo && !out.has(e.seq)) out.set(e.seq, u.seq);
      }
    } else {
      for (const [seq] of out) if (seq <= u.undo.to) out.delete(seq);
    }
  }
  return out;
}

/** The entries the next undo takes back: the latest encounter action still in effect (its entries share one time and issuer). */
export function undoPreview(log: readonly ShownLogEntry[]): ShownLogEntry[] {
  const gone = takenBack(log);
  const candidates = log.filter((e) => e.encounterSeq !== undefined && !e.undo && !gone.has(e.seq));
  const last = candidates[candidates.length - 1];
  if (!last) return [];
  const group: ShownLogEntry[] = [];
  for (let i = candidates.length - 1; i >= 0 && candidates[i]!.at === last.at && candidates[i]!.by === last.by; i--) group.unshift(candidates[i]!);
  return group;
}
