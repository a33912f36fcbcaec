import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Encrypts secrets kept in the database (provider keys) with AES-256-GCM. The key comes from
 * PATCHWORK_SECRET_KEY (any long random string; a key is derived from it with HKDF), else from
 * a random key generated once into `<data dir>/secret.key` with mode 0600. A database dump alone
 * therefore never yields a key; every process that shares the database needs the same key.
 */

const version = "v1";
const keyFileName = "secret.key";

export class SecretBoxError extends Error {}

export interface SecretBoxOptions {
  /** PATCHWORK_SECRET_KEY, when set. */
  secret?: string;
  /** Where the generated key lives when there is no PATCHWORK_SECRET_KEY. */
  dataDirectory: string;
}

/** The 32-byte key: derived from the configured secret, else read or generated on disk. */
export function loadSecretKey({ secret, dataDirectory }: SecretBoxOptions): Buffer {
  if (secret !== undefined && secret.trim() !== "") {
    if (secret.length < 16) {
      throw new SecretBoxError("PATCHWORK_SECRET_KEY must be at least 16 characters.");
    }
    return Buffer.from(hkdfSync("sha256", secret, "patchwork", "stored-secrets", 32));
  }
  const file = path.join(dataDirectory, keyFileName);
  try {
    const stored = Buffer.from(readFileSync(file, "utf8").trim(), "base64");
    if (stored.length !== 32) throw new SecretBoxError(`${file} does not hold a 32-byte key.`);
    // Someone widened it by hand (or a copy lost its mode): narrow it again.
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  mkdirSync(dataDirectory, { recursive: true });
  const key = randomBytes(32);
  try {
    // `wx`: two processes starting together never overwrite each other's key.
    writeFileSync(file, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      return loadSecretKey({ secret, dataDirectory });
    }
    throw error;
  }
}

/**
 * `v1.<iv>.<tag>.<ciphertext>` (base64url). `context` (e.g. the provider's id) is bound in as
 * additional data, so a ciphertext copied into another row does not decrypt there.
 */
export function encryptSecret(key: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [version, iv, tag, ciphertext]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/** The plaintext, or a SecretBoxError when the key or context is wrong or the text was altered. */
export function decryptSecret(key: Buffer, sealed: string, context: string): string {
  const [tagVersion, iv, tag, ciphertext, ...rest] = sealed.split(".");
  if (tagVersion !== version || !iv || !tag || ciphertext === undefined || rest.length > 0) {
    throw new SecretBoxError("Not a sealed secret.");
  }
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([
      decipher.update(Buffer.from(ciphertext, "base64url")),
      decipher.final(),
    ]).toString("utf8");
  } catch {
    throw new SecretBoxError(
      "The stored secret cannot be decrypted with this key (was PATCHWORK_SECRET_KEY changed?).",
    );
  }
}

/** The last four characters, for showing a saved key as `…abcd`; nothing for short keys. */
export function secretHint(secret: string): string | null {
  return secret.length >= 12 ? secret.slice(-4) : null;
}
