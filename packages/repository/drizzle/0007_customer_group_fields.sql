-- The two native customer groups get a per-shop row for what a shop stores on them (custom fields).
CREATE TABLE "customer_groups" (
	"tenant_id" uuid NOT NULL,
	"customer_group" text NOT NULL,
	"custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_step_key" text,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_groups_tenant_id_customer_group_pk" PRIMARY KEY("tenant_id","customer_group")
);
