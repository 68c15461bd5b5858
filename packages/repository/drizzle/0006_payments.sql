CREATE TABLE "payment_attempts" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"environment" text NOT NULL,
	"adapter_version" integer NOT NULL,
	"contract_fixture" boolean NOT NULL,
	"merchant_id" text,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"precision" integer NOT NULL,
	"reserved" jsonb NOT NULL,
	"request_ids" jsonb NOT NULL,
	"status" text NOT NULL,
	"provider_order_id" text,
	"approval_url" text,
	"state" jsonb NOT NULL,
	"refunds" jsonb,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_attempts_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "payment_jobs" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"attempt_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"subject_id" text,
	"status" text NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"available_at" timestamp with time zone NOT NULL,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"error" jsonb,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_jobs_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "payment_webhook_events" (
	"tenant_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"resource_id" text,
	"body" text NOT NULL,
	"status" text NOT NULL,
	"attempt_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone,
	CONSTRAINT "payment_webhook_events_tenant_id_event_id_pk" PRIMARY KEY("tenant_id","event_id")
);
--> statement-breakpoint
CREATE INDEX "payment_attempts_order" ON "payment_attempts" USING btree ("tenant_id","order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_provider_order_key" ON "payment_attempts" USING btree ("tenant_id","provider_order_id") WHERE "payment_attempts"."provider_order_id" is not null;--> statement-breakpoint
CREATE INDEX "payment_attempts_open" ON "payment_attempts" USING btree ("tenant_id","status","updated_at");--> statement-breakpoint
CREATE INDEX "payment_attempts_sweep" ON "payment_attempts" USING btree ("updated_at") WHERE "payment_attempts"."status" in ('awaiting_approval', 'capturing', 'pending_capture', 'uncertain');--> statement-breakpoint
CREATE INDEX "payment_jobs_attempt" ON "payment_jobs" USING btree ("tenant_id","attempt_id","created_at");--> statement-breakpoint
CREATE INDEX "payment_jobs_due" ON "payment_jobs" USING btree ("available_at") WHERE "payment_jobs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "payment_webhook_events_received" ON "payment_webhook_events" USING btree ("tenant_id","created_at");