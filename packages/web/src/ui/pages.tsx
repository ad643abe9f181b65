// The pages that need the rules library, bundled together and loaded on demand by App.
export { TablePage } from './Table';
export { BuilderPage } from './Builder';
export { RollerPage } from './RollerPage';
export { D100RollerPage, LucidityRollerPage } from '../rulesets/rollers';
