import { setCharacter, type Appliers } from './shared';

/** Banks of criticals: earned, spent, expired and given. */
export const CRITICAL_EVENTS: Appliers<'criticals-banked' | 'criticals-spent' | 'readied-success-used' | 'criticals-expired' | 'criticals-given'> = {
  'criticals-banked': (now, event) => {
    if (event.count - event.lost <= 0) return now;
    const entries = now.banks[event.owner] ?? [];
    return { ...now, banks: { ...now.banks, [event.owner]: [...entries, { count: event.count - event.lost, earned: event.earned }] } };
  },
  'criticals-spent': (now, event) => {
    const spent = { ...now, banks: { ...now.banks, [event.owner]: take(now.banks[event.owner] ?? [], event.count) } };
    return event.readies ? setCharacter(spent, event.readies, { readiedSuccess: true }) : spent;
  },
  'readied-success-used': (now, event) => setCharacter(now, event.actor, { readiedSuccess: false }),
  'criticals-expired': (now, event) => ({ ...now, banks: { ...now.banks, [event.owner]: take(now.banks[event.owner] ?? [], event.count) } }),
  'criticals-given': (now, event) => {
    const from = now.banks[event.from] ?? [];
    const moved = takeEntries(from, event.count);
    return { ...now, banks: { ...now.banks, [event.from]: take(from, event.count), [event.to]: [...(now.banks[event.to] ?? []), ...moved] } };
  },
};

/** Spend or expire `count` criticals, oldest first. */
function take(entries: readonly { count: number; earned: BankStamp }[], count: number) {
  const out: { count: number; earned: BankStamp }[] = [];
  let left = count;
  for (const e of entries) {
    const used = Math.min(left, e.count);
    left -= used;
    if (e.count - used > 0) out.push({ count: e.count - used, earned: e.earned });
  }
  return out;
}

function takeEntries(entries: readonly { count: number; earned: BankStamp }[], count: number) {
  const out: { count: number; earned: BankStamp }[] = [];
  let left = count;
  for (const e of entries) {
    const used = Math.min(left, e.count);
    left -= used;
    if (used > 0) out.push({ count: used, earned: e.earned });
  }
  return out;
}

type BankStamp = { session: number; day: number; scene: number; encounter: number | null };
