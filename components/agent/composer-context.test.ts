import { describe, expect, it } from "vitest";
import {
  findActiveMention,
  insertMention,
  rankPaths,
  splitContext,
  withContext,
} from "./composer-context";

const paths = [
  "src/App.tsx",
  "src/main.tsx",
  "src/components/AppHeader.tsx",
  "index.html",
  "src/app.css",
];

describe("composer context", () => {
  it("finds the @ being typed at the caret, but not inside a word", () => {
    expect(findActiveMention("Make @src/Ap", 12)).toEqual({ start: 5, end: 12, query: "src/Ap" });
    expect(findActiveMention("@", 1)).toEqual({ start: 0, end: 1, query: "" });
    expect(findActiveMention("mail me@example.com", 19)).toBeNull();
    expect(findActiveMention("@src/App.tsx and more", 21)).toBeNull();
  });

  it("ranks file-name prefixes first, then paths, substrings and fuzzy matches", () => {
    expect(rankPaths(paths, "app")).toEqual([
      "src/app.css",
      "src/App.tsx",
      "src/components/AppHeader.tsx",
    ]);
    expect(rankPaths(paths, "src/m")).toEqual(["src/main.tsx", "src/components/AppHeader.tsx"]);
    expect(rankPaths(paths, "sapt")).toEqual(["src/App.tsx", "src/components/AppHeader.tsx"]);
    expect(rankPaths(paths, "", 2)).toEqual(["index.html", "src/app.css"]);
    expect(rankPaths(paths, "zzz")).toEqual([]);
  });

  it("replaces the query with the chosen path and puts the caret after it", () => {
    const mention = findActiveMention("Make @Ap dark", 8)!;
    expect(insertMention("Make @Ap dark", mention, "src/App.tsx")).toEqual({
      text: "Make @src/App.tsx dark",
      caret: 18,
    });
  });

  it("appends attached files as a Context line and reads it back", () => {
    const sent = withContext("Make the hero dark", ["src/App.tsx", "src/app.css", "src/App.tsx"]);
    expect(sent).toBe("Make the hero dark\n\nContext: @src/App.tsx @src/app.css");
    expect(splitContext(sent)).toEqual({
      text: "Make the hero dark",
      paths: ["src/App.tsx", "src/app.css"],
    });
    expect(withContext("Hello", [])).toBe("Hello");
    expect(splitContext("Context: is everything")).toEqual({
      text: "Context: is everything",
      paths: [],
    });
  });
});
