/** Commands that talk to a running service through the SDK (serve and admin are server-commands.ts). */
export const CLIENT_COMMANDS: ReadonlySet<string> = new Set(['extract', 'schema', 'tables', 'split', 'form', 'jobs', 'usage']);
