CREATE TABLE "intelligence_orders" (
	"tenant_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "intelligence_orders_tenant_id_order_id_pk" PRIMARY KEY("tenant_id","order_id")
);
--> statement-breakpoint
CREATE TABLE "intelligence_pairs" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"product_a_id" uuid NOT NULL,
	"product_b_id" uuid NOT NULL,
	"observed" integer DEFAULT 0 NOT NULL,
	"manual" integer DEFAULT 0 NOT NULL,
	"simulated" integer DEFAULT 0 NOT NULL,
	"sandbox" integer DEFAULT 0 NOT NULL,
	"source_events" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'candidate' NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "intelligence_pairs_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "intelligence_products" (
	"tenant_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"observed" integer DEFAULT 0 NOT NULL,
	"manual" integer DEFAULT 0 NOT NULL,
	"simulated" integer DEFAULT 0 NOT NULL,
	"sandbox" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "intelligence_products_tenant_id_product_id_pk" PRIMARY KEY("tenant_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "intelligence_totals" (
	"tenant_id" uuid NOT NULL,
	"observed" integer DEFAULT 0 NOT NULL,
	"manual" integer DEFAULT 0 NOT NULL,
	"simulated" integer DEFAULT 0 NOT NULL,
	"sandbox" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "intelligence_totals_tenant_id_pk" PRIMARY KEY("tenant_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "intelligence_pairs_products_key" ON "intelligence_pairs" USING btree ("tenant_id","product_a_id","product_b_id");--> statement-breakpoint
CREATE INDEX "intelligence_pairs_product_b" ON "intelligence_pairs" USING btree ("tenant_id","product_b_id");