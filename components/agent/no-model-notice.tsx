import { KeyRound, RotateCw, Settings } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";

const variables = [
  { name: "OPENAI_API_KEY", provider: "OpenAI" },
  { name: "ANTHROPIC_API_KEY", provider: "Anthropic" },
  { name: "GOOGLE_GENERATIVE_AI_API_KEY", provider: "Google" },
  {
    name: "OPENAI_COMPATIBLE_BASE_URL",
    provider:
      "any OpenAI-compatible endpoint (LM Studio, vLLM, OpenRouter…), with OPENAI_COMPATIBLE_MODELS",
  },
];

/** With no model configured, the panel says how to add one; the rest of the builder works. */
export function NoModelNotice({
  onCheckAgain,
  checking,
}: {
  onCheckAgain: () => void;
  checking: boolean;
}) {
  return (
    <section
      className="mx-auto max-w-sm px-2 py-8 text-sm text-zinc-600"
      aria-labelledby="agent-no-model-title"
      data-testid="agent-no-model"
    >
      <KeyRound className="size-5 text-zinc-300" aria-hidden="true" />
      <h2 id="agent-no-model-title" className="mt-3 font-semibold text-zinc-900">
        Connect a model to start
      </h2>
      <p className="mt-1 leading-relaxed">
        The agent needs a model. Add a provider’s key or an OpenAI-compatible endpoint in Settings —
        it works at once — or set one of these in the server’s environment (or{" "}
        <code className="font-mono text-xs">.env.local</code>) and restart Patchwork:
      </p>
      <ul className="mt-3 space-y-1.5 text-xs">
        {variables.map((variable) => (
          <li key={variable.name}>
            <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[11px] text-zinc-800">
              {variable.name}
            </code>{" "}
            <span className="text-zinc-500">for {variable.provider}</span>
          </li>
        ))}
      </ul>
      <p className="mt-3 text-xs leading-relaxed text-zinc-500">
        A local <span className="font-medium text-zinc-700">Ollama</span> is detected automatically.
        Editing, the preview, history and publishing keep working meanwhile.
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        <Link
          href="/settings"
          className="inline-flex h-7 items-center gap-1.5 rounded-md bg-zinc-900 px-2.5 text-xs font-medium text-white shadow-sm hover:bg-zinc-800"
          data-testid="agent-open-settings"
        >
          <Settings className="size-3.5" aria-hidden="true" />
          Add a provider
        </Link>
        <Button size="sm" onClick={onCheckAgain} disabled={checking}>
          <RotateCw className={checking ? "animate-spin" : undefined} aria-hidden="true" />
          Check again
        </Button>
      </div>
    </section>
  );
}
