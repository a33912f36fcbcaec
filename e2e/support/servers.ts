/**
 * The production servers playwright.config.ts starts. PATCHWORK_E2E_PORT moves them, so two
 * runs on one machine (say, two checkouts) don't collide.
 */
export const journeyPort = Number(process.env.PATCHWORK_E2E_PORT) || 3100;
/** Started with PATCHWORK_AUTH_TOKEN, for the sign-in flow. */
export const authPort = journeyPort + 1;
export const authBaseURL = `http://127.0.0.1:${authPort}`;
/** Started with no model provider in its environment: the settings page supplies one. */
export const providersPort = journeyPort + 2;
export const providersBaseURL = `http://127.0.0.1:${providersPort}`;
/** The scripted model server every e2e server talks to. */
export const modelServerPort = journeyPort + 10;
