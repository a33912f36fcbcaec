import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  decryptSecret,
  encryptSecret,
  loadSecretKey,
  SecretBoxError,
  secretHint,
} from "./secret-box";

const temporaryDirectory = () => mkdtempSync(path.join(tmpdir(), "patchwork-secret-"));

describe("secret box", () => {
  it("round-trips a secret and never stores it in clear", () => {
    const key = loadSecretKey({
      secret: "a long configured secret value",
      dataDirectory: "/nonexistent",
    });
    const sealed = encryptSecret(key, "sk-test-1234567890", "openai");
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain("sk-test");
    expect(decryptSecret(key, sealed, "openai")).toBe("sk-test-1234567890");
    // A fresh nonce every time: the same key sealed twice looks different.
    expect(encryptSecret(key, "sk-test-1234567890", "openai")).not.toBe(sealed);
  });

  it("refuses another key, another row's context and an altered ciphertext", () => {
    const key = loadSecretKey({ secret: "a long configured secret value", dataDirectory: "/x" });
    const other = loadSecretKey({ secret: "another long secret value!", dataDirectory: "/x" });
    const sealed = encryptSecret(key, "sk-test-1234567890", "openai");
    expect(() => decryptSecret(other, sealed, "openai")).toThrow(SecretBoxError);
    expect(() => decryptSecret(key, sealed, "anthropic")).toThrow(SecretBoxError);
    const parts = sealed.split(".");
    parts[3] = `${parts[3].slice(0, -2)}AA`;
    expect(() => decryptSecret(key, parts.join("."), "openai")).toThrow(SecretBoxError);
    expect(() => decryptSecret(key, "plain text", "openai")).toThrow(SecretBoxError);
  });

  it("generates one key into the data directory with mode 0600 and reuses it", () => {
    const directory = temporaryDirectory();
    const first = loadSecretKey({ dataDirectory: directory });
    const file = path.join(directory, "secret.key");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadSecretKey({ dataDirectory: directory }).equals(first)).toBe(true);
    expect(readFileSync(file, "utf8")).not.toContain(first.toString("hex"));
  });

  it("narrows a key file someone made readable by others", () => {
    const directory = temporaryDirectory();
    const file = path.join(directory, "secret.key");
    writeFileSync(file, `${Buffer.alloc(32, 7).toString("base64")}\n`, { mode: 0o644 });
    expect(loadSecretKey({ dataDirectory: directory }).equals(Buffer.alloc(32, 7))).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("refuses a short PATCHWORK_SECRET_KEY and a corrupt key file", () => {
    expect(() => loadSecretKey({ secret: "short", dataDirectory: "/x" })).toThrow(/16 characters/);
    const directory = temporaryDirectory();
    writeFileSync(path.join(directory, "secret.key"), "not a key\n", { mode: 0o600 });
    expect(() => loadSecretKey({ dataDirectory: directory })).toThrow(/32-byte key/);
  });

  it("shows only the last four characters of a long key", () => {
    expect(secretHint("sk-proj-abcdefgh1234")).toBe("1234");
    expect(secretHint("short")).toBeNull();
  });
});
