import type { Metadata } from "next";
import { SignInForm } from "@/components/signin/sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { next } = await searchParams;
  return <SignInForm next={typeof next === "string" ? next : null} />;
}
