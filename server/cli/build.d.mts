/** Types of build.mjs (plain JavaScript, so that it runs before anything is built). */
export function sourceHash(): string;
export function isFresh(): boolean;
export function build(): Promise<{ modules: number; ms: number }>;
export function buildIfStale(): Promise<boolean>;
export function clean(): void;
