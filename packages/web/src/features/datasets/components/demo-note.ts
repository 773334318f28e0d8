/** How a demo dataset's grades are qualified wherever they show. */
export const DEMO_NOTE = 'provisional demo appraisal, not an official BIVAC assessment';
