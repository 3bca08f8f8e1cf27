/**
 * What a tool call's arguments are once checked against its parameters: the one shape both
 * renderers (`<<…>>` Commands and gibb.eri.sh tool packs) read, kept apart so neither imports the other's module back.
 */

/** A checked argument value: what a parameter of type string/enum, integer/number or boolean holds. */
export type ArgumentValue = string | number | boolean;

/** Checked arguments keyed by parameter name; missing optional parameters are absent. */
export type Arguments = Record<string, ArgumentValue>;
