export function cycleThrough(start: string, first: string, importsFrom: (file: string) => string[]): string[] | null;
export function importsOf(file: string, source: string): string[];
export function resolveImport(from: string, specifier: string): string | null;
export const noImportCycle: import('eslint').Rule.RuleModule;
