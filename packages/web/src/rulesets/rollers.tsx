import { d100Roller } from './d100/roller';
import { lucidityRoller } from './lucidity/roller';
import { RulesetRollerPage } from './roller';

/** The free-standing rollers of the d100 and Lucidity rulesets (/roller/d100, /roller/lucidity). */
export const D100RollerPage = () => <RulesetRollerPage spec={d100Roller} />;
export const LucidityRollerPage = () => <RulesetRollerPage spec={lucidityRoller} />;
