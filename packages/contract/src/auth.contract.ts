import { z } from 'zod';
import { ErrorSchema } from './common.js';
import { ANY_ROLE, defineRoute } from './route.js';

export const PasswordSchema = z
  .string()
  .min(8, 'Password must be at least 8 characters')
  .max(128, 'Password must be at most 128 characters');

export const SessionUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string().nullable(),
  role: z.string(),
});

export const SessionSchema = z.object({
  user: SessionUserSchema.nullable(),
  user_id: z.number().int().nullable(),
  csrf_token: z.string().nullable().describe('Send back in the X-CSRF-Token header of every write'),
});
export type Session = z.infer<typeof SessionSchema>;

export const getSession = defineRoute({
  method: 'GET',
  path: '/api/session',
  summary: 'Who is signed in (user null when nobody), and the CSRF token for writes',
  tags: ['auth'],
  access: 'public',
  responses: { 200: SessionSchema },
});

export const SignInBodySchema = z.object({
  email: z.string().trim().min(1, 'Email is required').max(254),
  password: z.string().min(1, 'Password is required').max(128, 'Password must be at most 128 characters'),
});

export const signIn = defineRoute({
  method: 'POST',
  path: '/users/sign_in',
  summary:
    'Sign in (JSON or form body {email, password}); sets the session cookie. 403 for a cross-site ' +
    'Origin or Referer; 429 (Retry-After) after repeated failures; 503 (Retry-After) while the server is busy checking passwords',
  tags: ['auth'],
  access: 'public',
  body: z.union([SignInBodySchema, z.object({ user: SignInBodySchema })]),
  responses: {
    200: SessionSchema,
    400: ErrorSchema,
    401: ErrorSchema,
    403: ErrorSchema,
    429: ErrorSchema,
    503: ErrorSchema,
  },
});

export const signOut = defineRoute({
  method: 'DELETE',
  path: '/users/sign_out',
  summary: 'Sign out: the session ends on the server',
  tags: ['auth'],
  access: ANY_ROLE,
  responses: { 200: z.object({ code: z.literal('success') }), 401: ErrorSchema, 403: ErrorSchema },
});

export const ChangePasswordBodySchema = z
  .object({
    current_password: z.string().min(1, 'Current password is required').max(128),
    password: PasswordSchema,
    password_confirmation: z.string().max(128),
  })
  .refine((b) => b.password === b.password_confirmation, {
    message: "Password confirmation doesn't match Password",
    path: ['password_confirmation'],
  });

export const changePassword = defineRoute({
  method: 'PUT',
  path: '/users',
  summary:
    'Change your password (the current one is required); other sessions end. Throttled as sign-in is (429, 503)',
  tags: ['auth'],
  access: ANY_ROLE,
  body: ChangePasswordBodySchema,
  responses: {
    200: SessionSchema,
    400: ErrorSchema,
    401: ErrorSchema,
    403: ErrorSchema,
    422: ErrorSchema,
    429: ErrorSchema,
    503: ErrorSchema,
  },
});
