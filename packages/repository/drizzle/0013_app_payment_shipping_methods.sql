ALTER TABLE "payment_methods" ADD COLUMN "app_id" text;--> statement-breakpoint
ALTER TABLE "shipping_methods" ADD COLUMN "app_id" text;