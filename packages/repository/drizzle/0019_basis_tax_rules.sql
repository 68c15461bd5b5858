CREATE TABLE "tax_rules" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"country" text NOT NULL,
	"state" text,
	"postcode" jsonb,
	"valid_from" text,
	"valid_until" text,
	"priority" integer DEFAULT 0 NOT NULL,
	"rule_id" uuid,
	"tax_class_id" uuid,
	"rate" integer NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_rules_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
