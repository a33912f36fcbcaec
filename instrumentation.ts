/**
 * Runs once when a server process starts: opens the database (applying migrations) so the first
 * request doesn't pay for it, and lets later work hook start-up recovery here.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServerProcess } = await import("@/lib/server-startup");
  await startServerProcess();
}
