CREATE TABLE "product_galleries" (
	"tenant_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_galleries_tenant_id_product_id_pk" PRIMARY KEY("tenant_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "product_gallery_entries" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"asset_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"is_cover" boolean DEFAULT false NOT NULL,
	"alt_texts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text NOT NULL,
	"draft_id" uuid,
	"published_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_gallery_entries_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "product_media_assets" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"blob_id" uuid NOT NULL,
	"format" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"byte_size" integer NOT NULL,
	"sha256" text NOT NULL,
	"source" text NOT NULL,
	"source_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_media_assets_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE INDEX "product_gallery_entries_product_idx" ON "product_gallery_entries" USING btree ("tenant_id","product_id","position");--> statement-breakpoint
CREATE INDEX "product_gallery_entries_asset_idx" ON "product_gallery_entries" USING btree ("tenant_id","asset_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_gallery_entries_one_cover" ON "product_gallery_entries" USING btree ("tenant_id","product_id") WHERE "product_gallery_entries"."is_cover";--> statement-breakpoint
CREATE INDEX "product_media_assets_product_idx" ON "product_media_assets" USING btree ("tenant_id","product_id","created_at");