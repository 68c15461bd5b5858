CREATE TABLE "company_identities" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"data" jsonb NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer_addresses" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"address" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_addresses_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "customer_history" (
	"tenant_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"order_count" integer DEFAULT 0 NOT NULL,
	"total_spent" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_order_at" timestamp with time zone,
	"review_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "customer_history_tenant_id_customer_id_pk" PRIMARY KEY("tenant_id","customer_id")
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"email" text NOT NULL,
	"customer_group" text DEFAULT 'consumer' NOT NULL,
	"salutation" text,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"birthday" date,
	"company" text,
	"vat_id" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"affiliate_code" text,
	"campaign_code" text,
	"active" boolean DEFAULT true NOT NULL,
	"guest" boolean DEFAULT false NOT NULL,
	"newsletter" boolean DEFAULT false NOT NULL,
	"password_hash" text,
	"first_login_at" timestamp with time zone,
	"last_login_at" timestamp with time zone,
	"created_by_admin" boolean DEFAULT false NOT NULL,
	"default_billing_address_id" uuid,
	"default_shipping_address_id" uuid,
	"rule_metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customers_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "store_contexts" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"channel_id" uuid NOT NULL,
	"customer_id" uuid,
	"language" text,
	"currency" text,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_contexts_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "blobs" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blobs_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "carts" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"context_id" uuid NOT NULL,
	"channel_id" uuid NOT NULL,
	"customer_id" uuid,
	"currency" text NOT NULL,
	"language" text NOT NULL,
	"lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"billing_address" jsonb,
	"shipping_address" jsonb,
	"shipping_method_id" uuid,
	"payment_method_id" uuid,
	"status" text DEFAULT 'open' NOT NULL,
	"order_id" uuid,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "carts_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"type" text NOT NULL,
	"number" bigint NOT NULL,
	"blob_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"snapshot" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "documents_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "download_entitlements" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"customer_id" uuid,
	"asset_id" uuid NOT NULL,
	"granted_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"downloads" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "download_entitlements_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "order_activities" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"author" jsonb NOT NULL,
	"text" text,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_activities_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"number" bigint NOT NULL,
	"channel_id" uuid NOT NULL,
	"customer_id" uuid,
	"cart_id" uuid,
	"currency" text NOT NULL,
	"language" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"payment_state" text DEFAULT 'open' NOT NULL,
	"delivery_state" text DEFAULT 'open' NOT NULL,
	"price" jsonb NOT NULL,
	"lines" jsonb NOT NULL,
	"customer" jsonb NOT NULL,
	"billing_address" jsonb NOT NULL,
	"shipping_address" jsonb NOT NULL,
	"shipping_method" jsonb NOT NULL,
	"payment_method" jsonb NOT NULL,
	"settings_snapshot" jsonb NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"affiliate_code" text,
	"campaign_code" text,
	"rule_metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"idempotency_key" text,
	"idempotency_fingerprint" text,
	"revision" integer DEFAULT 1 NOT NULL,
	"placed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "product_assets" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"blob_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_assets_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "stock_reservations" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"sku" text NOT NULL,
	"quantity" integer NOT NULL,
	"status" text DEFAULT 'reserved' NOT NULL,
	"released_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_reservations_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE INDEX "customer_addresses_customer_idx" ON "customer_addresses" USING btree ("tenant_id","customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "customers_email_key" ON "customers" USING btree ("tenant_id",lower("email")) WHERE not "customers"."guest";--> statement-breakpoint
CREATE UNIQUE INDEX "store_contexts_token_key" ON "store_contexts" USING btree ("tenant_id","token_hash");--> statement-breakpoint
CREATE INDEX "store_contexts_customer_idx" ON "store_contexts" USING btree ("tenant_id","customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "carts_open_context_key" ON "carts" USING btree ("tenant_id","context_id") WHERE "carts"."status" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "documents_number_key" ON "documents" USING btree ("tenant_id","type","number");--> statement-breakpoint
CREATE INDEX "documents_order_idx" ON "documents" USING btree ("tenant_id","order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "download_entitlements_key" ON "download_entitlements" USING btree ("tenant_id","order_id","asset_id");--> statement-breakpoint
CREATE INDEX "order_activities_order_idx" ON "order_activities" USING btree ("tenant_id","order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_number_key" ON "orders" USING btree ("tenant_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_idempotency_key" ON "orders" USING btree ("tenant_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "orders_customer_idx" ON "orders" USING btree ("tenant_id","customer_id");--> statement-breakpoint
CREATE INDEX "product_assets_product_idx" ON "product_assets" USING btree ("tenant_id","product_id");--> statement-breakpoint
CREATE INDEX "stock_reservations_order_idx" ON "stock_reservations" USING btree ("tenant_id","order_id");