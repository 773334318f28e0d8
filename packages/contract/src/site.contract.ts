import { z } from 'zod';
import { defineRoute } from './route.js';

export const SiteInfoSchema = z.object({
  data_use_notice: z.string(),
  citation: z.string(),
  content_source: z.enum(['builtin', 'remote']),
  demo_data: z.boolean().describe('Whether the catalogue holds demo records (the UI then says so)'),
});
export type SiteInfo = z.infer<typeof SiteInfoSchema>;

export const getSiteInfo = defineRoute({
  method: 'GET',
  path: '/api/site',
  summary:
    'The data-use notice and citation format shown on the home page (from configuration), and whether demo data is present',
  tags: ['content'],
  access: 'public',
  responses: { 200: SiteInfoSchema },
});
