CREATE TABLE "proposals" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"summary" text NOT NULL,
	"reason" text,
	"operations" jsonb NOT NULL,
	"created_by" jsonb NOT NULL,
	"source_key" text,
	"subject" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"decided_by" jsonb,
	"decided_at" timestamp with time zone,
	"decision" jsonb,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "proposals_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE INDEX "proposals_recent" ON "proposals" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "proposals_status_recent" ON "proposals" USING btree ("tenant_id","status","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "proposals_source_key" ON "proposals" USING btree ("tenant_id","source_key");