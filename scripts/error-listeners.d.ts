export const errorHeardForLife: import('eslint').Rule.RuleModule;
