export const errorHeardForLife: import('eslint').Rule.RuleModule;
export const noUnboundedSpread: import('eslint').Rule.RuleModule;
