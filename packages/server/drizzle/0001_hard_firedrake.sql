CREATE TABLE "reference_files" (
	"reference_id" integer PRIMARY KEY NOT NULL,
	"bytes" "bytea" NOT NULL,
	"content_type" text NOT NULL,
	"file_name" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reference_files_size_ck" CHECK ("reference_files"."size" > 0 and "reference_files"."size" = octet_length("reference_files"."bytes"))
);
--> statement-breakpoint
ALTER TABLE "reference_files" ADD CONSTRAINT "reference_files_reference_id_references_id_fk" FOREIGN KEY ("reference_id") REFERENCES "public"."references"("id") ON DELETE cascade ON UPDATE no action;