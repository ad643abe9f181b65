export * from './compare';
export * from './difficulty';
export * from './outcome';
export * from './pool';
export * from './reroll';
export * from './resolve';
export * from './concerted';
