export const ROOT: string;
export function ensureDependencies(): void;
export function electronBinary(): string | null;
export function run(command: string, args: string[], options?: object): number;
export function installed(root?: string): boolean;
