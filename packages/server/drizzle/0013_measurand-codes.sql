CREATE TABLE "measurand_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"analyte_id" integer NOT NULL,
	"system" text NOT NULL,
	"code" text NOT NULL,
	"display" text,
	"matrix_id" integer,
	"ucum_unit" text,
	"source" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "measurand_codes" ADD CONSTRAINT "measurand_codes_analyte_id_analytes_id_fk" FOREIGN KEY ("analyte_id") REFERENCES "public"."analytes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measurand_codes" ADD CONSTRAINT "measurand_codes_matrix_id_matrices_id_fk" FOREIGN KEY ("matrix_id") REFERENCES "public"."matrices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "measurand_codes_system_code_uq" ON "measurand_codes" USING btree ("system","code");--> statement-breakpoint
CREATE INDEX "measurand_codes_analyte_idx" ON "measurand_codes" USING btree ("analyte_id");--> statement-breakpoint
-- Written by hand after drizzle-kit's part (decision 091): a measurand's codes changed is the
-- measurand changed, in the change log the menu's catalogue and the feeds follow, as its names are
-- (the function of 0012 takes NEW/OLD."analyte_id" of either table).
CREATE TRIGGER "change_log_measurand_codes" AFTER INSERT OR UPDATE OR DELETE ON "measurand_codes"
  FOR EACH ROW EXECUTE FUNCTION "change_log_measurand_names"();--> statement-breakpoint
-- The code fields a measurand and its datasets already have feed the table once (issue 45.1): the
-- measurand's own first, then its datasets' with their matrix. A code already taken (by another
-- measurand, or twice) is left out: a code names one measurand.
INSERT INTO "measurand_codes" ("analyte_id", "system", "code", "source")
SELECT "id", s.system, trim(s.code), 'the measurand record'
FROM "analytes", LATERAL (VALUES ('http://loinc.org', "loinc"), ('http://npu-terminology.org', "npu"), ('http://snomed.info/sct', "snomed_ct")) AS s(system, code)
WHERE coalesce(trim(s.code), '') <> ''
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "measurand_codes" ("analyte_id", "system", "code", "matrix_id", "source")
SELECT DISTINCT ON (s.system, trim(s.code)) d."analyte_id", s.system, trim(s.code), d."matrix_id", 'dataset ' || d."id"
FROM "bv_specifications" d, LATERAL (VALUES ('http://loinc.org', d."loinc"), ('http://npu-terminology.org', d."npu"), ('http://snomed.info/sct', d."snomed_ct")) AS s(system, code)
WHERE coalesce(trim(s.code), '') <> ''
ORDER BY s.system, trim(s.code), d."id"
ON CONFLICT DO NOTHING;
