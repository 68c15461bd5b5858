CREATE TABLE "api_tokens" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"user_id" uuid,
	"role" text,
	"permissions" text[],
	"token_hash" text NOT NULL,
	"hint" text NOT NULL,
	"created_by" uuid,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_tokens_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "channels" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"key" text,
	"is_main" boolean DEFAULT false NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"base_revision" integer DEFAULT 1 NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "channels_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "definitions" (
	"tenant_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"id" uuid NOT NULL,
	"key" text,
	"revision" integer DEFAULT 1 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "definitions_tenant_id_kind_id_pk" PRIMARY KEY("tenant_id","kind","id")
);
--> statement-breakpoint
CREATE TABLE "event_statistics" (
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"last_sequence" bigint NOT NULL,
	"last_occurred_at" timestamp with time zone NOT NULL,
	CONSTRAINT "event_statistics_tenant_id_name_pk" PRIMARY KEY("tenant_id","name")
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"permissions" text[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memberships_tenant_id_user_id_pk" PRIMARY KEY("tenant_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "outbox_cursors" (
	"tenant_id" uuid NOT NULL,
	"consumer" text NOT NULL,
	"position" bigint DEFAULT 0 NOT NULL,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outbox_cursors_tenant_id_consumer_pk" PRIMARY KEY("tenant_id","consumer")
);
--> statement-breakpoint
CREATE TABLE "outbox_events" (
	"tenant_id" uuid NOT NULL,
	"sequence" bigint NOT NULL,
	"id" uuid NOT NULL,
	"name" text NOT NULL,
	"payload" jsonb NOT NULL,
	"actor" jsonb NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	CONSTRAINT "outbox_events_tenant_id_sequence_pk" PRIMARY KEY("tenant_id","sequence")
);
--> statement-breakpoint
CREATE TABLE "outbox_receipts" (
	"tenant_id" uuid NOT NULL,
	"consumer" text NOT NULL,
	"event_sequence" bigint NOT NULL,
	"processed_by" text NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outbox_receipts_tenant_id_consumer_event_sequence_pk" PRIMARY KEY("tenant_id","consumer","event_sequence")
);
--> statement-breakpoint
CREATE TABLE "starter_provisions" (
	"tenant_id" uuid NOT NULL,
	"key" text NOT NULL,
	"definition_id" uuid NOT NULL,
	"provisioned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "starter_provisions_tenant_id_key_pk" PRIMARY KEY("tenant_id","key")
);
--> statement-breakpoint
CREATE TABLE "tenant_counters" (
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"value" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "tenant_counters_tenant_id_name_pk" PRIMARY KEY("tenant_id","name")
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"stage" text DEFAULT 'live' NOT NULL,
	"source_tenant_id" uuid,
	"main_language" text DEFAULT 'en' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_hash_key" ON "api_tokens" USING btree ("tenant_id","token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "channels_key_key" ON "channels" USING btree ("tenant_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "channels_main_key" ON "channels" USING btree ("tenant_id") WHERE "channels"."is_main";--> statement-breakpoint
CREATE UNIQUE INDEX "definitions_key_key" ON "definitions" USING btree ("tenant_id","kind","key");--> statement-breakpoint
CREATE INDEX "memberships_user_idx" ON "memberships" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_events_id_key" ON "outbox_events" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "outbox_events_name_idx" ON "outbox_events" USING btree ("tenant_id","name","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree (lower("email"));