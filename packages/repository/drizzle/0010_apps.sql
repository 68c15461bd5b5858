-- Apps (issue 15): installed apps, every version a shop ran, and the records of apps' entities.
CREATE TABLE "app_records" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"app_id" text NOT NULL,
	"entity" text NOT NULL,
	"data" jsonb NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_records_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "app_versions" (
	"tenant_id" uuid NOT NULL,
	"app_id" text NOT NULL,
	"version" text NOT NULL,
	"manifest" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_versions_tenant_id_app_id_version_pk" PRIMARY KEY("tenant_id","app_id","version")
);
--> statement-breakpoint
CREATE TABLE "apps" (
	"tenant_id" uuid NOT NULL,
	"app_id" text NOT NULL,
	"version" text NOT NULL,
	"manifest" jsonb NOT NULL,
	"action_settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "apps_tenant_id_app_id_pk" PRIMARY KEY("tenant_id","app_id")
);
--> statement-breakpoint
CREATE INDEX "app_records_entity_idx" ON "app_records" USING btree ("tenant_id","app_id","entity","id");--> statement-breakpoint
CREATE INDEX "app_records_data_idx" ON "app_records" USING gin ("data" jsonb_path_ops);