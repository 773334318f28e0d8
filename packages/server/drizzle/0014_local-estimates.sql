CREATE TABLE "local_estimates" (
	"id" serial PRIMARY KEY NOT NULL,
	"analyte_id" integer NOT NULL,
	"matrix_id" integer,
	"laboratory" text NOT NULL,
	"method" text NOT NULL,
	"cv_total" double precision NOT NULL,
	"cva" double precision NOT NULL,
	"cvi" double precision NOT NULL,
	"cvi_lower" double precision,
	"cvi_upper" double precision,
	"pairs" integer NOT NULL,
	"patients" integer NOT NULL,
	"results" integer NOT NULL,
	"min_days" integer NOT NULL,
	"max_days" integer NOT NULL,
	"pairs_per_patient" text NOT NULL,
	"period" text,
	"note" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "local_estimates" ADD CONSTRAINT "local_estimates_analyte_id_analytes_id_fk" FOREIGN KEY ("analyte_id") REFERENCES "public"."analytes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "local_estimates" ADD CONSTRAINT "local_estimates_matrix_id_matrices_id_fk" FOREIGN KEY ("matrix_id") REFERENCES "public"."matrices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "local_estimates" ADD CONSTRAINT "local_estimates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "local_estimates_analyte_idx" ON "local_estimates" USING btree ("analyte_id");