export function failedPages(dir: string, most?: number): { spec: string; lines: string[]; cut: boolean }[];
