-- Promotions (issue 14): the codes a cart holds, and one row per promotion an order redeemed.
CREATE TABLE "promotion_redemptions" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"promotion_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"code" text,
	"rule_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promotion_redemptions_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "carts" ADD COLUMN "promotion_codes" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "promotion_redemptions_order_key" ON "promotion_redemptions" USING btree ("tenant_id","promotion_id","order_id");--> statement-breakpoint
CREATE INDEX "promotion_redemptions_code_idx" ON "promotion_redemptions" USING btree ("tenant_id","promotion_id","code");