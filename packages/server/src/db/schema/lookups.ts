/**
 * The lookups (spec section 3): matrices and their consolidations, states of well-being, disease
 * states, ethnicities, units, analytical methods.
 */
import { index, integer, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import { stamps, version } from './columns.js';

export const matrices = pgTable('matrices', {
  id: integer('id').primaryKey(),
  matrixExpansion: text('matrix_expansion').notNull().unique(),
  matrixExplanation: text('matrix_explanation'),
});

export const matrixConsolidations = pgTable('matrix_consolidations', {
  id: integer('id').primaryKey(),
  name: text('name').notNull().unique(),
  description: text('description'),
});

export const matrixConsolidationMembers = pgTable(
  'matrix_consolidation_members',
  {
    consolidationId: integer('consolidation_id')
      .notNull()
      .references(() => matrixConsolidations.id, { onDelete: 'cascade' }),
    matrixId: integer('matrix_id')
      .notNull()
      .references(() => matrices.id),
  },
  (t) => [primaryKey({ columns: [t.consolidationId, t.matrixId] }), index('mcm_matrix_idx').on(t.matrixId)],
);

export const statesOfWellBeing = pgTable('states_of_well_being', {
  id: integer('id').primaryKey(),
  expansion: text('state_of_well_being_descriptor_expansion').notNull().unique(),
  explanation: text('state_of_well_being_descriptor_explanation'),
});

export const diseaseStates = pgTable('disease_states', {
  id: integer('id').primaryKey(),
  itemType: text('item_type').notNull().unique(),
});

export const ethnicities = pgTable('ethnicities', {
  id: integer('id').primaryKey(),
  expansion: text('ethnicity_expansion').notNull().unique(),
});

export const units = pgTable('units', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  ...version,
  ...stamps,
});

export const analyticalPrincipleMethods = pgTable('analytical_principle_methods', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
});
