CREATE TABLE "analytes" (
	"id" serial PRIMARY KEY NOT NULL,
	"display_name" text NOT NULL,
	"full_name" text,
	"alternate_names" text[] DEFAULT '{}'::text[] NOT NULL,
	"loinc" text,
	"npu" text,
	"snomed_ct" text,
	"default" boolean DEFAULT false NOT NULL,
	"display_data" boolean DEFAULT true NOT NULL,
	"is_demo" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytical_principle_methods" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "analytical_principle_methods_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "app_state" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"entity" text NOT NULL,
	"entity_id" integer NOT NULL,
	"action" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "audit_action_ck" CHECK ("audit_log"."action" in ('create', 'update', 'delete'))
);
--> statement-breakpoint
CREATE TABLE "bv_specification_disease_states" (
	"bv_specification_id" integer NOT NULL,
	"disease_state_id" integer NOT NULL,
	CONSTRAINT "bv_specification_disease_states_bv_specification_id_disease_state_id_pk" PRIMARY KEY("bv_specification_id","disease_state_id")
);
--> statement-breakpoint
CREATE TABLE "bv_specifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"unique_identifier" text NOT NULL,
	"reference_id" integer NOT NULL,
	"analyte_id" integer NOT NULL,
	"matrix_id" integer NOT NULL,
	"scale" text DEFAULT 'A' NOT NULL,
	"study_population" text DEFAULT 'A' NOT NULL,
	"samples" text DEFAULT 'A' NOT NULL,
	"measurand" text DEFAULT 'A' NOT NULL,
	"pre_analytical" text DEFAULT 'A' NOT NULL,
	"replicate_analysis" text DEFAULT 'A' NOT NULL,
	"steady_state" text DEFAULT 'A' NOT NULL,
	"outlier_analysis" text DEFAULT 'A' NOT NULL,
	"normality" text DEFAULT 'A' NOT NULL,
	"variance_homogeneity" text DEFAULT 'A' NOT NULL,
	"anova" text DEFAULT 'A' NOT NULL,
	"ci" text DEFAULT 'A' NOT NULL,
	"number_of_results" text DEFAULT 'A' NOT NULL,
	"concentrations" text DEFAULT 'A' NOT NULL,
	"scoring_comment" text,
	"age_min" double precision,
	"age_max" double precision,
	"age_mean" double precision,
	"age_sd" double precision,
	"state_of_well_being_id" integer,
	"ethnicity_id" integer,
	"study_duration" double precision,
	"study_duration_units" text,
	"number_of_subjects" integer,
	"number_of_males" integer,
	"number_of_females" integer,
	"number_of_subjects_included_in_bv_estimation" integer,
	"samples_per" double precision,
	"interval_units" text,
	"sampling_times_start_time" text,
	"sampling_times_end_time" text,
	"average_number_of_samples_used_for_bv_estimation" double precision,
	"average_number_of_replicates" double precision,
	"preanalytical_issues" text,
	"estimates_of_cvi" double precision,
	"reported_cvi_lower_confidence_interval" double precision,
	"reported_cvi_upper_confidence_interval" double precision,
	"estimates_of_cvg" double precision,
	"reported_cvg_lower_confidence_interval" double precision,
	"reported_cvg_upper_confidence_interval" double precision,
	"calculated_within_bv_lower_ci" double precision,
	"calculated_within_bv_upper_ci" double precision,
	"calculated_between_bv_lower_ci" double precision,
	"calculated_between_bv_upper_ci" double precision,
	"analytical_cv" double precision,
	"concentration_mean" double precision,
	"concentration_min" double precision,
	"concentration_max" double precision,
	"concentration_sd" double precision,
	"concentration_standard_unit_mean" double precision,
	"concentration_standard_unit_min" double precision,
	"concentration_standard_unit_max" double precision,
	"concentration_standard_unit_sd" double precision,
	"unit_id" integer,
	"second_unit_id" integer,
	"standard_unit_for_reporting_of_analyte" text,
	"second_standard_unit" text,
	"overall_principle_method_id" integer,
	"healthy" boolean DEFAULT false NOT NULL,
	"adult" boolean DEFAULT false NOT NULL,
	"weekly_samplings" boolean DEFAULT false NOT NULL,
	"review" boolean DEFAULT false NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"include_in_meta_analysis" boolean DEFAULT false NOT NULL,
	"sex_for_meta_analysis" text,
	"snomed_ct" text,
	"npu" text,
	"loinc" text,
	"comment" text,
	"is_demo" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bvs_scale_grade_ck" CHECK ("scale" in ('A', 'B', 'NA')),
	CONSTRAINT "bvs_study_population_grade_ck" CHECK ("study_population" in ('A', 'B', 'C', 'D', 'NA')),
	CONSTRAINT "bvs_samples_grade_ck" CHECK ("samples" in ('A', 'B', 'C', 'D', 'NA')),
	CONSTRAINT "bvs_measurand_grade_ck" CHECK ("measurand" in ('A', 'B', 'C', 'D', 'NA')),
	CONSTRAINT "bvs_pre_analytical_grade_ck" CHECK ("pre_analytical" in ('A', 'B', 'C', 'NA')),
	CONSTRAINT "bvs_replicate_analysis_grade_ck" CHECK ("replicate_analysis" in ('A', 'B', 'C', 'NA')),
	CONSTRAINT "bvs_steady_state_grade_ck" CHECK ("steady_state" in ('A', 'B', 'C', 'NA')),
	CONSTRAINT "bvs_outlier_analysis_grade_ck" CHECK ("outlier_analysis" in ('A', 'B', 'C', 'NA')),
	CONSTRAINT "bvs_normality_grade_ck" CHECK ("normality" in ('A', 'B', 'NA')),
	CONSTRAINT "bvs_variance_homogeneity_grade_ck" CHECK ("variance_homogeneity" in ('A', 'C', 'NA')),
	CONSTRAINT "bvs_anova_grade_ck" CHECK ("anova" in ('A', 'B', 'C', 'NA')),
	CONSTRAINT "bvs_ci_grade_ck" CHECK ("ci" in ('A', 'C', 'NA')),
	CONSTRAINT "bvs_number_of_results_grade_ck" CHECK ("number_of_results" in ('A', 'B', 'C', 'NA')),
	CONSTRAINT "bvs_concentrations_grade_ck" CHECK ("concentrations" in ('A', 'B', 'NA')),
	CONSTRAINT "bvs_age_min_nonneg_ck" CHECK ("age_min" is null or "age_min" >= 0),
	CONSTRAINT "bvs_age_max_nonneg_ck" CHECK ("age_max" is null or "age_max" >= 0),
	CONSTRAINT "bvs_age_mean_nonneg_ck" CHECK ("age_mean" is null or "age_mean" >= 0),
	CONSTRAINT "bvs_age_sd_nonneg_ck" CHECK ("age_sd" is null or "age_sd" >= 0),
	CONSTRAINT "bvs_study_duration_nonneg_ck" CHECK ("study_duration" is null or "study_duration" >= 0),
	CONSTRAINT "bvs_number_of_subjects_nonneg_ck" CHECK ("number_of_subjects" is null or "number_of_subjects" >= 0),
	CONSTRAINT "bvs_number_of_males_nonneg_ck" CHECK ("number_of_males" is null or "number_of_males" >= 0),
	CONSTRAINT "bvs_number_of_females_nonneg_ck" CHECK ("number_of_females" is null or "number_of_females" >= 0),
	CONSTRAINT "bvs_number_of_subjects_included_in_bv_estimation_nonneg_ck" CHECK ("number_of_subjects_included_in_bv_estimation" is null or "number_of_subjects_included_in_bv_estimation" >= 0),
	CONSTRAINT "bvs_samples_per_nonneg_ck" CHECK ("samples_per" is null or "samples_per" >= 0),
	CONSTRAINT "bvs_average_number_of_samples_used_for_bv_estimation_nonneg_ck" CHECK ("average_number_of_samples_used_for_bv_estimation" is null or "average_number_of_samples_used_for_bv_estimation" >= 0),
	CONSTRAINT "bvs_average_number_of_replicates_nonneg_ck" CHECK ("average_number_of_replicates" is null or "average_number_of_replicates" >= 0),
	CONSTRAINT "bvs_estimates_of_cvi_nonneg_ck" CHECK ("estimates_of_cvi" is null or "estimates_of_cvi" >= 0),
	CONSTRAINT "bvs_reported_cvi_lower_confidence_interval_nonneg_ck" CHECK ("reported_cvi_lower_confidence_interval" is null or "reported_cvi_lower_confidence_interval" >= 0),
	CONSTRAINT "bvs_reported_cvi_upper_confidence_interval_nonneg_ck" CHECK ("reported_cvi_upper_confidence_interval" is null or "reported_cvi_upper_confidence_interval" >= 0),
	CONSTRAINT "bvs_estimates_of_cvg_nonneg_ck" CHECK ("estimates_of_cvg" is null or "estimates_of_cvg" >= 0),
	CONSTRAINT "bvs_reported_cvg_lower_confidence_interval_nonneg_ck" CHECK ("reported_cvg_lower_confidence_interval" is null or "reported_cvg_lower_confidence_interval" >= 0),
	CONSTRAINT "bvs_reported_cvg_upper_confidence_interval_nonneg_ck" CHECK ("reported_cvg_upper_confidence_interval" is null or "reported_cvg_upper_confidence_interval" >= 0),
	CONSTRAINT "bvs_calculated_within_bv_lower_ci_nonneg_ck" CHECK ("calculated_within_bv_lower_ci" is null or "calculated_within_bv_lower_ci" >= 0),
	CONSTRAINT "bvs_calculated_within_bv_upper_ci_nonneg_ck" CHECK ("calculated_within_bv_upper_ci" is null or "calculated_within_bv_upper_ci" >= 0),
	CONSTRAINT "bvs_calculated_between_bv_lower_ci_nonneg_ck" CHECK ("calculated_between_bv_lower_ci" is null or "calculated_between_bv_lower_ci" >= 0),
	CONSTRAINT "bvs_calculated_between_bv_upper_ci_nonneg_ck" CHECK ("calculated_between_bv_upper_ci" is null or "calculated_between_bv_upper_ci" >= 0),
	CONSTRAINT "bvs_analytical_cv_nonneg_ck" CHECK ("analytical_cv" is null or "analytical_cv" >= 0),
	CONSTRAINT "bvs_concentration_mean_nonneg_ck" CHECK ("concentration_mean" is null or "concentration_mean" >= 0),
	CONSTRAINT "bvs_concentration_min_nonneg_ck" CHECK ("concentration_min" is null or "concentration_min" >= 0),
	CONSTRAINT "bvs_concentration_max_nonneg_ck" CHECK ("concentration_max" is null or "concentration_max" >= 0),
	CONSTRAINT "bvs_concentration_sd_nonneg_ck" CHECK ("concentration_sd" is null or "concentration_sd" >= 0),
	CONSTRAINT "bvs_concentration_standard_unit_mean_nonneg_ck" CHECK ("concentration_standard_unit_mean" is null or "concentration_standard_unit_mean" >= 0),
	CONSTRAINT "bvs_concentration_standard_unit_min_nonneg_ck" CHECK ("concentration_standard_unit_min" is null or "concentration_standard_unit_min" >= 0),
	CONSTRAINT "bvs_concentration_standard_unit_max_nonneg_ck" CHECK ("concentration_standard_unit_max" is null or "concentration_standard_unit_max" >= 0),
	CONSTRAINT "bvs_concentration_standard_unit_sd_nonneg_ck" CHECK ("concentration_standard_unit_sd" is null or "concentration_standard_unit_sd" >= 0),
	CONSTRAINT "bvs_sex_ck" CHECK ("bv_specifications"."sex_for_meta_analysis" is null or "bv_specifications"."sex_for_meta_analysis" in ('Males','Females','Mixed')),
	CONSTRAINT "bvs_interval_units_ck" CHECK ("interval_units" is null or "interval_units" in ('Week','Month','Day','Hour','Year','Other')),
	CONSTRAINT "bvs_duration_units_ck" CHECK ("study_duration_units" is null or "study_duration_units" in ('Week','Month','Day','Hour','Year','Other')),
	CONSTRAINT "bvs_sampling_times_ck" CHECK (("bv_specifications"."sampling_times_start_time" is null) = ("bv_specifications"."sampling_times_end_time" is null)),
	CONSTRAINT "bvs_unique_identifier_ck" CHECK (length(trim("bv_specifications"."unique_identifier")) > 0)
);
--> statement-breakpoint
CREATE TABLE "content_pages" (
	"id" integer PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"markdown" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_pages_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "disease_states" (
	"id" integer PRIMARY KEY NOT NULL,
	"item_type" text NOT NULL,
	CONSTRAINT "disease_states_item_type_unique" UNIQUE("item_type")
);
--> statement-breakpoint
CREATE TABLE "ethnicities" (
	"id" integer PRIMARY KEY NOT NULL,
	"ethnicity_expansion" text NOT NULL,
	CONSTRAINT "ethnicities_ethnicity_expansion_unique" UNIQUE("ethnicity_expansion")
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"jid" text,
	"name" text NOT NULL,
	"queue" text NOT NULL,
	"class_name" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress_stage" text,
	"progress_current" integer DEFAULT 0 NOT NULL,
	"progress_max" integer DEFAULT 0 NOT NULL,
	"error" text,
	"payload" jsonb,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "jobs_status_ck" CHECK ("jobs"."status" in ('queued', 'working', 'complete', 'failed')),
	CONSTRAINT "jobs_progress_ck" CHECK ("jobs"."progress_current" >= 0 and "jobs"."progress_max" >= 0)
);
--> statement-breakpoint
CREATE TABLE "login_throttles" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "mailing_list_members" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"synced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "matrices" (
	"id" integer PRIMARY KEY NOT NULL,
	"matrix_expansion" text NOT NULL,
	"matrix_explanation" text,
	CONSTRAINT "matrices_matrix_expansion_unique" UNIQUE("matrix_expansion")
);
--> statement-breakpoint
CREATE TABLE "matrix_consolidation_members" (
	"consolidation_id" integer NOT NULL,
	"matrix_id" integer NOT NULL,
	CONSTRAINT "matrix_consolidation_members_consolidation_id_matrix_id_pk" PRIMARY KEY("consolidation_id","matrix_id")
);
--> statement-breakpoint
CREATE TABLE "matrix_consolidations" (
	"id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	CONSTRAINT "matrix_consolidations_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "meta_calculation_datasets" (
	"meta_calculation_id" integer NOT NULL,
	"bv_specification_id" integer NOT NULL,
	"study_id" text NOT NULL,
	"grade" text NOT NULL,
	"cv" double precision NOT NULL,
	"ci_lower" double precision NOT NULL,
	"ci_upper" double precision NOT NULL,
	"weight" double precision NOT NULL,
	CONSTRAINT "meta_calculation_datasets_meta_calculation_id_bv_specification_id_pk" PRIMARY KEY("meta_calculation_id","bv_specification_id")
);
--> statement-breakpoint
CREATE TABLE "meta_calculations" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"analyte_id" integer NOT NULL,
	"matrix_id" integer,
	"matrix_consolidation_id" integer,
	"var_type" text NOT NULL,
	"median" double precision,
	"lower" double precision,
	"upper" double precision,
	"number_used" integer DEFAULT 0 NOT NULL,
	"method" text NOT NULL,
	"seed" integer,
	"comments" text,
	"display" boolean DEFAULT true NOT NULL,
	"reference_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meta_var_type_ck" CHECK ("meta_calculations"."var_type" in (':cvi', ':cvg')),
	CONSTRAINT "meta_method_ck" CHECK ("meta_calculations"."method" in ('none', 'single', 'range', 'bootstrap')),
	CONSTRAINT "meta_number_used_ck" CHECK ("meta_calculations"."number_used" >= 0),
	CONSTRAINT "meta_matrix_or_consolidation_ck" CHECK (("meta_calculations"."matrix_id" is null) <> ("meta_calculations"."matrix_consolidation_id" is null))
);
--> statement-breakpoint
CREATE TABLE "references" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"author" text,
	"journal" text,
	"volume" integer,
	"pages" text,
	"year_of_publication" integer,
	"pubmed_link" text,
	"doi" text,
	"link" text,
	"link_to_spanish_database" integer DEFAULT 0 NOT NULL,
	"article_url" text,
	"article_file_name" text,
	"article_file_key" text,
	"article_file_type" text,
	"is_demo" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "references_year_ck" CHECK ("references"."year_of_publication" is null or "references"."year_of_publication" between 1800 and 2200),
	CONSTRAINT "references_volume_ck" CHECK ("references"."volume" is null or "references"."volume" >= 0),
	CONSTRAINT "references_spanish_ck" CHECK ("references"."link_to_spanish_database" >= 0)
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"csrf_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "states_of_well_being" (
	"id" integer PRIMARY KEY NOT NULL,
	"state_of_well_being_descriptor_expansion" text NOT NULL,
	"state_of_well_being_descriptor_explanation" text,
	CONSTRAINT "states_of_well_being_state_of_well_being_descriptor_expansion_unique" UNIQUE("state_of_well_being_descriptor_expansion")
);
--> statement-breakpoint
CREATE TABLE "units" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "units_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"password_hash" text NOT NULL,
	"role" text DEFAULT 'admin' NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_role_ck" CHECK ("users"."role" in ('admin', 'curator'))
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bv_specification_disease_states" ADD CONSTRAINT "bv_specification_disease_states_bv_specification_id_bv_specifications_id_fk" FOREIGN KEY ("bv_specification_id") REFERENCES "public"."bv_specifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bv_specification_disease_states" ADD CONSTRAINT "bv_specification_disease_states_disease_state_id_disease_states_id_fk" FOREIGN KEY ("disease_state_id") REFERENCES "public"."disease_states"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bv_specifications" ADD CONSTRAINT "bv_specifications_reference_id_references_id_fk" FOREIGN KEY ("reference_id") REFERENCES "public"."references"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bv_specifications" ADD CONSTRAINT "bv_specifications_analyte_id_analytes_id_fk" FOREIGN KEY ("analyte_id") REFERENCES "public"."analytes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bv_specifications" ADD CONSTRAINT "bv_specifications_matrix_id_matrices_id_fk" FOREIGN KEY ("matrix_id") REFERENCES "public"."matrices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bv_specifications" ADD CONSTRAINT "bv_specifications_state_of_well_being_id_states_of_well_being_id_fk" FOREIGN KEY ("state_of_well_being_id") REFERENCES "public"."states_of_well_being"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bv_specifications" ADD CONSTRAINT "bv_specifications_ethnicity_id_ethnicities_id_fk" FOREIGN KEY ("ethnicity_id") REFERENCES "public"."ethnicities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bv_specifications" ADD CONSTRAINT "bv_specifications_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bv_specifications" ADD CONSTRAINT "bv_specifications_second_unit_id_units_id_fk" FOREIGN KEY ("second_unit_id") REFERENCES "public"."units"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bv_specifications" ADD CONSTRAINT "bv_specifications_overall_principle_method_id_analytical_principle_methods_id_fk" FOREIGN KEY ("overall_principle_method_id") REFERENCES "public"."analytical_principle_methods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "matrix_consolidation_members" ADD CONSTRAINT "matrix_consolidation_members_consolidation_id_matrix_consolidations_id_fk" FOREIGN KEY ("consolidation_id") REFERENCES "public"."matrix_consolidations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "matrix_consolidation_members" ADD CONSTRAINT "matrix_consolidation_members_matrix_id_matrices_id_fk" FOREIGN KEY ("matrix_id") REFERENCES "public"."matrices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meta_calculation_datasets" ADD CONSTRAINT "meta_calculation_datasets_meta_calculation_id_meta_calculations_id_fk" FOREIGN KEY ("meta_calculation_id") REFERENCES "public"."meta_calculations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meta_calculation_datasets" ADD CONSTRAINT "meta_calculation_datasets_bv_specification_id_bv_specifications_id_fk" FOREIGN KEY ("bv_specification_id") REFERENCES "public"."bv_specifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meta_calculations" ADD CONSTRAINT "meta_calculations_analyte_id_analytes_id_fk" FOREIGN KEY ("analyte_id") REFERENCES "public"."analytes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meta_calculations" ADD CONSTRAINT "meta_calculations_matrix_id_matrices_id_fk" FOREIGN KEY ("matrix_id") REFERENCES "public"."matrices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meta_calculations" ADD CONSTRAINT "meta_calculations_matrix_consolidation_id_matrix_consolidations_id_fk" FOREIGN KEY ("matrix_consolidation_id") REFERENCES "public"."matrix_consolidations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "analytes_display_name_uq" ON "analytes" USING btree (lower("display_name"));--> statement-breakpoint
CREATE INDEX "audit_entity_idx" ON "audit_log" USING btree ("entity","entity_id");--> statement-breakpoint
CREATE INDEX "bvs_analyte_idx" ON "bv_specifications" USING btree ("analyte_id");--> statement-breakpoint
CREATE INDEX "bvs_reference_idx" ON "bv_specifications" USING btree ("reference_id");--> statement-breakpoint
CREATE INDEX "bvs_matrix_idx" ON "bv_specifications" USING btree ("matrix_id");--> statement-breakpoint
CREATE INDEX "bvs_published_idx" ON "bv_specifications" USING btree ("published");--> statement-breakpoint
CREATE INDEX "bvs_updated_idx" ON "bv_specifications" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "jobs_jid_idx" ON "jobs" USING btree ("jid");--> statement-breakpoint
CREATE INDEX "jobs_created_idx" ON "jobs" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mailing_email_uq" ON "mailing_list_members" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "mcm_matrix_idx" ON "matrix_consolidation_members" USING btree ("matrix_id");--> statement-breakpoint
CREATE INDEX "mcd_spec_idx" ON "meta_calculation_datasets" USING btree ("bv_specification_id");--> statement-breakpoint
CREATE INDEX "meta_analyte_idx" ON "meta_calculations" USING btree ("analyte_id");--> statement-breakpoint
CREATE UNIQUE INDEX "meta_analyte_matrix_type_uq" ON "meta_calculations" USING btree ("analyte_id","matrix_id","var_type") WHERE "meta_calculations"."matrix_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "meta_analyte_consolidation_type_uq" ON "meta_calculations" USING btree ("analyte_id","matrix_consolidation_id","var_type") WHERE "meta_calculations"."matrix_consolidation_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "references_doi_uq" ON "references" USING btree (lower("doi")) WHERE "references"."doi" is not null;--> statement-breakpoint
CREATE INDEX "references_title_idx" ON "references" USING btree ("title");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_uq" ON "users" USING btree (lower("email"));