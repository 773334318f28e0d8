import { z } from 'zod';
import { PasswordSchema } from './auth.contract.js';
import { errorsFor, IdParamsSchema, OkSchema, PositiveInt4Schema } from './common.js';
import { ADMINS, defineRoute, ROLES } from './route.js';

export const RoleSchema = z.enum(ROLES);

export const UserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string().nullable(),
  role: RoleSchema,
  active: z.boolean().describe('A deactivated account cannot sign in'),
  version: z.number().int(),
  created_at: z.string(),
});
export type User = z.infer<typeof UserSchema>;

export const listUsers = defineRoute({
  method: 'GET',
  path: '/api/users',
  summary: 'Every user with their role and whether the account is active (administrators)',
  tags: ['users'],
  access: ADMINS,
  responses: { 200: z.object({ data: z.array(UserSchema) }), ...errorsFor(401, 403) },
});

export const CreateUserBodySchema = z
  .object({
    email: z.email('Must be an e-mail address').max(254),
    name: z.string().trim().max(200).nullable().optional(),
    role: RoleSchema,
    password: PasswordSchema,
  })
  .strict();
export type CreateUserBody = z.infer<typeof CreateUserBodySchema>;

export const createUserRoute = defineRoute({
  method: 'POST',
  path: '/api/users',
  summary: 'Create a user with a role and a first password (administrators); 409 when the e-mail is taken',
  tags: ['users'],
  access: ADMINS,
  body: CreateUserBodySchema,
  responses: { 201: UserSchema, ...errorsFor(400, 401, 403, 409, 422) },
});

export const UpdateUserBodySchema = z
  .object({
    version: PositiveInt4Schema.describe('The version you saw; 409 when the user changed since'),
    role: RoleSchema.optional(),
    active: z.boolean().optional(),
  })
  .strict();
export type UpdateUserBody = z.infer<typeof UpdateUserBodySchema>;

export const updateUser = defineRoute({
  method: 'PATCH',
  path: '/api/users/:id',
  summary:
    'Change a role or (de)activate a user (administrators). Deactivating ends their sessions; ' +
    'an administrator cannot demote or deactivate themselves (422)',
  tags: ['users'],
  access: ADMINS,
  params: IdParamsSchema,
  body: UpdateUserBodySchema,
  responses: { 200: UserSchema, ...errorsFor(400, 401, 403, 404, 409, 422) },
});

export const resetUserPassword = defineRoute({
  method: 'PUT',
  path: '/api/users/:id/password',
  summary: "Set a user's password (administrators); every session of that user ends",
  tags: ['users'],
  access: ADMINS,
  params: IdParamsSchema,
  body: z.object({ password: PasswordSchema }).strict(),
  responses: { 200: OkSchema, ...errorsFor(400, 401, 403, 404) },
});
