export * from './source';
export * from './pool';
export * from './expression';
export * from './recorded';
