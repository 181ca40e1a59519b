export const base = 40;
