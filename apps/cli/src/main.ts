#!/usr/bin/env node
import { CLIENT_COMMANDS } from './client/commands.js';

/**
 * Dispatch only: client commands (extract, schema, … over HTTP through @quire/sdk) never load the server's stores,
 * queue and workers, so they start in a fraction of the time; serve and admin load them on demand.
 */
async function main(argv: string[]): Promise<number> {
  const [cmd] = argv;
  if (cmd === '--help' || cmd === '-h' || (cmd !== undefined && CLIENT_COMMANDS.has(cmd))) {
    return (await import('./client/program.js')).runClient(argv);
  }
  return (await import('./server-commands.js')).runServerCommand(argv);
}

main(process.argv.slice(2)).then((code) => { if (code >= 0) process.exit(code); }, (e) => { console.error(e); process.exit(1); });
