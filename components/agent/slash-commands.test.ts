import { describe, expect, it } from "vitest";
import { matchingSlashCommands, parseSlashCommand } from "./slash-commands";

describe("slash commands", () => {
  it("recognises a lone command and nothing else", () => {
    expect(parseSlashCommand("/undo")).toEqual({ kind: "command", name: "undo" });
    expect(parseSlashCommand("  /CLEAR ")).toEqual({ kind: "command", name: "clear" });
    expect(parseSlashCommand("/deploy")).toEqual({ kind: "unknown", name: "deploy" });
    expect(parseSlashCommand("/undo the last change please")).toBeNull();
    expect(parseSlashCommand("Add a /pricing route")).toBeNull();
  });

  it("offers the commands matching what has been typed", () => {
    expect(matchingSlashCommands("/").map((command) => command.name)).toEqual(["undo", "clear"]);
    expect(matchingSlashCommands("/cl").map((command) => command.name)).toEqual(["clear"]);
    expect(matchingSlashCommands("/x")).toEqual([]);
    expect(matchingSlashCommands("hello /")).toEqual([]);
  });
});
