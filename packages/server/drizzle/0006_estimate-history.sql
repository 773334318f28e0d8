CREATE TABLE "estimate_versions" (
	"estimate_id" integer NOT NULL,
	"version" integer NOT NULL,
	"withdrawn" boolean DEFAULT false NOT NULL,
	"meta_id" integer,
	"name" text NOT NULL,
	"median" double precision,
	"lower" double precision,
	"upper" double precision,
	"method" text NOT NULL,
	"seed" integer,
	"number_used" integer DEFAULT 0 NOT NULL,
	"reference_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"datasets" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	"cause_kind" text NOT NULL,
	"cause_dataset_id" integer,
	"cause_role" text NOT NULL,
	CONSTRAINT "estimate_versions_estimate_id_version_pk" PRIMARY KEY("estimate_id","version"),
	CONSTRAINT "estimate_versions_version_ck" CHECK ("estimate_versions"."version" >= 1),
	CONSTRAINT "estimate_versions_cause_kind_ck" CHECK ("estimate_versions"."cause_kind" in ('dataset', 'appraisal', 'import', 'lookup', 'initial'))
);
--> statement-breakpoint
CREATE TABLE "estimates" (
	"id" serial PRIMARY KEY NOT NULL,
	"analyte_id" integer NOT NULL,
	"matrix_id" integer,
	"matrix_consolidation_id" integer,
	"var_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "estimates_var_type_ck" CHECK ("estimates"."var_type" in (':cvi', ':cvg')),
	CONSTRAINT "estimates_matrix_or_consolidation_ck" CHECK (("estimates"."matrix_id" is null) <> ("estimates"."matrix_consolidation_id" is null))
);
--> statement-breakpoint
ALTER TABLE "estimate_versions" ADD CONSTRAINT "estimate_versions_estimate_id_estimates_id_fk" FOREIGN KEY ("estimate_id") REFERENCES "public"."estimates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "estimates" ADD CONSTRAINT "estimates_analyte_id_analytes_id_fk" FOREIGN KEY ("analyte_id") REFERENCES "public"."analytes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "estimate_versions_computed_idx" ON "estimate_versions" USING btree ("computed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "estimates_analyte_matrix_type_uq" ON "estimates" USING btree ("analyte_id","matrix_id","var_type") WHERE "estimates"."matrix_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "estimates_analyte_consolidation_type_uq" ON "estimates" USING btree ("analyte_id","matrix_consolidation_id","var_type") WHERE "estimates"."matrix_consolidation_id" is not null;--> statement-breakpoint
-- Existing estimates get their first version (cause "initial", decision 052): one estimate per stored
-- result with a value, version 1 dated when the result last changed (what the site showed since).
INSERT INTO "estimates" ("analyte_id", "matrix_id", "matrix_consolidation_id", "var_type", "created_at")
SELECT "analyte_id", "matrix_id", "matrix_consolidation_id", "var_type", "updated_at"
FROM "meta_calculations" WHERE "median" IS NOT NULL ORDER BY "id";--> statement-breakpoint
INSERT INTO "estimate_versions" ("estimate_id", "version", "meta_id", "name", "median", "lower", "upper", "method", "seed", "number_used", "reference_ids", "datasets", "computed_at", "cause_kind", "cause_dataset_id", "cause_role")
SELECT e."id", 1, m."id", m."name", m."median", m."lower", m."upper", m."method", m."seed", m."number_used", m."reference_ids",
  coalesce((
    SELECT jsonb_agg(jsonb_build_object('id', d."bv_specification_id", 'reference_id', s."reference_id", 'study_id', d."study_id", 'grade', d."grade", 'value', d."cv", 'ci_lower', d."ci_lower", 'ci_upper', d."ci_upper", 'weight', d."weight") ORDER BY d."bv_specification_id")
    FROM "meta_calculation_datasets" d LEFT JOIN "bv_specifications" s ON s."id" = d."bv_specification_id"
    WHERE d."meta_calculation_id" = m."id"
  ), '[]'::jsonb),
  m."updated_at", 'initial', NULL, 'system'
FROM "meta_calculations" m
JOIN "estimates" e ON e."analyte_id" = m."analyte_id" AND e."var_type" = m."var_type"
  AND e."matrix_id" IS NOT DISTINCT FROM m."matrix_id"
  AND e."matrix_consolidation_id" IS NOT DISTINCT FROM m."matrix_consolidation_id"
WHERE m."median" IS NOT NULL;
