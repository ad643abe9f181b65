export * from './source';
export * from './pool';
export * from './expression';
