import type { Modifier } from '@personae/core';
import type { Attribute, Attributes } from '../attributes';
import type { ZeroHealthOutcome } from '../health';
import type { RollPurpose } from '../traits';
import type { Combatant } from './combatant';

// Events: each command gives exactly one event, carrying every die it used, so replay never re-rolls.

export interface RollRecord {
  readonly d20: number;
  readonly modifiers: readonly Modifier[];
  readonly buffDice: readonly number[];
  readonly breakDice: readonly number[];
  readonly total: number;
  readonly target: number;
  readonly success: boolean;
  readonly lucidity?: { readonly target: number; readonly lucidityAfter: number };
  readonly guaranteed?: boolean;
}

export interface ZeroHealthRecord {
  readonly id: string;
  readonly d20: number;
  readonly target: number;
  readonly degree: number;
  readonly outcome: ZeroHealthOutcome;
  readonly lucidityAfter: number;
}

export type LucidityEvent =
  | { type: 'combatant-added'; data: { combatant: Combatant; /** Companions whose Max Health rises by 5 from the newcomer's Healthy Living. */ healthyLiving?: string[] } }
  | { type: 'encounter-started'; data: { rolls: { id: string; d20: number; awa: number; total: number }[]; order: string[] } }
  | {
      type: 'attacked';
      data: {
        attacker: string;
        target: string;
        weapon: string;
        cost: number;
        reaction: 'opportunity' | 'free' | 'readied' | null;
        roll: RollRecord;
        defense: number;
        hit: boolean;
        penetration: number;
        protection: number;
        damageDice: number[];
        damage: number;
        damageTaken: number;
        toHealth: number;
        toLucidity: number;
        zeroHealthDamage: boolean;
        dies: boolean;
        exploitAllowed: boolean;
        steps: string[];
        inspired?: boolean;
      };
    }
  | { type: 'rolled'; data: { actor: string; attribute: Attribute; skill: string | null; label: string; cost: number; against: { id: string; attribute: Attribute; d20: number | null } | null; roll: RollRecord; purpose?: RollPurpose; inspired?: boolean } }
  | { type: 'lucidity-rolled'; data: { actor: string; purpose: string; rolls: { d20: number; target: number; success: boolean }[]; success: boolean; lucidityAfter: number; healthGained: number } }
  | { type: 'moved'; data: { actor: string; feet: number; usedMoveAction: boolean; shuffle: boolean } }
  | { type: 'helped'; data: { actor: string; target: string; kind: 'buff' | 'break'; count: number } }
  | { type: 'readied'; data: { actor: string; actions: number; trigger: string } }
  | { type: 'damaged'; data: { target: string; amount: number; reason: string; toHealth: number; toLucidity: number; zeroHealthDamage: boolean; dies: boolean } }
  | { type: 'exploit-ruled'; data: { actor: string; target: string; kind: 'minor' | 'major' | 'rescue'; success: boolean; ruling: string; turnabout?: boolean } }
  | { type: 'wingman-hyped'; data: { actor: string; ally: string; attribute: Attribute } }
  | {
      type: 'narrative-defeat';
      data: { actor: string; target: string; ploy: string; attribute: Attribute; value: number; resistance: { d20: number; total: number; target: number } | null; resisted: boolean; damage: number; toHealth: number; toLucidity: number; zeroHealthDamage: boolean; dies: boolean };
    }
  | { type: 'casting-begun'; data: { actor: string; spell: string; energyCost: number; readyRound: number } }
  | { type: 'spell-cast'; data: { actor: string; spell: string; target: string | null; cost: number; energyCost: number; energyAfter: number; effect: string } }
  | { type: 'rested'; data: { id: string; lunarPause: boolean; healthDice: number[]; healed: number; lucidityGained: number; health: number; lucidity: number; energy: number } }
  | { type: 'xp-awarded'; data: { id: string; amount: number; reason: string; xp: number; levelReached: number } }
  | {
      type: 'levelled';
      data: { id: string; from: number; to: number; raise: Attribute; attributes: Attributes; defense: number; maxHealth: number; maxLucidity: number; maxEnergy: number; health: number; lucidity: number; energy: number };
    }
  | { type: 'revealed'; data: { id: string } }
  | { type: 'controller-set'; data: { id: string; controller: string | null } }
  | { type: 'turn-ended'; data: { ended: string; next: string; round: number; newRound: boolean; zeroHealth: ZeroHealthRecord[]; died: string[] } }
  | { type: 'undone'; data: { target: number } }
  | { type: 'redone'; data: { target: number } };
