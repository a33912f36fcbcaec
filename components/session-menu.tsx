"use client";

import { useMutation } from "@tanstack/react-query";
import { LogOut } from "lucide-react";
import { errorMessage, request } from "@/components/api-client";
import { Button } from "@/components/ui/button";

/**
 * Sign out of this browser, or of every browser at once (a lost laptop, a shared token). Shown
 * only when Patchwork requires sign-in.
 */
export function SessionMenu() {
  const signOut = useMutation({
    mutationFn: (everywhere: boolean) =>
      request<{ ok: true; sessions_revoked?: number }>("POST", "/api/auth/signout", {
        body: { everywhere },
      }),
    // A full navigation, so the proxy sees the cleared cookie on the very next request.
    onSuccess: () => window.location.assign("/signin"),
  });
  return (
    <div className="ml-auto flex items-center gap-1.5">
      {signOut.isError ? (
        <span role="alert" className="text-xs text-rose-600">
          {errorMessage(signOut.error)}
        </span>
      ) : null}
      <Button
        size="sm"
        variant="ghost"
        data-testid="sign-out"
        disabled={signOut.isPending}
        onClick={() => signOut.mutate(false)}
      >
        <LogOut aria-hidden />
        Sign out
      </Button>
      <Button
        size="sm"
        variant="ghost"
        data-testid="sign-out-everywhere"
        disabled={signOut.isPending}
        onClick={() => signOut.mutate(true)}
      >
        Sign out everywhere
      </Button>
    </div>
  );
}
