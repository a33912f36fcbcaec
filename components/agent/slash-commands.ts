/** The composer's commands: typed as the whole message, they act instead of starting a run. */
export const slashCommands = [
  { name: "undo", description: "Restore the checkpoint from before the last run" },
  { name: "clear", description: "Start a fresh conversation (history stays available)" },
] as const;

export type SlashCommandName = (typeof slashCommands)[number]["name"];

export type ParsedSlashCommand =
  | { kind: "command"; name: SlashCommandName }
  | { kind: "unknown"; name: string };

/** `/undo` → the command; `/nope` → unknown; anything that is not a lone `/word` → null. */
export function parseSlashCommand(text: string): ParsedSlashCommand | null {
  const match = /^\/([a-z][\w-]*)$/i.exec(text.trim());
  if (!match) return null;
  const name = match[1].toLowerCase();
  const command = slashCommands.find((candidate) => candidate.name === name);
  return command ? { kind: "command", name: command.name } : { kind: "unknown", name };
}

/** The commands offered while the message is a `/` prefix. */
export function matchingSlashCommands(text: string): (typeof slashCommands)[number][] {
  const match = /^\/([\w-]*)$/.exec(text);
  if (!match) return [];
  const prefix = match[1].toLowerCase();
  return slashCommands.filter((command) => command.name.startsWith(prefix));
}
