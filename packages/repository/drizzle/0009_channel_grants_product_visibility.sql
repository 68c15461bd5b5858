ALTER TABLE "products" ADD COLUMN "visibilities" jsonb;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "channel_id" uuid;