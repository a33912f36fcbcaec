import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactSecrets, SecretStreamRedactor } from "./redact-secrets";

const environment = {
  OPENAI_API_KEY: "sk-live-0123456789",
  PATCHWORK_AUTH_TOKEN: "tok-abcdefghij",
};

function streamThrough(redactor: SecretStreamRedactor, pieces: string[]): string[] {
  return [...pieces.map((piece) => redactor.push(piece)), redactor.end()];
}

describe("redactSecrets", () => {
  it("replaces every configured secret in nested values", () => {
    expect(
      redactSecrets({ a: ["key sk-live-0123456789"], b: { c: "tok-abcdefghij!" } }, environment),
    ).toEqual({ a: ["key [redacted]"], b: { c: "[redacted]!" } });
  });

  it("ignores secrets too short to be told from ordinary text", () => {
    expect(redactSecrets("abc", { OPENAI_API_KEY: "abc" })).toBe("abc");
  });
});

describe("SecretStreamRedactor", () => {
  it("redacts a secret split across deltas", () => {
    const output = streamThrough(new SecretStreamRedactor(environment), [
      "Your key is sk-li",
      "ve-01234",
      "56789, done.",
    ]);
    expect(output.join("")).toBe("Your key is [redacted], done.");
    expect(output.join("|")).not.toContain("sk-li");
  });

  it("holds back only what could still become a secret", () => {
    const redactor = new SecretStreamRedactor(environment);
    expect(redactor.push("plain text ")).toBe("plain text ");
    expect(redactor.push("ends in sk-")).toBe("ends in ");
    expect(redactor.push("and not a key")).toBe("sk-and not a key");
    expect(redactor.push("tail sk")).toBe("tail ");
    expect(redactor.end()).toBe("sk");
  });

  it("passes text through untouched when no secret is configured", () => {
    const redactor = new SecretStreamRedactor({});
    expect(redactor.push("sk-live-0123")).toBe("sk-live-0123");
    expect(redactor.end()).toBe("");
  });

  it("never lets a secret through, however the text is cut, and loses nothing else", () => {
    const secret = environment.OPENAI_API_KEY;
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }),
        fc.string({ maxLength: 20 }),
        fc.array(fc.nat({ max: 60 }), { maxLength: 8 }),
        (before, after, cuts) => {
          const text = `${before}${secret}${after}`;
          const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort(
            (left, right) => left - right,
          );
          const pieces = [0, ...points, text.length]
            .slice(1)
            .map((end, index, ends) => text.slice(index === 0 ? 0 : ends[index - 1], end));
          const output = streamThrough(new SecretStreamRedactor(environment), [
            text.slice(0, 0),
            ...pieces,
          ]);
          for (const piece of output) expect(piece).not.toContain(secret);
          expect(output.join("")).toBe(redactSecrets(text, environment));
        },
      ),
      { numRuns: 500 },
    );
  });
});
