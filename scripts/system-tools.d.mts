export function findTool(name: string, path?: string): string | null;
export function ensureSystemTools(options?: { electron?: boolean }): void;
export interface Tool { name: string; why: string; apt: string; other?: string; found: boolean }
export function requiredTools(options?: { env?: NodeJS.ProcessEnv; electron?: boolean; root?: boolean; path?: string }): Tool[];
export function installPlan(missing: Tool[], here: { root: boolean; sudo: boolean; apt: boolean }): { install?: { packages: string[] }; message?: string };
export function freshPackages(status: string, wanted: string[]): string[];
export function freshPath(dir: string, options?: { electron?: boolean; root?: boolean }): string | null;
