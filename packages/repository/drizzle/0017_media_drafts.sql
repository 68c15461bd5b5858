CREATE TABLE "media_drafts" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"source_asset_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"instruction" text NOT NULL,
	"product_revision" integer NOT NULL,
	"status" text NOT NULL,
	"model" text NOT NULL,
	"image_blob_id" uuid,
	"image_width" integer,
	"image_height" integer,
	"failure" jsonb,
	"gallery_entry_id" uuid,
	"idempotency_key" text,
	"created_by" jsonb NOT NULL,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"applied_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_drafts_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE INDEX "media_drafts_product_idx" ON "media_drafts" USING btree ("tenant_id","product_id","created_at");--> statement-breakpoint
CREATE INDEX "media_drafts_status_idx" ON "media_drafts" USING btree ("tenant_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "media_drafts_idempotency_key" ON "media_drafts" USING btree ("tenant_id","idempotency_key") WHERE "media_drafts"."idempotency_key" is not null;--> statement-breakpoint
CREATE INDEX "media_drafts_due" ON "media_drafts" USING btree ("created_at") WHERE "media_drafts"."status" = 'pending';