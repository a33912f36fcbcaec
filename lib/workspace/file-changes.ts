import { z } from "zod";

/** One change to a draft. Renames keep the blob, so they cost no storage. */
export type FileChange =
  | { type: "write"; path: string; content: Uint8Array | string }
  | { type: "delete"; path: string }
  | { type: "rename"; from: string; to: string };

export const fileChangeSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("write"), path: z.string(), content: z.string() }),
  z.object({ type: z.literal("delete"), path: z.string() }),
  z.object({ type: z.literal("rename"), from: z.string(), to: z.string() }),
]);
