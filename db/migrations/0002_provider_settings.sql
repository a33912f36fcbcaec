CREATE TABLE "provider_setting" (
	"provider" text PRIMARY KEY NOT NULL,
	"api_key_ciphertext" text,
	"api_key_hint" text,
	"base_url" text,
	"models" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
