export function corpusDir(): string;
export function baseName(file: string): string;
export function validationKeys(): Set<string>;
export function partOf(folder: string, file: string): 'dev' | 'validation';
export function corpusFiles(folder: string, keep?: (file: string) => boolean): { dir: string; dev: string[]; validation: string[] };
export function partsFromArgs(argv?: string[]): ('dev' | 'validation')[];
