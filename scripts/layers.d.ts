export const FORMAT_IDS: string[];
export const LAYERS: Record<string, { regex: string; message: string }[]>;
export const formatLiteralRule: import('eslint').Linter.Config;
export function layerRules(builtinModules: readonly string[]): import('eslint').Linter.Config[];
