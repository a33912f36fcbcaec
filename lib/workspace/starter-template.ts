/**
 * The files every new app starts from: a Vite-shaped React + TypeScript + Tailwind 4 landing page.
 * The preview bundler reads `index.html` for its module script, so the shape here is the contract.
 */

/** The starter's `<h1>` text; tests and end-to-end checks look for it in the rendered preview. */
export const starterHeading = "Launch something people love";

const indexHtml = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>Lumen — launch something people love</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/src/main.tsx"></script>
  </body>
</html>
`;

const mainTsx = `import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import "./index.css";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
`;

const appTsx = `import { useState } from "react";
import { ArrowRight, Check, Palette, ShieldCheck, Sparkles, Zap } from "lucide-react";

const features = [
  {
    icon: Zap,
    title: "Fast from the first click",
    description: "Pages load instantly and respond the moment people touch them.",
  },
  {
    icon: Palette,
    title: "Designed to delight",
    description: "Thoughtful type, calm colour and generous space, ready to make your own.",
  },
  {
    icon: ShieldCheck,
    title: "Built to last",
    description: "Typed components and plain React, so every change stays easy to make.",
  },
];

export function App() {
  const [joined, setJoined] = useState(false);

  return (
    <div className="relative isolate min-h-dvh overflow-hidden bg-slate-950 text-slate-100 antialiased">
      <div className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-[32rem] bg-linear-to-b from-indigo-500/25 via-fuchsia-500/10 to-transparent blur-3xl" />

      <header className="relative mx-auto flex max-w-5xl items-center justify-between px-6 py-6">
        <span className="flex items-center gap-2 text-lg font-semibold tracking-tight">
          <Sparkles className="size-5 text-indigo-400" aria-hidden="true" />
          Lumen
        </span>
        <a href="#features" className="text-sm text-slate-400 transition hover:text-white">
          Features
        </a>
      </header>

      <main className="relative mx-auto max-w-5xl px-6">
        <section className="flex flex-col items-center py-20 text-center sm:py-28">
          <span className="rounded-full border border-indigo-400/30 bg-indigo-400/10 px-3 py-1 text-xs font-medium text-indigo-200">
            Now in early access
          </span>
          <h1 className="mt-6 max-w-3xl text-balance text-5xl font-bold tracking-tight sm:text-6xl">
            Launch something people love
          </h1>
          <p className="mt-6 max-w-xl text-pretty text-lg leading-8 text-slate-300">
            Lumen turns a good idea into a polished product page in an afternoon, so you can spend
            your time on what makes it yours.
          </p>
          <div className="mt-10 flex flex-col items-center gap-4 sm:flex-row">
            <button
              type="button"
              onClick={() => setJoined(true)}
              className="inline-flex items-center gap-2 rounded-full bg-indigo-500 px-6 py-3 text-sm font-semibold text-white shadow-lg shadow-indigo-500/30 transition hover:bg-indigo-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-300"
            >
              {joined ? (
                <>
                  <Check className="size-4" aria-hidden="true" />
                  You're on the list
                </>
              ) : (
                <>
                  Join the waitlist
                  <ArrowRight className="size-4" aria-hidden="true" />
                </>
              )}
            </button>
            <a href="#features" className="text-sm font-medium text-slate-300 hover:text-white">
              See what's inside
            </a>
          </div>
        </section>

        <section id="features" className="grid gap-6 pb-24 sm:grid-cols-3">
          {features.map(({ icon: Icon, title, description }) => (
            <article
              key={title}
              className="rounded-2xl border border-white/10 bg-white/5 p-6 transition hover:-translate-y-1 hover:border-indigo-400/40"
            >
              <div className="flex size-10 items-center justify-center rounded-xl bg-indigo-500/15 text-indigo-300">
                <Icon className="size-5" aria-hidden="true" />
              </div>
              <h2 className="mt-4 font-semibold text-white">{title}</h2>
              <p className="mt-2 text-sm leading-6 text-slate-400">{description}</p>
            </article>
          ))}
        </section>
      </main>

      <footer className="border-t border-white/10 py-8 text-center text-sm text-slate-500">
        Made with care. Edit src/App.tsx to make it yours.
      </footer>
    </div>
  );
}
`;

const indexCss = `@import "tailwindcss";

@theme {
  --font-sans: "Inter", ui-sans-serif, system-ui, -apple-system, "Segoe UI", sans-serif;
}

html {
  color-scheme: dark;
  scroll-behavior: smooth;
}
`;

/** Path → text of each starter file; paths are workspace-relative, as the store keeps them. */
export const starterTemplateFiles: Record<string, string> = {
  "index.html": indexHtml,
  "src/main.tsx": mainTsx,
  "src/App.tsx": appTsx,
  "src/index.css": indexCss,
};
