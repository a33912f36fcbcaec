DROP INDEX "agent_run_one_active_per_app_idx";--> statement-breakpoint
ALTER TABLE "agent_run" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "agent_run" ADD COLUMN "lease_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "agent_run" ADD COLUMN "resume_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "agent_run" ADD COLUMN "paused_revision_id" uuid;--> statement-breakpoint
CREATE INDEX "agent_run_lease_idx" ON "agent_run" USING btree ("lease_expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "agent_run_one_active_per_app_idx" ON "agent_run" USING btree ("app_id") WHERE "agent_run"."status" in ('queued', 'running', 'waiting');