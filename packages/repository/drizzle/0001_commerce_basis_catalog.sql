CREATE TABLE "countries" (
	"tenant_id" uuid NOT NULL,
	"code" text NOT NULL,
	"translations" jsonb NOT NULL,
	"subdivisions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "countries_tenant_id_code_pk" PRIMARY KEY("tenant_id","code")
);
--> statement-breakpoint
CREATE TABLE "currencies" (
	"tenant_id" uuid NOT NULL,
	"code" text NOT NULL,
	"precision" integer NOT NULL,
	"symbol" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "currencies_tenant_id_code_pk" PRIMARY KEY("tenant_id","code")
);
--> statement-breakpoint
CREATE TABLE "languages" (
	"tenant_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "languages_tenant_id_code_pk" PRIMARY KEY("tenant_id","code")
);
--> statement-breakpoint
CREATE TABLE "payment_methods" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"key" text,
	"translations" jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"handler" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_methods_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "shipping_methods" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"key" text,
	"translations" jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"prices" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tax_class_id" uuid,
	"position" integer DEFAULT 0 NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shipping_methods_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "tax_classes" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"key" text,
	"translations" jsonb NOT NULL,
	"rates" jsonb NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_classes_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"parent_id" uuid,
	"translations" jsonb NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "categories_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "product_reviews" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"customer_id" uuid,
	"author_name" text NOT NULL,
	"rating" integer NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"language" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_reviews_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"parent_id" uuid,
	"sku" text NOT NULL,
	"active" boolean,
	"translations" jsonb,
	"prices" jsonb,
	"purchase_prices" jsonb,
	"tax_class_id" uuid,
	"stock_available" integer DEFAULT 0 NOT NULL,
	"stock_reserved" integer DEFAULT 0 NOT NULL,
	"weight_grams" integer,
	"width_mm" integer,
	"height_mm" integer,
	"length_mm" integer,
	"manufacturer" text,
	"category_ids" uuid[],
	"tags" text[],
	"properties" jsonb,
	"options" jsonb,
	"release_date" date,
	"flags" jsonb,
	"custom_fields" jsonb,
	"rule_metadata" jsonb,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "payment_methods_key_key" ON "payment_methods" USING btree ("tenant_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "shipping_methods_key_key" ON "shipping_methods" USING btree ("tenant_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_classes_key_key" ON "tax_classes" USING btree ("tenant_id","key");--> statement-breakpoint
CREATE INDEX "product_reviews_product_idx" ON "product_reviews" USING btree ("tenant_id","product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "products_sku_key" ON "products" USING btree ("tenant_id",lower("sku"));--> statement-breakpoint
CREATE INDEX "products_parent_idx" ON "products" USING btree ("tenant_id","parent_id");