CREATE TABLE "dataset_raw_files" (
	"bv_specification_id" integer PRIMARY KEY NOT NULL,
	"bytes" "bytea" NOT NULL,
	"content_type" text NOT NULL,
	"file_name" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"uploaded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dataset_raw_files_size_ck" CHECK ("dataset_raw_files"."size" > 0 and "dataset_raw_files"."size" = octet_length("dataset_raw_files"."bytes"))
);
--> statement-breakpoint
ALTER TABLE "dataset_raw_files" ADD CONSTRAINT "dataset_raw_files_bv_specification_id_bv_specifications_id_fk" FOREIGN KEY ("bv_specification_id") REFERENCES "public"."bv_specifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dataset_raw_files" ADD CONSTRAINT "dataset_raw_files_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;