/**
 * The body measurements the fit finder compares; what a shopper's remembered measurements and an order line's
 * kept ones (decision 0040) are keyed by. Apart from fit-finder.ts so the cart, which is in the home page's
 * script, names them without loading the finder.
 */
export type FitKey = 'chest' | 'waist' | 'hip' | 'shoulder' | 'neck';
export const FIT_KEYS: readonly FitKey[] = ['chest', 'waist', 'hip', 'shoulder', 'neck'];
