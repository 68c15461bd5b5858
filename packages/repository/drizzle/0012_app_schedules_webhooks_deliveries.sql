CREATE TABLE "app_deliveries" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"app_id" text NOT NULL,
	"event_id" uuid NOT NULL,
	"event_name" text NOT NULL,
	"sequence" bigint NOT NULL,
	"payload" jsonb NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"available_at" timestamp with time zone NOT NULL,
	"last_status_code" integer,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_deliveries_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "app_delivery_attempts" (
	"tenant_id" uuid NOT NULL,
	"delivery_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"status_code" integer,
	"outcome" text NOT NULL,
	"error" text,
	CONSTRAINT "app_delivery_attempts_tenant_id_delivery_id_attempt_pk" PRIMARY KEY("tenant_id","delivery_id","attempt")
);
--> statement-breakpoint
CREATE TABLE "app_delivery_circuits" (
	"tenant_id" uuid NOT NULL,
	"app_id" text NOT NULL,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"opened_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "app_delivery_circuits_tenant_id_app_id_pk" PRIMARY KEY("tenant_id","app_id")
);
--> statement-breakpoint
CREATE TABLE "app_schedule_ticks" (
	"tenant_id" uuid NOT NULL,
	"app_id" text NOT NULL,
	"schedule_id" text NOT NULL,
	"tick_at" timestamp with time zone NOT NULL,
	"missed" integer DEFAULT 0 NOT NULL,
	"event_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_schedule_ticks_tenant_id_app_id_schedule_id_tick_at_pk" PRIMARY KEY("tenant_id","app_id","schedule_id","tick_at")
);
--> statement-breakpoint
CREATE TABLE "app_schedules" (
	"tenant_id" uuid NOT NULL,
	"app_id" text NOT NULL,
	"schedule_id" text NOT NULL,
	"cron" text NOT NULL,
	"action" text NOT NULL,
	"input" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"next_tick_at" timestamp with time zone NOT NULL,
	"last_tick_at" timestamp with time zone,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_schedules_tenant_id_app_id_schedule_id_pk" PRIMARY KEY("tenant_id","app_id","schedule_id")
);
--> statement-breakpoint
CREATE TABLE "app_webhook_receipts" (
	"tenant_id" uuid NOT NULL,
	"app_id" text NOT NULL,
	"event_id" text NOT NULL,
	"webhook_id" text NOT NULL,
	"body_sha256" text NOT NULL,
	"status" integer NOT NULL,
	"response" jsonb NOT NULL,
	"outbox_event_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_webhook_receipts_tenant_id_app_id_event_id_pk" PRIMARY KEY("tenant_id","app_id","event_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "app_deliveries_event_key" ON "app_deliveries" USING btree ("tenant_id","app_id","event_id");--> statement-breakpoint
CREATE INDEX "app_deliveries_app" ON "app_deliveries" USING btree ("tenant_id","app_id","created_at");--> statement-breakpoint
CREATE INDEX "app_deliveries_due" ON "app_deliveries" USING btree ("available_at") WHERE "app_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "app_schedules_due" ON "app_schedules" USING btree ("next_tick_at") WHERE "app_schedules"."enabled";