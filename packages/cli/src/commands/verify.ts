import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { checkRevealedDice, findRuleset, registeredRulesets, verifyRoll } from '@personae/core';
import { checkReveal, type ChallengeResult } from '@personae/rules';
import { toJson } from '../format/json.js';
import { CliError, EXIT_OK, writeLines, type CliIo } from '../io.js';

interface VerifyFlags {
  commitment?: string;
  dice?: string;
  salt?: string;
  log?: string;
  json?: boolean;
}

interface LogCheck {
  readonly seq: number;
  readonly hash: string;
  readonly committedAt: number | null;
  readonly verified: boolean;
  readonly reason?: string;
}

/**
 * Every secret roll of an exported table log (the file the table's Export gives, for the GM or a
 * player): each reveal is checked against the commitment published earlier in the same log, and
 * the dice what it reveals shows against the dice committed to. Commitments never revealed are
 * listed. A Personae table's reveal shows a challenge result (`revealed`); a d100 or Lucidity
 * table's (`roll-revealed`) shows the events rolled, whose dice `rolledDice` reads.
 */
export function verifyLog(text: string, file: string, rolledDice?: (event: unknown) => number[]): { checks: LogCheck[]; unrevealed: { seq: number; hash: string }[] } {
  const events = exportedEvents(text, file).events;
  const committed = new Map<string, number>();
  const checks: LogCheck[] = [];
  for (const [i, item] of events.entries()) {
    const rec = item as { seq?: unknown; event?: unknown } | null | undefined;
    const seq = typeof rec?.seq === 'number' ? rec.seq : i + 1;
    const e = rec?.event as Record<string, unknown> | null | undefined;
    if (!e || typeof e !== 'object' || typeof e.hash !== 'string') continue;
    if (e.type === 'committed' || e.type === 'roll-committed') committed.set(e.hash.toLowerCase(), seq);
    if (e.type !== 'revealed' && e.type !== 'roll-revealed') continue;
    const hash = e.hash;
    const at = committed.get(hash.toLowerCase());
    if (at === undefined) {
      checks.push({ seq, hash, committedAt: null, verified: false, reason: 'no commitment with this hash was published before it in the log' });
      continue;
    }
    const dice = Array.isArray(e.dice) ? (e.dice as number[]) : [];
    const reveal = { hash, salt: String(e.salt ?? ''), dice };
    const check =
      e.type === 'revealed'
        ? checkReveal(hash, reveal, e.result as ChallengeResult | undefined)
        : checkRevealedDice(hash, reveal, rolledDice && Array.isArray(e.rolls) ? e.rolls.flatMap((r) => rolledDice(r)) : undefined);
    checks.push({ seq, hash, committedAt: at, verified: check.ok, ...(check.ok ? {} : { reason: check.message }) });
    committed.delete(hash.toLowerCase());
  }
  return { checks, unrevealed: [...committed].map(([hash, seq]) => ({ seq, hash })) };
}

function exportedEvents(text: string, file: string): { events: unknown[]; ruleset: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new CliError(`${file}: not JSON (${(e as Error).message})`);
  }
  const events = (data as { events?: unknown }).events;
  if (!Array.isArray(events)) throw new CliError(`${file}: not an exported table log (no "events" list)`);
  const ruleset = (data as { table?: { ruleset?: unknown } }).table?.ruleset;
  return { events, ruleset: typeof ruleset === 'string' ? ruleset : 'personae' };
}

/** How the rolls revealed at a table of the log's ruleset show their dice (the rulesets load only for such a log). */
async function rolledDiceOf(text: string, file: string): Promise<((event: unknown) => number[]) | undefined> {
  const { ruleset } = exportedEvents(text, file);
  if (ruleset === 'personae') return undefined;
  await Promise.all([import('@personae/d100'), import('@personae/lucidity')]);
  const found = findRuleset(ruleset);
  if (!found) throw new CliError(`${file}: table.ruleset ${JSON.stringify(ruleset)} is not one this program knows; known rulesets: ${registeredRulesets().map((r) => r.id).join(', ')}`);
  return found.rolledDice;
}

function diceList(text: string): number[] {
  const words = text.split(',').map((w) => w.trim());
  const dice = words.map(Number);
  const bad = words.find((w, i) => w === '' || !Number.isInteger(dice[i]) || dice[i]! < 1);
  if (bad !== undefined) throw new CliError(`--dice: "${bad}" is not a die result (a whole number from 1), in "${text}"`);
  return dice;
}

/**
 * `personae verify`: checks a revealed secret roll against the commitment the table published when
 * the GM rolled it (the SHA-256 of the salt and the dice in the order drawn).
 */
export function registerVerifyCommand(program: Command, io: CliIo): void {
  program
    .command('verify')
    .summary('check a revealed secret roll against the commitment published when it was rolled')
    .description(
      'When the GM rolls in secret, the table publishes a commitment (a SHA-256 hash) at once; when the roll\n' +
        'is revealed, anyone can check that the dice and the salt shown are the ones committed to.',
    )
    .option('--commitment <hash>', 'the commitment published in the log (64 hex digits)')
    .option('--dice <list>', 'the revealed dice in the order drawn, e.g. 7,3,10')
    .option('--salt <hex>', 'the revealed salt')
    .option('--log <file>', "check every revealed secret roll of a table's exported log (JSON) instead")
    .option('--json', 'print one JSON object')
    .action(async (flags: VerifyFlags) => {
      if (flags.log !== undefined) {
        if (flags.commitment || flags.dice || flags.salt) throw new CliError('--log checks a whole exported log: give it without --commitment, --dice and --salt');
        let text: string;
        try {
          text = readFileSync(flags.log, 'utf8');
        } catch (e) {
          throw new CliError(`--log: cannot read ${flags.log} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
        }
        const { checks, unrevealed } = verifyLog(text, flags.log, await rolledDiceOf(text, flags.log));
        const ok = checks.every((c) => c.verified);
        if (flags.json) io.stdout(toJson({ verified: ok, reveals: checks, unrevealed }));
        else {
          const lines = checks.map((c) =>
            c.verified ? `entry #${c.seq}: verified against the commitment of entry #${c.committedAt} (${c.hash.slice(0, 16)}...)` : `entry #${c.seq}: NOT verified: ${c.reason}`,
          );
          if (checks.length === 0) lines.push('no revealed secret roll in this log');
          for (const u of unrevealed) lines.push(`entry #${u.seq}: commitment ${u.hash.slice(0, 16)}... not revealed yet`);
          lines.push(ok ? `${checks.length} revealed secret roll${checks.length === 1 ? '' : 's'}, all verified` : `${checks.filter((c) => !c.verified).length} of ${checks.length} revealed secret rolls NOT verified`);
          writeLines(io.stdout, lines);
        }
        io.setExitCode(ok ? EXIT_OK : 1);
        return;
      }
      if (flags.commitment === undefined || flags.dice === undefined || flags.salt === undefined) {
        throw new CliError('give --commitment, --dice and --salt for one roll, or --log FILE for an exported table log');
      }
      if (!/^[0-9a-fA-F]{64}$/.test(flags.commitment)) throw new CliError(`--commitment: "${flags.commitment}" is not a SHA-256 hash (64 hex digits)`);
      const dice = diceList(flags.dice);
      const result = verifyRoll({ hash: flags.commitment }, { dice, salt: flags.salt.toLowerCase() });
      if (!result.ok && result.reason === 'malformed') throw new CliError(result.message);
      if (flags.json) io.stdout(toJson({ verified: result.ok, dice, ...(result.ok ? {} : { reason: result.message }) }));
      else writeLines(io.stdout, [result.ok ? `verified: the dice ${dice.join(', ')} are the ones committed to` : `NOT verified: ${result.message}`]);
      io.setExitCode(result.ok ? EXIT_OK : 1);
    });
}
