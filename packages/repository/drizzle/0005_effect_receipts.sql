-- step_receipts becomes effect_receipts: renamed in place, so every stored receipt stays as it was.
-- Every receipt stored so far is a flow step's, so the new `scope` column is 'flow' for them.
ALTER TABLE "step_receipts" RENAME TO "effect_receipts";--> statement-breakpoint
ALTER TABLE "effect_receipts" RENAME COLUMN "job_id" TO "scope_id";--> statement-breakpoint
ALTER TABLE "effect_receipts" RENAME COLUMN "node_id" TO "step";--> statement-breakpoint
ALTER TABLE "effect_receipts" ALTER COLUMN "step" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "effect_receipts" ADD COLUMN "scope" text DEFAULT 'flow' NOT NULL;--> statement-breakpoint
ALTER TABLE "effect_receipts" ALTER COLUMN "scope" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "effect_receipts" RENAME CONSTRAINT "step_receipts_tenant_id_key_pk" TO "effect_receipts_tenant_id_key_pk";--> statement-breakpoint
ALTER INDEX "step_receipts_job" RENAME TO "effect_receipts_scope_idx";
