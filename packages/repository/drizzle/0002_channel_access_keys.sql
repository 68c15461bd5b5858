ALTER TABLE "channels" ADD COLUMN "access_key" text;--> statement-breakpoint
-- Channels created before access keys get one now (same shape as issued keys: shop id + random part).
UPDATE "channels" SET "access_key" = 'cwk_' || replace("tenant_id"::text, '-', '') || '_' || substr(md5(random()::text || "id"::text), 1, 24) WHERE "access_key" IS NULL;--> statement-breakpoint
ALTER TABLE "channels" ALTER COLUMN "access_key" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "channels_access_key_key" ON "channels" USING btree ("tenant_id","access_key");
