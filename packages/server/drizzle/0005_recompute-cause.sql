ALTER TABLE "meta_recompute_requests" ADD COLUMN "cause_kind" text;--> statement-breakpoint
ALTER TABLE "meta_recompute_requests" ADD COLUMN "cause_dataset_id" integer;--> statement-breakpoint
ALTER TABLE "meta_recompute_requests" ADD COLUMN "cause_role" text;--> statement-breakpoint
ALTER TABLE "meta_recompute_requests" ADD CONSTRAINT "meta_recompute_requests_cause_kind_ck" CHECK ("meta_recompute_requests"."cause_kind" is null or "meta_recompute_requests"."cause_kind" in ('dataset', 'appraisal', 'import', 'lookup', 'initial'));