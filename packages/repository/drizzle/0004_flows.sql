CREATE TABLE "flow_jobs" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"flow_id" uuid NOT NULL,
	"flow_revision" integer NOT NULL,
	"event_sequence" bigint NOT NULL,
	"event_name" text NOT NULL,
	"subject" jsonb NOT NULL,
	"definition" jsonb NOT NULL,
	"actor" jsonb NOT NULL,
	"status" text NOT NULL,
	"current_node" text,
	"trace" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"available_at" timestamp with time zone NOT NULL,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"error" jsonb,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "flow_jobs_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "step_receipts" (
	"tenant_id" uuid NOT NULL,
	"key" text NOT NULL,
	"job_id" uuid NOT NULL,
	"node_id" text NOT NULL,
	"status" text NOT NULL,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "step_receipts_tenant_id_key_pk" PRIMARY KEY("tenant_id","key")
);
--> statement-breakpoint
ALTER TABLE "definitions" ADD COLUMN "saved_by" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "flow_jobs_event_key" ON "flow_jobs" USING btree ("tenant_id","flow_id","event_sequence");--> statement-breakpoint
CREATE INDEX "flow_jobs_recent" ON "flow_jobs" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "flow_jobs_due" ON "flow_jobs" USING btree ("available_at") WHERE "flow_jobs"."status" in ('queued', 'waiting', 'running');--> statement-breakpoint
CREATE INDEX "step_receipts_job" ON "step_receipts" USING btree ("tenant_id","job_id");