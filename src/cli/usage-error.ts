/** A command line the CLI cannot run: answered with the usage, exit 64. */
export class CliUsageError extends Error {}
