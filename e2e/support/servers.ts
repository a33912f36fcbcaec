/** The two production servers playwright.config.ts starts. */
export const journeyPort = 3100;
/** Started with PATCHWORK_AUTH_TOKEN, for the sign-in flow. */
export const authPort = 3101;
export const authBaseURL = `http://127.0.0.1:${authPort}`;
