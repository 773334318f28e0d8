/** Spec section 5: the RCV tools' alert when the analytical CV is 0 (a blank CVA counts as 0). */
export const CVA_ZERO_ALERT = 'Analytical CV (CVA) is zero – RCV calculation may be inaccurate.';
