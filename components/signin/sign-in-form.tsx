"use client";

import { useMutation } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { useState } from "react";
import { ApiError, apiClient, errorMessage } from "@/components/api-client";
import { BrandMark } from "@/components/brand-mark";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { safeNextPath } from "./safe-next-path";

/** Exchanges the server's auth token for a session cookie, then returns to where the person was. */
export function SignInForm({ next }: { next: string | null }) {
  const [token, setToken] = useState("");
  const signIn = useMutation({
    mutationFn: apiClient.signIn,
    // A full navigation, so the proxy sees the new cookie on the very next request.
    onSuccess: () => window.location.assign(safeNextPath(next)),
  });
  const failure = signIn.error;
  const message =
    failure instanceof ApiError && failure.status === 401
      ? failure.message || "That token is not right."
      : failure
        ? errorMessage(failure)
        : null;

  return (
    <div className="flex h-dvh min-h-0 flex-col items-center justify-center overflow-y-auto px-6">
      <div className="w-full max-w-sm">
        <div className="mb-8 flex justify-center">
          <BrandMark />
        </div>
        <form
          className="rounded-2xl border border-zinc-200 bg-white p-6 shadow-sm"
          onSubmit={(event) => {
            event.preventDefault();
            if (token) signIn.mutate({ token });
          }}
          data-testid="signin-form"
        >
          <div className="mb-5 flex items-start gap-3">
            <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-zinc-100 text-zinc-600">
              <KeyRound className="size-4" aria-hidden="true" />
            </span>
            <div>
              <h1 className="text-base font-semibold tracking-tight">Sign in</h1>
              <p className="mt-0.5 text-sm text-zinc-500">
                Enter the access token this server was started with (
                <code className="text-xs">PATCHWORK_AUTH_TOKEN</code>).
              </p>
            </div>
          </div>
          <label htmlFor="signin-token" className="mb-1.5 block text-xs font-medium text-zinc-700">
            Access token
          </label>
          <Input
            id="signin-token"
            type="password"
            name="token"
            autoComplete="current-password"
            autoFocus
            value={token}
            onChange={(event) => {
              setToken(event.target.value);
              if (signIn.isError) signIn.reset();
            }}
            aria-invalid={message ? true : undefined}
            aria-describedby={message ? "signin-error" : undefined}
            data-testid="signin-token"
          />
          {message ? (
            <p
              id="signin-error"
              role="alert"
              className="mt-2 text-sm text-rose-600"
              data-testid="signin-error"
            >
              {message}
            </p>
          ) : null}
          <Button
            type="submit"
            variant="primary"
            className="mt-5 w-full"
            disabled={!token || signIn.isPending || signIn.isSuccess}
            data-testid="signin-submit"
          >
            {signIn.isPending || signIn.isSuccess ? <Spinner className="text-current" /> : null}
            Sign in
          </Button>
        </form>
      </div>
    </div>
  );
}
